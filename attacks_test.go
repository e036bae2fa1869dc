//go:build unix

package main

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/docs-publish/docs-publish/internal/ghaction/ghactiontest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// A description is input from whoever can open a pull request. Each attack
// below is run through the binary as the runner runs it, and must be
// refused within a few seconds, before any request reaches the service,
// without a byte of the file outside the workspace in any output, file,
// upload or summary.

// secretMark is what the file outside the workspace holds.
const secretMark = "OUTSIDE-SECRET-7f3c9a"

// outsideFile writes, beside the workspace, a file that would be a valid
// shared parameter if it were read.
func outsideFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "secret.yaml")
	content := "limit:\n  name: limit\n  in: query\n  type: string\n  description: " + secretMark + "\n"
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withRef is a Swagger 2.0 description whose one operation uses ref as a
// parameter.
func withRef(ref string) string {
	return "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths:\n  /books:\n    get:\n      parameters:\n        - $ref: '" + ref + "'\n      responses:\n        200: {description: ok}\n"
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestAttacksFromADescription(t *testing.T) {
	t.Parallel()
	secret := outsideFile(t)
	outsideDir := filepath.Dir(secret)
	cases := []struct {
		name   string
		inputs map[string]string
		// files builds the workspace's files, knowing where it is.
		files func(ws string) map[string]string
		setup func(t *testing.T, ws string)
		want  []string
	}{
		{name: "$ref climbing out with ..",
			files: func(ws string) map[string]string {
				rel, _ := filepath.Rel(filepath.Join(ws, "api"), secret)
				return map[string]string{"api/openapi.yaml": withRef(filepath.ToSlash(rel) + "#/limit")}
			},
			want: []string{"leaves the workspace", "api/openapi.yaml", "line=7", "refs must name files inside it"}},
		{name: "$ref to an absolute path",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef(secret + "#/limit")}
			},
			want: []string{"absolute path", "inside the workspace"}},
		{name: "$ref to a file: URL",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("file://" + filepath.ToSlash(secret) + "#/limit")}
			},
			want: []string{"is a file: URL", "line=7", "inside the workspace"}},
		{name: "bundle: false with a file: URL", inputs: map[string]string{"bundle": "false"},
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("FILE:///etc/passwd")}
			},
			want: []string{"is a file: URL"}},
		{name: "$ref to /etc/passwd",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("../../../../../../../../etc/passwd")}
			},
			want: []string{"leaves the workspace"}},
		{name: "$ref to a link that points out",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("params.yaml#/limit")}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink(secret, filepath.Join(ws, "api", "params.yaml"))) },
			want:  []string{"params.yaml", "outside the workspace through a symbolic link"}},
		{name: "$ref through a linked folder that points out",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("common/secret.yaml#/limit")}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink(outsideDir, filepath.Join(ws, "api", "common"))) },
			want:  []string{"outside the workspace through a symbolic link"}},
		{name: "$ref to /dev/zero",
			files: func(string) map[string]string { return map[string]string{"api/openapi.yaml": withRef("/dev/zero")} },
			want:  []string{"absolute path"}},
		{name: "$ref to a link to /dev/urandom",
			files: func(string) map[string]string { return map[string]string{"api/openapi.yaml": withRef("random.yaml")} },
			setup: func(t *testing.T, ws string) {
				must(t, os.Symlink("/dev/urandom", filepath.Join(ws, "api", "random.yaml")))
			},
			want: []string{"random.yaml", "outside the workspace"}},
		{name: "$ref to a FIFO",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("pipe.yaml#/limit")}
			},
			setup: func(t *testing.T, ws string) { must(t, syscall.Mkfifo(filepath.Join(ws, "api", "pipe.yaml"), 0o644)) },
			want:  []string{"pipe.yaml is a named pipe", "regular files"}},
		{name: "$ref into .git",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("../.git/config"),
					".git/config": "[http]\n  extraheader = AUTHORIZATION: basic " + secretMark + "\n"}
			},
			want: []string{"hidden file or folder (.git)", "refused"}},
		{name: "$ref to a hidden credentials file",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("../.netrc"), ".netrc": "machine x login y password " + secretMark + "\n"}
			},
			want: []string{"hidden file or folder (.netrc)", "refused"}},
		{name: "$ref through a link to a hidden file",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("env.yaml"), ".env": "API_KEY=" + secretMark + "\n"}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink("../.env", filepath.Join(ws, "api", "env.yaml"))) },
			want:  []string{"leads through a symbolic link to .env", "refused"}},
		{name: "$ref into a hidden folder",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("../.kube/config"), ".kube/config": "token: " + secretMark + "\n"}
			},
			want: []string{"hidden file or folder (.kube)", "refused"}},
		{name: "$ref through a linked folder into .git",
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("docs/config"), ".git/config": "x: " + secretMark + "\n"}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink("../.git", filepath.Join(ws, "api", "docs"))) },
			want:  []string{"leads through a symbolic link to .git/config", "refused"}},
		{name: "bundle: false with a $ref out", inputs: map[string]string{"bundle": "false"},
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": withRef("../../../etc/passwd")}
			},
			want: []string{"leaves the workspace"}},
		{name: "nested inlining", files: func(string) map[string]string {
			var b strings.Builder
			b.WriteString("swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\n")
			for i := range 1500 {
				fmt.Fprintf(&b, "x-copy-%d: {$ref: 'a.yaml#/v'}\n", i)
			}
			return map[string]string{"api/openapi.yaml": b.String(), "api/a.yaml": "v: {x: {$ref: 'b.yaml#/v'}}\n", "api/b.yaml": "v: \"" + strings.Repeat("b", 1<<20) + "\"\n"}
		}, want: []string{"$refs inline more than 64 MiB"}},
		{name: "inlining nested over many small files", files: func(string) map[string]string {
			// Each level lists ten $refs to the next: 10^12 copies of a
			// 1 KiB leaf from a dozen small files.
			files := map[string]string{"api/openapi.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-copy: {$ref: 'l0.yaml#/v'}\n"}
			for l := range 12 {
				var b strings.Builder
				b.WriteString("v:\n")
				for range 10 {
					fmt.Fprintf(&b, "  - {$ref: 'l%d.yaml#/v'}\n", l+1)
				}
				files[fmt.Sprintf("api/l%d.yaml", l)] = b.String()
			}
			files["api/l12.yaml"] = "v: \"" + strings.Repeat("c", 1024) + "\"\n"
			return files
		}, want: []string{"$refs inline more than 64 MiB"}},
		{name: "file is a link that points out", inputs: map[string]string{"file": "api/openapi.yaml"},
			files: func(string) map[string]string { return map[string]string{} },
			setup: func(t *testing.T, ws string) {
				must(t, os.MkdirAll(filepath.Join(ws, "api"), 0o755))
				must(t, os.Symlink(secret, filepath.Join(ws, "api", "openapi.yaml")))
			},
			want: []string{"input file", "outside the workspace through a symbolic link"}},
		{name: "file is a FIFO",
			files: func(string) map[string]string { return map[string]string{} },
			setup: func(t *testing.T, ws string) {
				must(t, os.MkdirAll(filepath.Join(ws, "api"), 0o755))
				must(t, syscall.Mkfifo(filepath.Join(ws, "api", "openapi.yaml"), 0o644))
			},
			want: []string{"input file", "named pipe"}},
		{name: "alias bomb by bytes",
			files: func(string) map[string]string {
				var b strings.Builder
				b.WriteString("swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-big: &big \"" + strings.Repeat("a", 1<<20) + "\"\nx-many:\n")
				for range 8000 {
					b.WriteString("  - *big\n")
				}
				return map[string]string{"api/openapi.yaml": b.String()}
			},
			want: []string{"aliases expand to more than 64 MiB", "api/openapi.yaml"}},
		{name: "$ref inlining bomb",
			files: func(string) map[string]string {
				var b strings.Builder
				b.WriteString("swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\n")
				for i := range 8000 {
					fmt.Fprintf(&b, "x-copy-%d: {$ref: 'big.yaml#/v'}\n", i)
				}
				return map[string]string{"api/openapi.yaml": b.String(), "api/big.yaml": "v: \"" + strings.Repeat("a", 1<<20) + "\"\n"}
			},
			want: []string{"$refs inline more than 64 MiB"}},
		{name: "depth spread over files",
			files: func(string) map[string]string {
				files := map[string]string{"api/openapi.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-deep: {$ref: 'd0.yaml'}\n"}
				for i := range 12 {
					next := fmt.Sprintf("{$ref: 'd%d.yaml'}", i+1)
					if i == 11 {
						next = "end"
					}
					files[fmt.Sprintf("api/d%d.yaml", i)] = strings.Repeat("{a: ", 950) + next + strings.Repeat("}", 950) + "\n"
				}
				return files
			},
			want: []string{"nests deeper than 10000 levels, counting through the files"}},
		{name: "a file too deep", files: func(string) map[string]string {
			return map[string]string{"api/openapi.yaml": "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-deep: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n"}
		}, want: []string{"nests deeper than 1000 levels"}},
		{name: "bundle-path through a linked folder", inputs: map[string]string{"bundle-path": "out/bundle.json"},
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": readSampleFile("bookstore.swagger2.yaml")}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink(outsideDir, filepath.Join(ws, "out"))) },
			want:  []string{"input bundle-path", "outside the workspace through a symbolic link"}},
		{name: "download-path through a linked folder", inputs: map[string]string{"download": "true", "download-path": "out/site.zip"},
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": readSampleFile("bookstore.swagger2.yaml")}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink(outsideDir, filepath.Join(ws, "out"))) },
			want:  []string{"input download-path", "outside the workspace through a symbolic link"}},
		{name: "extract-to through a linked folder", inputs: map[string]string{"extract-to": "out/site"},
			files: func(string) map[string]string {
				return map[string]string{"api/openapi.yaml": readSampleFile("bookstore.swagger2.yaml")}
			},
			setup: func(t *testing.T, ws string) { must(t, os.Symlink(outsideDir, filepath.Join(ws, "out"))) },
			want:  []string{"input extract-to", "outside the workspace through a symbolic link"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := startEmulator(t, nil)
			in := baseInputs(emu)
			for k, v := range tc.inputs {
				in[k] = v
			}
			var files map[string]string
			var setup func(string)
			if tc.setup != nil {
				setup = func(ws string) { tc.setup(t, ws) }
			}
			// The workspace's path is known only inside the run: build the
			// files there.
			start := time.Now()
			run := runActionWith(t, "push", in, nil, func(ws string, _ map[string]string) {
				files = tc.files(ws)
				for name, content := range files {
					p := filepath.Join(ws, name)
					must(t, os.MkdirAll(filepath.Dir(p), 0o755))
					must(t, os.WriteFile(p, []byte(content), 0o644))
				}
				if setup != nil {
					setup(ws)
				}
			})
			if run.code == 0 {
				t.Fatalf("the attack was not refused:\n%s", run.stdout)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("refused after %s, want within a few seconds", took)
			}
			errs := strings.Join(annotations(run.stdout, "error"), "\n")
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("the error does not say %q:\n%s", w, errs)
				}
			}
			if n := len(emu.Requests()); n != 0 {
				t.Errorf("%d requests reached the service", n)
			}
			assertNoSecret(t, run, emu.Requests())
			if entries, _ := os.ReadDir(outsideDir); len(entries) != 1 {
				t.Errorf("written outside the workspace: %v", entries)
			}
		})
	}
}

