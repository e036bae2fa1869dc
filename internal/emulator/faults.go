package emulator

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// FaultKind is a way the service or the network can misbehave.
type FaultKind string

// The faults the emulator can inject.
const (
	// FaultStatus answers Status with the service's error body (and
	// Retry-After, if set) without acting on the request.
	FaultStatus FaultKind = "status"
	// FaultReset closes the connection (TCP reset) before any answer,
	// without acting on the request.
	FaultReset FaultKind = "reset"
	// FaultDropAfter acts on the request, then closes the connection
	// without answering.
	FaultDropAfter FaultKind = "drop-after"
	// FaultSlowHeaders waits Delay before acting and answering.
	FaultSlowHeaders FaultKind = "slow-headers"
	// FaultCutBody acts on the request and sends half the answer, with a
	// Content-Length that promises all of it.
	FaultCutBody FaultKind = "cut-body"
	// FaultMalformedJSON answers 200 with a body that is not JSON.
	FaultMalformedJSON FaultKind = "malformed-json"
	// FaultWrongType answers 200 with an HTML page, as a proxy's login page
	// would.
	FaultWrongType FaultKind = "wrong-type"
	// FaultSlowBody acts on the request and sends the headers and half the
	// answer, then stalls until Delay has passed or the client goes away.
	FaultSlowBody FaultKind = "slow-body"
	// FaultRedirect answers 307 to the same path on the emulator's second
	// host (see Storage).
	FaultRedirect FaultKind = "redirect"
)

// Fault is one injected misbehaviour.
type Fault struct {
	// Endpoint is "update", "list", "release" or "download".
	Endpoint string
	Kind     FaultKind
	// Times is how many requests it hits; zero means one.
	Times      int
	Status     int
	RetryAfter string
	Delay      time.Duration
}

// Inject adds a fault for the next requests to its endpoint.
func (s *Server) Inject(f Fault) {
	if f.Times == 0 {
		f.Times = 1
	}
	s.mu.Lock()
	s.faults = append(s.faults, &f)
	s.mu.Unlock()
}

// endpoint names the interface call a request is.
func (s *Server) endpoint(r *http.Request) string {
	p := strings.TrimPrefix(r.URL.Path, strings.TrimRight(s.cfg.Prefix, "/"))
	switch {
	case strings.HasPrefix(p, "/projects/"):
		return "update"
	case p == "/docs.list":
		return "list"
	case p == "/docs.release":
		return "release"
	case p == "/docs.builds.download":
		return "download"
	case strings.HasPrefix(p, "/blob/"):
		return "blob"
	}
	return ""
}

// takeFault returns the pending fault for r's endpoint, using it up.
func (s *Server) takeFault(r *http.Request) *Fault {
	ep := s.endpoint(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.Endpoint == ep && f.Times > 0 {
			f.Times--
			return f
		}
	}
	return nil
}

// serveFault applies f; it reports whether the request is fully handled.
func (s *Server) serveFault(f *Fault, w http.ResponseWriter, r *http.Request) bool {
	serve, ok := faultServers[f.Kind]
	if !ok {
		http.Error(w, "unknown fault "+string(f.Kind), http.StatusInternalServerError)
		return true
	}
	return serve(s, f, w, r)
}

