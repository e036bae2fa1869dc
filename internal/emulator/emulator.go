package emulator

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config seeds an emulator.
type Config struct {
	// Token is the only bearer token accepted. Empty means a random one,
	// new at each start (Config tells which).
	Token string
	// Prefix is a path prefix the API lives under, such as "/v1".
	Prefix string
	// Projects are the projects that exist from the start.
	Projects []Project
	// BuildDelay is how long a build takes after its release. Zero builds at
	// once (still asynchronously).
	BuildDelay time.Duration
	// Variant is how the emulator answers where the service interface is
	// silent (see Variant); the zero value is the default.
	Variant Variant
	// MaxBody bounds a request body; zero means 256 MiB.
	MaxBody int64
	// LogSize is how many of the latest requests Requests keeps; zero
	// means 10,000.
	LogSize int
	// LogBytes bounds what the request log holds, headers and bodies
	// together: the oldest requests are dropped first. Zero means 16 MiB.
	LogBytes int64
	// StoredBytes bounds the file versions the emulator keeps, all files
	// together: past it the oldest versions are let go, each with a line on
	// Log. The version just stored is always kept. Zero means 256 MiB.
	StoredBytes int64
	// FirstBuildID is the id of the first build; later builds count up.
	// Zero means 1001. Tests set 2^53+1, so that a client reading ids
	// through a float64 asks for the wrong build (jq, in the seed's curl
	// flow, does exactly that, so it is not the default).
	FirstBuildID uint64
	// Log, when set, gets a line per request: method, path, status and
	// duration, never the token (see log.go).
	Log io.Writer
}

// Project is a project with its branches and docs.
type Project struct {
	ID string
	// Branches that exist. Empty means any branch may be written.
	Branches []string
	Docs     []Doc
}

// Doc is a documentation domain, configured once (as in the service's web
// application) with the file and branch it renders.
type Doc struct {
	// ID is sent as a JSON number when it is all digits (unless the
	// variant writes ids as strings), else as a string.
	ID     string
	Domain string
	File   string
	Branch string
	// Fail, when set, fails every build of the doc with this message, as
	// a build the service cannot make would.
	Fail string
}

// ServicePrefix is the path prefix `docs-publish emulator` and the demo
// serve the API under, as the service does: api-url ends with it.
const ServicePrefix = "/v1"

// DomainFor is a domain named after a doc and its project, for a doc
// configured without one, so that each doc's docs-url is its own.
func DomainFor(project, doc string) string {
	return "doc-" + doc + ".project-" + project + ".docs.example"
}

// Default returns the seed that `docs-publish emulator` and the demo use,
// with a random token of its own. They serve it under ServicePrefix.
func Default() Config {
	return Config{
		Token:      NewToken(),
		BuildDelay: 300 * time.Millisecond,
		Projects: []Project{{
			ID:       "4711",
			Branches: []string{"main"},
			Docs:     []Doc{{ID: "17", Domain: DomainFor("4711", "17"), File: "openapi.yml", Branch: "main"}},
		}},
	}
}

// Server is a running emulator.
type Server struct {
	cfg     Config
	variant Variant
	rng     *rand.Rand // with a variant's seed: each answer's shape
	mux     *http.ServeMux
	srv     *http.Server
	ln      net.Listener
	scheme  string

	mu       sync.Mutex
	projects map[string]*project
	docs     map[string]*doc // by id
	builds   map[string]*build
	nextID   uint64
	requests []*Request
	stored   []storedVersion // oldest first
	storedN  int64           // the bytes of stored's contents
	logBytes int64           // what requests hold, as Request.size counts it
	faults   []*Fault
	storage  *storageHost
	seq      int // tracking ids
	wg       sync.WaitGroup
	closed   bool
	logMu    sync.Mutex // one request log line at a time
}

// Request is what the emulator saw of one request: the body's first 64 KiB,
// of the latest 10,000 requests.
type Request struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   []byte
	Status                 int
}