// assertNoSecret: nothing of the file outside the workspace was shown,
// written or sent.
func assertNoSecret(t *testing.T, run actionRun, reqs any) {
	t.Helper()
	for where, text := range map[string]string{"stdout": run.stdout, "stderr": run.stderr, "summary": run.summary, "outputs": fmt.Sprint(run.outputs), "requests": fmt.Sprint(reqs)} {
		if strings.Contains(text, secretMark) {
			t.Errorf("the outside file's content appears in %s", where)
		}
	}
	for p, b := range workspaceFiles(run.workspace) {
		rel, _ := filepath.Rel(run.workspace, p)
		hiddenSource := strings.HasPrefix(rel, ".") || strings.Contains(rel, string(filepath.Separator)+".")
		if bytes.Contains(b, []byte(secretMark)) && !hiddenSource {
			t.Errorf("the secret's content appears in %s", p)
		}
	}
}

func readSampleFile(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", "specs", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestTimeoutCoversLoading: a run given timeout: 2s on a description that
// takes longer to load stops in about 2 s, and says it ran out of time while
// loading.
func TestTimeoutCoversLoading(t *testing.T) {
	testenv.Long(t) // loads 40 MB of YAML
	t.Parallel()
	// About 40 MB of YAML: several seconds to parse on any machine.
	var b strings.Builder
	b.WriteString("swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\nx-data:\n")
	for i := range 400_000 {
		fmt.Fprintf(&b, "  - {name: item-%d, values: [1, 2, 3, 4, 5, 6, 7, 8], text: \"%s\"}\n", i, strings.Repeat("x", 40))
	}
	emu := startEmulator(t, nil)
	in := baseInputs(emu)
	in["timeout"] = "2s"
	var start time.Time
	run := runActionWith(t, "push", in, map[string]string{"api/openapi.yaml": b.String()}, func(string, map[string]string) { start = time.Now() })
	took := time.Since(start)
	if run.code == 0 {
		t.Fatal("the run finished: the description loaded within the timeout, make it larger")
	}
	errs := strings.Join(annotations(run.stdout, "error"), "\n")
	if !strings.Contains(errs, "loading the description") || !strings.Contains(errs, "timeout (2s), which bounds the whole run, ran out") {
		t.Errorf("the error does not say timeout ran out while loading:\n%s", errs)
	}
	// From the process's start: allow for reading 40 MB, not for the
	// seconds parsing would take.
	if took > 5*time.Second {
		t.Errorf("stopped after %s, want about 2s", took)
	}
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("%d requests reached the service", n)
	}
}