// faultServers serve each kind of fault. Each reports whether it answered
// the request itself (false: the request goes on to the endpoint).
var faultServers = map[FaultKind]func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool{
	FaultStatus: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		s.fail(w, r, f.Status, 1500+f.Status, fmt.Sprintf("injected fault: %d", f.Status))
		return true
	},
	FaultReset: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				tc.SetLinger(0) // a reset, not an orderly close
			}
			conn.Close()
		}
		return true
	},
	FaultDropAfter: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		s.mux.ServeHTTP(discard{}, r)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return true
	},
	FaultSlowHeaders: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
		}
		return false
	},
	FaultCutBody: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		body := s.answerAside(w, r)
		w.Header().Del("Content-Encoding")
		w.Header().Set("Content-Length", fmt.Sprint(len(body.text)))
		w.WriteHeader(body.status)
		io.WriteString(w, body.text[:len(body.text)/2])
		http.NewResponseController(w).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return true
	},
	FaultSlowBody: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		body := s.answerAside(w, r)
		w.Header().Set("Content-Length", fmt.Sprint(len(body.text)))
		w.WriteHeader(body.status)
		io.WriteString(w, body.text[:len(body.text)/2])
		http.NewResponseController(w).Flush()
		select {
		case <-time.After(f.Delay):
			io.WriteString(w, body.text[len(body.text)/2:])
		case <-r.Context().Done():
		}
		return true
	},
	FaultMalformedJSON: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"docs": [{"id": 17,, "build": {`)
		return true
	},
	FaultWrongType: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><title>Sign in</title><p>Please sign in to continue.</p>")
		return true
	},
	FaultRedirect: func(s *Server, f *Fault, w http.ResponseWriter, r *http.Request) bool {
		if s.storage == nil {
			http.Error(w, "no second host: call Storage first", http.StatusInternalServerError)
			return true
		}
		target := "http://" + s.storage.Addr().String() + r.URL.RequestURI()
		if s.endpoint(r) == "download" {
			target = "http://" + s.storage.Addr().String() + "/blob/" + url.PathEscape(r.URL.Query().Get("id")) + ".zip"
		}
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
		return true
	},
}

// answer is an endpoint's answer, written aside.
type answer struct {
	status int
	text   string
}

// answerAside lets the endpoint act on r and answer into a buffer, and
// copies the answer's headers to w: a fault then sends the body its way.
func (s *Server) answerAside(w http.ResponseWriter, r *http.Request) answer {
	rec := &bufferWriter{header: http.Header{}}
	s.mux.ServeHTTP(rec, r)
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	return answer{rec.status, rec.body.String()}
}

type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

type bufferWriter struct {
	header http.Header
	status int
	body   strings.Builder
}

func (b *bufferWriter) Header() http.Header { return b.header }
func (b *bufferWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

// storageHost is a second host on loopback, as object storage serving
// downloads would be: it serves build zips under /blob/<id>.zip without a
// token and records every Authorization header it is sent.
type storageHost struct {
	ln   net.Listener
	srv  *http.Server
	mu   sync.Mutex
	auth []string
}

// Storage starts the emulator's second host on "localhost" (another host
// name than the API's 127.0.0.1) and returns its base URL. Redirect faults
// point at it.
func (s *Server) Storage() (string, error) {
	ln, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return "", err
	}
	st := &storageHost{ln: ln}
	st.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute, IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st.mu.Lock()
		st.auth = append(st.auth, r.Header.Get("Authorization"))
		st.mu.Unlock()
		if id, ok := strings.CutPrefix(r.URL.Path, "/blob/"); ok {
			s.mu.Lock()
			b := s.builds[strings.TrimSuffix(id, ".zip")]
			var zip []byte
			if b != nil {
				zip = b.zip
			}
			s.mu.Unlock()
			if zip != nil {
				w.Header().Set("Content-Type", "application/zip")
				w.Write(zip)
				return
			}
			// Not uploaded yet, as object storage would say.
			s.fail(w, r, http.StatusNotFound, 1404, "no such blob")
			return
		}
		s.fail(w, r, http.StatusUnauthorized, 1001, "this host accepts no token")
	})}
	go st.srv.Serve(ln)
	s.mu.Lock()
	s.storage = st
	s.mu.Unlock()
	return "http://localhost:" + fmt.Sprint(ln.Addr().(*net.TCPAddr).Port), nil
}

// Addr is the second host's address.
func (st *storageHost) Addr() net.Addr { return st.ln.Addr() }

// StorageAuth returns the Authorization headers the second host was sent.
func (s *Server) StorageAuth() []string {
	if s.storage == nil {
		return nil
	}
	s.storage.mu.Lock()
	defer s.storage.mu.Unlock()
	return append([]string(nil), s.storage.auth...)
}
