package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/fetch"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/server/openapi/openapitest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// stack is the whole service, wired as `stockroom serve` wires it, over fresh databases,
// with demo stores on loopback.
type stack struct {
	t     testing.TB
	base  string
	key   string
	fleet *demostore.Fleet
	svc   *Service
}

// newStack starts the stores, then the service allowed to fetch them.
func newStack(t testing.TB, stores ...demostore.Options) *stack {
	t.Helper()
	return newStackWith(t, nil, stores...)
}

// newStackWith is newStack with extra settings (environment variables) for the service.
func newStackWith(t testing.TB, env []string, stores ...demostore.Options) *stack {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	fleet, err := demostore.Launch(ctx, stores...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	base, key, svc := serve(ctx, t, append(append(fetchSettings(fleet), "STOCKROOM_EXTRACT__BACKOFF=100ms"), env...)...)
	return &stack{t: t, base: base, key: key, fleet: fleet, svc: svc}
}

// fetchSettings let the service fetch the fleet's stores: past the private-address guard
// (they are on loopback) and without politeness delays.
func fetchSettings(fleet *demostore.Fleet) []string {
	var hosts []string
	for _, st := range fleet.Stores {
		hosts = append(hosts, strings.TrimPrefix(st.BaseURL, "http://"))
	}
	return []string{
		"STOCKROOM_FETCH__ALLOW=" + strings.Join(hosts, ","),
		"STOCKROOM_FETCH__NO_DELAY_HOSTS=" + strings.Join(hosts, ","),
	}
}

// serve starts the service as `stockroom serve` wires it, over fresh databases, with the
// extra settings given, and one organization ("acme", 1,000,000 credits) and its key. It
// stops when the test or benchmark ends.
func serve(ctx context.Context, tb testing.TB, env ...string) (base, key string, svc *Service) {
	tb.Helper()
	return serveResolving(ctx, tb, nil, env...)
}

// serveResolving is serve with the site names the engine fetches looked up by resolver.
func serveResolving(ctx context.Context, tb testing.TB, resolver fetch.Resolver, env ...string) (base, key string, svc *Service) {
	tb.Helper()
	base, key, svc, _ = startService(ctx, tb, resolver, env...)
	return base, key, svc
}

// startService is serveResolving that also returns a function that stops the service
// before the test ends (a restart); the service is stopped at the end in any case.
func startService(ctx context.Context, tb testing.TB, resolver fetch.Resolver, env ...string) (base, key string, svc *Service, stop func()) {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	address := l.Addr().String()
	l.Close()
	cfg, err := configs.Load("", append([]string{
		"DATABASE_URL=" + storagetest.NewPostgres(tb),
		"CLICKHOUSE_URL=" + storagetest.NewClickHouse(tb),
		"STOCKROOM_SERVER__ADDRESS=" + address,
		"STOCKROOM_USAGE__SPOOL_DIR=" + filepath.Join(tb.TempDir(), "spool"),
		"STOCKROOM_ADAPTERS__CACHE_DIR=" + adapterCache(),
		"STOCKROOM_RATE_LIMIT__REQUESTS=0",
		"STOCKROOM_LOG__LEVEL=warn",
		// Each stack serves its metrics on a port of its own, so that stacks run side by side.
		"STOCKROOM_METRICS__LISTEN=127.0.0.1:0",
	}, env...))
	if err != nil {
		tb.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	svc, err = New(ctx, cfg, Options{Logger: logger, Resolver: resolver})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(svc.Close)
	if err := svc.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	if _, err := svc.access.EnsureOrganization(ctx, "acme", 1_000_000, true); err != nil {
		tb.Fatal(err)
	}
	if _, key, err = svc.access.IssueKey(ctx, "acme", "e2e"); err != nil {
		tb.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	if err := svc.Start(runCtx); err != nil {
		cancel()
		tb.Fatal(err)
	}
	var once sync.Once
	stopService := func() {
		once.Do(func() {
			cancel()
			if err := svc.Wait(); err != nil {
				tb.Logf("stop the service: %v", err)
			}
		})
	}
	tb.Cleanup(stopService)
	return "http://" + address, key, svc, stopService
}

// adapterCache keeps compiled adapters across the tests of one run, so only the first
// stack pays for compiling them.
func adapterCache() string {
	dir := filepath.Join(os.TempDir(), "stockroom-test-adapter-cache")
	_ = os.MkdirAll(dir, 0o755)
	return dir
}

type reply struct {
	status int
	body   map[string]any
	raw    []byte
}

func (s *stack) call(method, path string, body any, key string) reply {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("x-api-key", key)
	resp, err := conformingClient(s.t).Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := reply{status: resp.StatusCode, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// conformingClient is an HTTP client that fails t for every response the OpenAPI document
// does not describe, so that the document cannot drift from the code.
func conformingClient(t testing.TB) *http.Client {
	t.Helper()
	checker, err := openapitest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: checker.Transport(t, nil)}
}

func (s *stack) do(method, path string, body any) reply { return s.call(method, path, body, s.key) }

// keyOfNewOrganization creates an organization with auto top-up and returns a key of it.
func (s *stack) keyOfNewOrganization(t *testing.T, name string) string {
	t.Helper()
	if _, err := s.svc.access.EnsureOrganization(t.Context(), name, 10, true); err != nil {
		t.Fatal(err)
	}
	_, key, err := s.svc.access.IssueKey(t.Context(), name, "k")
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// startCrawl starts a v2 crawl of url and returns its id.
func (s *stack) startCrawl(url string) string {
	s.t.Helper()
	r := s.do("POST", "/v2/crawl", map[string]any{"url": url})
	if r.status != 202 {
		s.t.Fatalf("start crawl of %s: %d %s", url, r.status, r.raw)
	}
	return r.body["execution_id"].(string)
}

// waitEnded polls a status path until the execution has ended and returns the last body.
func (s *stack) waitEnded(path string, timeout time.Duration) map[string]any {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r := s.do("GET", path, nil)
		if r.status != 200 {
			s.t.Fatalf("GET %s: %d %s", path, r.status, r.raw)
		}
		if st := r.body["status"]; st == "completed" || st == "failed" {
			return r.body
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s not ended after %s: %s", path, timeout, r.raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func hostOf(base string) string {
	h, _, _ := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	return h
}

// listingsOf are the vendor's listings by URL.
func (s *stack) listingsOf(vendor string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for page := 1; ; page++ {
		r := s.do("GET", "/v2/listings?vendor="+vendor+"&page_size=100&page="+strconv.Itoa(page), nil)
		data, _ := r.body["data"].([]any)
		for _, l := range data {
			l := l.(map[string]any)
			out[l["url"].(string)] = l
		}
		if len(data) < 100 {
			return out
		}
	}
}