// TestSiblingFolderRefsWork: confinement is to the workspace, not to the
// description's folder: a $ref to a sibling folder inside it works.
func TestSiblingFolderRefsWork(t *testing.T) {
	t.Parallel()
	params := "limit:\n  name: limit\n  in: query\n  type: integer\n"
	in := map[string]string{"file": "api/openapi.yaml", "dry-run": "true", "bundle-path": "out/bundle.json"}
	run := runAction(t, in, map[string]string{"api/openapi.yaml": withRef("../common/params.yaml#/limit"), "common/params.yaml": params})
	if run.code != 0 {
		t.Fatalf("exit %d\n%s", run.code, run.stdout)
	}
	bundle, _ := os.ReadFile(filepath.Join(run.workspace, "out", "bundle.json"))
	if !bytes.Contains(bundle, []byte(`"parameters":{"limit":{"name":"limit"`)) {
		t.Errorf("the sibling folder's parameter was not bundled: %s", bundle)
	}
}

// TestManyDefinitions: 100,000 definitions in another file, each referred to
// once, are bundled and validated within the run's limits. That their cost
// grows in proportion to their number (an unindexed lookup made it
// quadratic) is TestManyDefinitionsLookupsLinear's, in internal/openapi,
// which counts the work rather than timing it.
func TestManyDefinitions(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // a description of megabytes
	var defs, props strings.Builder
	defs.WriteString("{")
	props.WriteString("{")
	for i := range 100_000 {
		if i > 0 {
			defs.WriteString(",")
			props.WriteString(",")
		}
		fmt.Fprintf(&defs, `"D%d":{"type":"string"}`, i)
		fmt.Fprintf(&props, `"p%d":{"$ref":"defs.json#/D%d"}`, i, i)
	}
	defs.WriteString("}")
	props.WriteString("}")
	doc := `{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{},"definitions":{"Big":{"type":"object","properties":` + props.String() + `}}}`
	in := map[string]string{"file": "api/openapi.json", "dry-run": "true", "bundle-path": "out/bundle.json"}
	run := runAction(t, in, map[string]string{"api/openapi.json": doc, "api/defs.json": defs.String()})
	if run.code != 0 {
		t.Fatalf("exit %d\n%s", run.code, run.stdout)
	}
	bundle, _ := os.ReadFile(filepath.Join(run.workspace, "out", "bundle.json"))
	if !bytes.Contains(bundle, []byte(`"D99999":{"type":"string"}`)) || !bytes.Contains(bundle, []byte(`"p99999":{"$ref":"#/definitions/D99999"}`)) {
		t.Error("the bundle does not hold the lifted definitions")
	}
}

