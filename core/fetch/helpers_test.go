package fetch

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testOptions are Options for tests against loopback servers: loopback allowed, no
// politeness delay, millisecond backoffs, quiet logs.
func testOptions() Options {
	return Options{
		Allow:          []string{"127.0.0.0/8", "::1"},
		Delay:          -1,
		RetryBaseDelay: time.Millisecond,
		RetryMaxDelay:  10 * time.Millisecond,
		TotalTimeout:   20 * time.Second,
		Resolver:       mapResolver{},
		Logger:         slog.New(slog.DiscardHandler),
	}
}

func newFetcher(t *testing.T, opts Options) *Fetcher {
	t.Helper()
	f, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(f.CloseIdleConnections)
	return f
}

// site is a loopback test server that counts the requests it receives per path and
// answers robots.txt with 404 unless the test sets robots.
type site struct {
	*httptest.Server
	mu           sync.Mutex
	hits         map[string]int
	robots       string // body of /robots.txt; "" means 404
	robotsStatus int    // when set, /robots.txt answers this status, empty
	robotsUA     string // User-Agent of the last robots.txt request
}

func newSite(t *testing.T, handler http.HandlerFunc) *site {
	t.Helper()
	s := &site{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		if r.URL.Path == "/robots.txt" {
			s.robotsUA = r.UserAgent()
		}
		robots, robotsStatus := s.robots, s.robotsStatus
		s.mu.Unlock()
		switch {
		case r.URL.Path == "/robots.txt" && robotsStatus != 0:
			w.WriteHeader(robotsStatus)
		case r.URL.Path == "/robots.txt" && robots == "":
			http.NotFound(w, r)
		case r.URL.Path == "/robots.txt":
			_, _ = w.Write([]byte(robots))
		case handler == nil:
			_, _ = w.Write([]byte("ok " + r.URL.Path))
		default:
			handler(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) setRobots(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.robots, s.robotsStatus = body, status
}

// count is the number of requests for path.
func (s *site) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// total is the number of requests for anything but robots.txt.
func (s *site) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p, c := range s.hits {
		if p != "/robots.txt" {
			n += c
		}
	}
	return n
}

func (s *site) port() string {
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(s.URL, "http://"))
	return port
}

// mapResolver resolves names from a map, and nothing else: tests never ask real DNS.
type mapResolver map[string][]netip.Addr

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := m[strings.ToLower(host)]; ok {
		return a, nil
	}
	if host == "localhost" {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// inflight tracks the most requests a handler served at once.
type inflight struct {
	now, peak atomic.Int64
}

func (c *inflight) enter() {
	n := c.now.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (c *inflight) leave() { c.now.Add(-1) }

func get(ctx context.Context, f *Fetcher, url string) (*Response, error) {
	return f.Fetch(ctx, &Request{URL: url})
}
