package emulator

import (
	"bytes"
	"net"
	"net/http"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestTokenIsRandomByDefault: an emulator started without a token makes
// one of its own, new at each start, and accepts no well-known one.
func TestTokenIsRandomByDefault(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, cfg := range []Config{Default(), Default(), {Projects: Default().Projects}, {Projects: Default().Projects}} {
		s, err := Start(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tok := s.Config().Token
		if !regexp.MustCompile(`^emu-[0-9a-f]{32}$`).MatchString(tok) || seen[tok] {
			t.Errorf("token %q: want a new random one at each start", tok)
		}
		seen[tok] = true
		for _, guess := range []string{"emulator-token", ""} {
			if code := list(t, s, guess, ""); code != http.StatusUnauthorized {
				t.Errorf("token %q: %d, want 401", guess, code)
			}
		}
		if code := list(t, s, tok, ""); code != http.StatusOK {
			t.Errorf("its own token: %d, want 200", code)
		}
	}
}

// list asks s for project 4711's docs with tok, sending host as the Host
// header when it is not empty.
func list(t *testing.T, s *Server, tok, host string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/docs.list?projectId=4711", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestForeignHostRefused: on loopback, a request whose Host is not the
// address the emulator listens on (or localhost at its port) is refused,
// as a page reaching it through DNS rebinding would send; beyond loopback
// Host is not checked.
func TestForeignHostRefused(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	var mu sync.Mutex
	s := start(t, Config{Log: lockedWriter{&mu, &log}})
	_, port, _ := net.SplitHostPort(s.Addr())
	other := strconv.Itoa(must(strconv.Atoi(port)) + 1)
	cases := []struct {
		host string
		want int
	}{
		{"127.0.0.1:" + port, 200},
		{"localhost:" + port, 200},
		{"LocalHost:" + port, 200},
		{"rebound.example:" + port, 403},
		{"rebound.example", 403},
		{"localhost.rebound.example:" + port, 403},
		{"127.0.0.1:" + other, 403},
		{"127.0.0.2:" + port, 403},
		{"127.0.0.1", 403}, // port 80 implied
		{"[::1]:" + port, 403},
	}
	for _, tc := range cases {
		if code := list(t, s, token, tc.host); code != tc.want {
			t.Errorf("Host %s: %d, want %d", tc.host, code, tc.want)
		}
	}
	// The live sites and uploads are refused alike, and nothing is stored.
	req, _ := http.NewRequest("GET", s.URL()+"/sites/", nil)
	req.Host = "rebound.example:" + port
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("a site through a foreign Host: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	req, _ = http.NewRequest("PUT", s.URL()+"/projects/4711/files/openapi.yml", strings.NewReader(`{"content":{"openapi":"3.0.0"},"branch":"main"}`))
	req.Host = "rebound.example:" + port
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("an upload through a foreign Host: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if vs := s.Versions("4711", "main", "openapi.yml"); len(vs) != 0 {
		t.Errorf("an upload through a foreign Host was stored: %d versions", len(vs))
	}
	mu.Lock()
	if !strings.Contains(log.String(), "GET /docs.list?projectId=4711 403") {
		t.Errorf("the refusal is not in the request log:\n%s", log.String())
	}
	mu.Unlock()

	// On every interface the emulator is reached by whatever name the
	// network gives it.
	wide, err := StartOn(Config{Token: token, Projects: Default().Projects}, ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer wide.Close()
	if code := list(t, wide, token, "build-host.example"); code != 200 {
		t.Errorf("beyond loopback, another Host: %d, want 200", code)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestStoredVersionsAreCapped: repeated large uploads keep the stored
// versions, all files together, within StoredBytes: the oldest are let go,
// each with a line in the request log, and version numbers go on. Not
// parallel: it measures the heap.
func TestStoredVersionsAreCapped(t *testing.T) {
	testenv.Long(t) // uploads many megabytes
	const mib = 1 << 20
	var log bytes.Buffer
	var mu sync.Mutex
	s := start(t, Config{StoredBytes: 4 * mib, Log: lockedWriter{&mu, &log}})
	pad := strings.Repeat("p", mib)
	upload := func(name string, i int) {
		t.Helper()
		body := `{"content":{"openapi":"3.0.0","info":{"title":"v` + strconv.Itoa(i) + `","version":"1"},"paths":{},"x-pad":"` + pad + `"},"branch":"main"}`
		if code, _, b := call(t, "PUT", s.URL()+"/projects/4711/files/"+name, body); code != 200 {
			t.Fatalf("upload %d: %d %s", i, code, b)
		}
	}
	stored := func() (n int) {
		for _, name := range []string{"openapi.yml", "other.yml"} {
			for _, v := range s.Versions("4711", "main", name) {
				n += len(v.Content)
			}
		}
		return n
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 1; i <= 40; i++ {
		upload("openapi.yml", i)
		if i%10 == 0 {
			upload("other.yml", i)
		}
		if n := stored(); n > 4*mib {
			t.Fatalf("after upload %d the emulator keeps %d bytes of versions, over its 4 MiB", i, n)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 16*mib {
		t.Errorf("the heap grew by %d MiB over 44 uploads of 1 MiB", grew/mib)
	}
	// Each upload is held about twice (the body, and the content kept),
	// besides the test's own body: not copied again and again (about 4 MiB
	// in all, measured; 10 when the body was read twice and hashed through
	// a string).
	if per := (after.TotalAlloc - before.TotalAlloc) / 44; per > 6*mib {
		t.Errorf("an upload of 1 MiB allocates %.1f MiB", float64(per)/mib)
	}
	vs := s.Versions("4711", "main", "openapi.yml")
	if len(vs) == 0 || vs[len(vs)-1].Version != 40 || !bytes.Contains(vs[len(vs)-1].Content, []byte(`"v40"`)) {
		t.Fatalf("the latest version is not kept: %d versions", len(vs))
	}
	for i, v := range vs {
		if v.Version != 40-len(vs)+1+i {
			t.Errorf("versions %d at %d: not the newest, in order", v.Version, i)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"let go of version 1 of openapi.yml on branch main of project 4711", "let go of version 1 of other.yml on branch main of project 4711"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("no %q in the request log", want)
		}
	}
}

// TestUploadContentTypes: the emulator refuses an upload whose Content-Type
// the service would refuse, and stores nothing. The interface says that
// JSON bodies carry "application/json;charset=UTF-8" and that the header
// matters for the file update, so:
//   - another media type is refused, a form or text included: a server
//     reads a body by its media type, and none of these is read as JSON;
//     so is a JSON-based type (application/merge-patch+json), which is not
//     application/json, and a missing or unparsable header;
//   - a charset other than UTF-8 is refused: the interface names UTF-8 and
//     RFC 8259 (section 8.1) requires it for JSON between systems;
//   - application/json without a charset, and the header written in other
//     letter cases or with spaces, is accepted: media types and charset
//     names are case-insensitive (RFC 9110, section 8.3.1), and UTF-8 is
//     JSON's only encoding, so refusing them would fail a client the
//     service serves.
func TestUploadContentTypes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		contentType string
		want        int
	}{
		{"application/json;charset=UTF-8", 200},
		{"application/json", 200},
		{"application/json; charset=utf-8", 200},
		{`APPLICATION/JSON;Charset="UTF-8"`, 200},
		{"", 415},
		{"text/plain", 415},
		{"text/plain;charset=UTF-8", 415},
		{"text/json", 415},
		{"application/x-www-form-urlencoded", 415},
		{"multipart/form-data; boundary=x", 415},
		{"application/merge-patch+json", 415},
		{"application/octet-stream", 415},
		{"application/json;charset=ISO-8859-1", 415},
		{"application/json;charset=UTF-16", 415},
		{"application/json;charset", 415},
		{"application/json, text/plain", 415},
	}
	for _, tc := range cases {
		t.Run(tc.contentType, func(t *testing.T) {
			t.Parallel()
			s := start(t, Config{})
			code, _, body := call(t, "PUT", s.URL()+"/projects/4711/files/openapi.yml", `{"content":{"openapi":"3.0.0"},"branch":"main"}`, "Content-Type", tc.contentType)
			if code != tc.want {
				t.Fatalf("status %d, want %d (%s)", code, tc.want, body)
			}
			stored := len(s.Versions("4711", "main", "openapi.yml"))
			if (tc.want == 200) != (stored == 1) {
				t.Errorf("%d versions stored after a %d", stored, code)
			}
			if tc.want == 415 && !strings.Contains(string(body), `"error_code":1005`) && !strings.Contains(string(body), `"error_code":"1005"`) {
				t.Errorf("not the service's error: %s", body)
			}
		})
	}
}