// hostile is a service that answers each endpoint with what a case says,
// counting requests.
type hostile struct {
	list, release, download http.HandlerFunc
	requests                atomic.Int32
}

func (h *hostile) start(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		io.Copy(io.Discard, r.Body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/docs.list") && h.list != nil:
			h.list(w, r)
		case strings.HasSuffix(r.URL.Path, "/docs.list"):
			io.WriteString(w, `{"docs":[{"id":17}]}`)
		case strings.HasSuffix(r.URL.Path, "/docs.release") && h.release != nil:
			h.release(w, r)
		case strings.HasSuffix(r.URL.Path, "/docs.release"):
			io.WriteString(w, `{"build":{"id":1001}}`)
		case strings.HasSuffix(r.URL.Path, "/docs.builds.download") && h.download != nil:
			h.download(w, r)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func zipOf(t *testing.T, dirs int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("index.html")
	io.WriteString(w, "<h1>site</h1>")
	for i := range dirs {
		zw.Create(fmt.Sprintf("d%d/", i))
	}
	must(t, zw.Close())
	return buf.Bytes()
}

// TestAttacksFromTheService: what the service sends cannot steer the log
// (no workflow command of its own), cannot show the token in any form,
// cannot send the run to a file, and cannot unpack without bounds.
func TestAttacksFromTheService(t *testing.T) {
	t.Parallel()
	encoded := base64.StdEncoding.EncodeToString([]byte("Authorization: Bearer " + testToken))
	manyDirs := zipOf(t, 100_001)
	cases := []struct {
		name   string
		h      *hostile
		inputs map[string]string
		want   string
	}{
		{name: "doc id with a workflow command", h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"docs":[{"id":"17\n::warning::pwned\n::stop-commands::x"}]}`)
		}}, want: "docs[0].id is text holding the control character U+000A"},
		{name: "build id with a line break", h: &hostile{release: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"build":{"id":"1001\r\n::set-output name=build-id::evil"}}`)
		}}, want: "build.id is text holding the control character U+000D"},
		{name: "build id with a bidi control", h: &hostile{release: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"build":{"id":"1001\u202egpj.exe"}}`)
		}}, want: "build.id is text holding the control character U+202E"},
		{name: "message with commands and the token encoded", h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error_message":"bad\n::warning::pwned %s %s %s","tracking_id":"t\n::error::x"}`,
				url.QueryEscape(testToken), encoded, strings.ReplaceAll(testToken, "-", `\u002d`))
		}}, want: "service answered 400"},
		{name: "messages with commands after white space the runner trims", h: &hostile{list: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, "bad")
			for _, ws := range ghactiontest.WhiteSpace() {
				fmt.Fprintf(w, "\n%c::warning title=pwned::x %c##[error]y\r%c::stop-commands::z", ws, ws, ws)
			}
		}}, want: "service answered 401"},
		{name: "redirect to a file", h: &hostile{download: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		}}, inputs: map[string]string{"download": "true"}, want: "not http(s)"},
		{name: "a zip of 100,001 folders", h: &hostile{download: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/zip")
			w.Write(manyDirs)
		}}, inputs: map[string]string{"extract-to": "site"}, want: "holds 100002 entries, more than 100000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A bounded run: a defence that gave way would otherwise wait
			// for the build until go test's own timeout.
			in := map[string]string{"token": testToken, "api-url": tc.h.start(t), "project-id": "4711", "file": "api/openapi.yaml",
				"timeout": "20s", "build-timeout": "15s"}
			for k, v := range tc.inputs {
				in[k] = v
			}
			start := time.Now()
			run := runAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
			if run.code == 0 {
				t.Fatalf("the run succeeded:\n%s", run.stdout)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("failed after %s, want within a few seconds", took)
			}
			errs := annotations(run.stdout, "error")
			if len(errs) == 0 || !strings.Contains(errs[len(errs)-1], tc.want) {
				t.Errorf("error %q does not say %q", errs, tc.want)
			}
			// Read as the runner reads the log: the action's own commands
			// only, each at a line's start.
			for _, c := range ghactiontest.Commands(run.stdout + run.stderr) {
				if c.Indented || c.Legacy || !slices.Contains([]string{"add-mask", "error", "warning", "notice", "group", "endgroup", "debug"}, c.Name) ||
					strings.Contains(c.Properties["title"], "pwned") {
					t.Errorf("the service issued a command: %q", c.Text)
				}
			}
			var log strings.Builder // what the runner shows: not the ::add-mask:: commands
			for _, line := range strings.Split(run.stdout+run.stderr, "\n") {
				if !strings.HasPrefix(line, "::add-mask::") {
					log.WriteString(line + "\n")
				}
			}
			for where, text := range map[string]string{"log": log.String(), "summary": run.summary} {
				for _, form := range []string{url.QueryEscape(testToken), encoded} {
					if strings.Contains(text, form) {
						t.Errorf("the token shows encoded in the %s: %s", where, form)
					}
				}
			}
			if _, err := os.Stat(filepath.Join(run.workspace, "site")); err == nil {
				t.Error("a site folder was left")
			}
			entries, _ := os.ReadDir(run.workspace)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".part") || strings.Contains(e.Name(), "escape") {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestIDsStayInTheirFileName: a build id is kept exactly as the service
// wrote it, whatever path it spells, and the default download-path holds
// it percent-encoded: one file in the workspace, never a path out of it or a
// hidden file.
func TestIDsStayInTheirFileName(t *testing.T) {
	t.Parallel()
	site := zipOf(t, 0)
	cases := []struct{ id, zipPath string }{
		{"../../escape", "docs-build-..%2F..%2Fescape.zip"},
		{"/tmp/abs", "docs-build-%2Ftmp%2Fabs.zip"},
		{".hidden", "docs-build-.hidden.zip"},
		{`..\..\win`, "docs-build-..%5C..%5Cwin.zip"},
	}
	for _, tc := range cases {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			h := &hostile{
				release: func(w http.ResponseWriter, r *http.Request) {
					json.NewEncoder(w).Encode(map[string]any{"build": map[string]any{"id": tc.id}})
				},
				download: func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Query().Get("id") != tc.id {
						http.Error(w, "no such build", http.StatusNotFound)
						return
					}
					w.Header().Set("Content-Type", "application/zip")
					w.Write(site)
				},
			}
			in := map[string]string{"token": testToken, "api-url": h.start(t), "project-id": "4711", "file": "api/openapi.yaml", "download": "true"}
			run := runAction(t, in, map[string]string{"api/openapi.yaml": readSample(t, "bookstore.swagger2.yaml")})
			if run.code != 0 {
				t.Fatalf("exit %d\n%s", run.code, run.stdout)
			}
			if run.outputs["build-id"] != tc.id || run.outputs["zip-path"] != tc.zipPath {
				t.Errorf("build-id %q, zip-path %q; want %q, %q", run.outputs["build-id"], run.outputs["zip-path"], tc.id, tc.zipPath)
			}
			got, err := os.ReadFile(filepath.Join(run.workspace, tc.zipPath))
			if err != nil || !bytes.Equal(got, site) {
				t.Errorf("the zip is not at %s in the workspace: %v", tc.zipPath, err)
			}
			var files []string
			for p := range workspaceFiles(run.workspace) {
				rel, _ := filepath.Rel(run.workspace, p)
				files = append(files, filepath.ToSlash(rel))
			}
			slices.Sort(files)
			if want := []string{"api/openapi.yaml", tc.zipPath}; !slices.Equal(files, want) {
				t.Errorf("the workspace holds %q, want %q", files, want)
			}
		})
	}
}

