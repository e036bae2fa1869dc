module github.com/docs-publish/docs-publish

go 1.26.0

require (
	github.com/cenkalti/backoff/v4 v4.3.0
	github.com/go-json-experiment/json v0.0.0-20260820222146-c27c302e5fc3
	github.com/google/go-cmp v0.7.0
	github.com/sethvargo/go-envconfig v1.4.3
	github.com/sethvargo/go-githubactions v1.4.0
	go.yaml.in/yaml/v3 v3.0.6
)
