module github.com/docs-publish/docs-publish/internal/benchmarks

go 1.26.0

require (
	github.com/docs-publish/docs-publish v0.0.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/image v0.47.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3 // indirect
	github.com/yuin/goldmark v1.8.6 // indirect
)

// The harness measures the action in this repository, as it is.
replace github.com/docs-publish/docs-publish => ../..