// TestEveryLoadErrorIsReported: every $ref that does not resolve and every
// referenced file that cannot be read is an annotation at its file, line
// and column, and a row of the summary's findings, all in one run.
func TestEveryLoadErrorIsReported(t *testing.T) {
	t.Parallel()
	main := "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths:\n  /books:\n    get:\n      parameters:\n" +
		"        - $ref: 'common/params.yaml#/limit'\n" + // line 7: a file with a syntax error
		"        - $ref: 'common/nope.yaml#/offset'\n" + // line 8: no such file
		"        - $ref: 'common/ok.yaml#/missing'\n" + // line 9: no such pointer
		"        - $ref: '../../outside.yaml#/x'\n" + // line 10: outside the workspace
		"      responses:\n        200: {description: ok}\n"
	files := map[string]string{
		"api/openapi.yaml":         main,
		"api/common/params.yaml":   "limit:\n  name: limit\n  in: [query\n", // line 3: unclosed flow sequence
		"api/common/ok.yaml":       "offset: {name: offset, in: query, type: integer}\n",
		"api/common/unrelated.txt": "",
	}
	emu := startEmulator(t, nil)
	in := baseInputs(emu)
	run := runAction(t, in, files)
	if run.code == 0 {
		t.Fatalf("exit 0\n%s", run.stdout)
	}
	want := []string{
		"file=api/common/params.yaml,line=",
		"col=17,file=api/openapi.yaml,line=8",
		"col=17,file=api/openapi.yaml,line=9",
		"col=17,file=api/openapi.yaml,line=10",
	}
	errs := annotations(run.stdout, "error")
	for _, w := range want {
		if !slices.ContainsFunc(errs, func(l string) bool { return strings.Contains(l, w) }) {
			t.Errorf("no ::error %s in\n%s", w, strings.Join(errs, "\n"))
		}
	}
	// The run's final error, the last annotation, sums them up, at no
	// place: each has its own annotation.
	if last := errs[len(errs)-1]; strings.Contains(last, "line=") || !strings.Contains(last, "4 errors in 2 files and 0 warnings (see the annotations)") {
		t.Errorf("the final error %q does not sum up the load errors", last)
	}
	if n := strings.Count(run.summary, "| ❌ |"); n != 4 {
		t.Errorf("%d findings in the summary, want 4:\n%s", n, run.summary)
	}
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("%d requests reached the service", n)
	}
}