// New builds an emulator from cfg without starting it; see Start.
func New(cfg Config) *Server {
	if cfg.FirstBuildID == 0 {
		cfg.FirstBuildID = 1001
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = 256 << 20
	}
	if cfg.LogSize == 0 {
		cfg.LogSize = 10_000
	}
	if cfg.LogBytes == 0 {
		cfg.LogBytes = 16 << 20
	}
	if cfg.StoredBytes == 0 {
		cfg.StoredBytes = 256 << 20
	}
	if cfg.Token == "" {
		cfg.Token = NewToken()
	}
	v := cfg.Variant.withDefaults()
	var rng *rand.Rand
	if v.Seed != 0 {
		rng = rand.New(rand.NewPCG(v.Seed, v.Seed^0x5eed))
		v.IDs = pick(rng, IDNumber, IDString, IDOpaque, IDBig, IDText)
	}
	seedIDs(&cfg, v.IDs)
	s := &Server{
		cfg:      cfg,
		variant:  v,
		rng:      rng,
		projects: map[string]*project{},
		docs:     map[string]*doc{},
		builds:   map[string]*build{},
		nextID:   cfg.FirstBuildID,
	}
	for _, p := range cfg.Projects {
		pr := &project{id: p.ID, files: map[string]map[string][]FileVersion{}, last: map[fileKey]int{}}
		if len(p.Branches) > 0 {
			pr.branches = map[string]bool{}
			for _, b := range p.Branches {
				pr.branches[b] = true
			}
		}
		for _, d := range p.Docs {
			dd := &doc{Doc: d, project: pr}
			pr.docs = append(pr.docs, dd)
			s.docs[d.ID] = dd
		}
		s.projects[p.ID] = pr
	}
	s.mux = http.NewServeMux()
	p := strings.TrimRight(cfg.Prefix, "/")
	s.mux.HandleFunc("PUT "+p+"/projects/{project}/files/{file}", s.updateFile)
	s.mux.HandleFunc("GET "+p+"/docs.list", s.listDocs)
	s.mux.HandleFunc("POST "+p+"/docs.release", s.release)
	s.mux.HandleFunc("GET "+p+"/docs.builds.download", s.download)
	// An unknown route (a wrong path prefix in the client's address) gets
	// the bare page of a web server, or a framework's JSON 404, not the
	// service's error.
	s.mux.HandleFunc("/", s.unknownRoute)
	return s
}

// Start listens on a free loopback port and serves until Close.
func Start(cfg Config) (*Server, error) {
	return StartOn(cfg, "127.0.0.1:0")
}

// StartOn serves plain http on addr, as net.Listen reads it: ":8080" is
// every interface. Beyond loopback, see Loopback.
func StartOn(cfg Config, addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return serve(cfg, ln, "http"), nil
}

// NewToken returns a random bearer token, as an emulator uses unless it is
// given one: a token everyone knows would let any program on the machine
// write to it.
func NewToken() string {
	b := make([]byte, 16)
	crand.Read(b) // never fails (crypto/rand)
	return "emu-" + hex.EncodeToString(b)
}

// Loopback reports whether the emulator is reachable from this machine
// only. Plain http beyond it sends the token in clear over the network
// (docs-publish itself refuses to).
func (s *Server) Loopback() bool {
	a, ok := s.ln.Addr().(*net.TCPAddr)
	return ok && a.IP.IsLoopback()
}

// hostAllowed says whether a request's Host names the address the emulator
// listens on, or localhost at its port. It only matters on loopback: a web
// page the user visits can point a host name of its own at 127.0.0.1 and
// reach the emulator through the browser, but that name is in Host.
func (s *Server) hostAllowed(host string) bool {
	if s.ln == nil || !s.Loopback() {
		return true
	}
	a := s.ln.Addr().(*net.TCPAddr)
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		// No port: the scheme's own.
		name, port = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), "80"
		if s.scheme == "https" {
			port = "443"
		}
	}
	if port != strconv.Itoa(a.Port) {
		return false
	}
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.Equal(a.IP)
}

// hostNames are the Host values a loopback emulator answers, for its
// refusal.
func (s *Server) hostNames() string {
	a := s.ln.Addr().(*net.TCPAddr)
	return s.ln.Addr().String() + " or " + net.JoinHostPort("localhost", strconv.Itoa(a.Port))
}

// serve starts an emulator seeded with cfg on ln.
func serve(cfg Config, ln net.Listener, scheme string) *Server {
	s := New(cfg)
	s.ln, s.scheme = ln, scheme
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute, IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10}
	go s.srv.Serve(ln)
	return s
}

// Config is the emulator's seed as it serves it: doc ids and the first
// build id in the variant's id style.
func (s *Server) Config() Config { return s.cfg }

// URL is the API's base address, prefix included. An emulator on every
// interface is reached on this machine through 127.0.0.1.
func (s *Server) URL() string {
	return s.base() + strings.TrimRight(s.cfg.Prefix, "/")
}

// SiteURL is the address of the doc's live build, to browse.
func (s *Server) SiteURL(docID string) string {
	return s.base() + sitesPath + url.PathEscape(docID) + "/"
}

func (s *Server) base() string {
	addr := s.ln.Addr().String()
	if a, ok := s.ln.Addr().(*net.TCPAddr); ok && a.IP.IsUnspecified() {
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(a.Port))
	}
	return s.scheme + "://" + addr
}

// Addr is the host:port the emulator listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server, drops the builds that have not started rendering,
// and waits for those that have.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, b := range s.builds {
		if b.timer != nil && b.timer.Stop() {
			s.wg.Done() // its render will never run
		}
	}
	s.mu.Unlock()
	var err error
	if s.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err = s.srv.Shutdown(ctx)
		if err != nil {
			s.srv.Close()
		}
	}
	if s.storage != nil {
		s.storage.srv.Close()
	}
	s.wg.Wait()
	return err
}
