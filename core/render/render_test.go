package render

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/fetch"
)

// site is a loopback server on addr: pages keyed by path, each answered with its body
// (JavaScript for paths ending in .js, JSON for .json, else HTML). It counts the requests
// of each path and the most requests it answered at once.
type site struct {
	base  string
	pages map[string]string
	delay time.Duration // added to every answer but the page's own

	mu       sync.Mutex
	hits     map[string]int
	inFlight int
	peak     int
}

func startSite(t *testing.T, addr string, pages map[string]string) *site {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("listen %s: %v", addr, err)
	}
	s := &site{pages: pages, hits: map[string]int{}, base: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.inFlight++
	s.peak = max(s.peak, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	if s.delay > 0 && strings.Contains(r.URL.Path, ".") {
		time.Sleep(s.delay)
	}
	body, ok := s.pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(r.URL.Path, ".js"):
		w.Header().Set("Content-Type", "text/javascript")
	case strings.HasSuffix(r.URL.Path, ".json"):
		w.Header().Set("Content-Type", "application/json")
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
	}
	fmt.Fprint(w, body)
}

func (s *site) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// fetchPage fetches a page of s the way the crawl does, into a Document.
func fetchPage(t *testing.T, f *fetch.Fetcher, url string) *adapter.Document {
	t.Helper()
	doc, err := f.FetchDocument(context.Background(), url)
	if err != nil || doc.Status != http.StatusOK {
		t.Fatalf("fetch %s: %v %+v", url, err, doc)
	}
	return doc
}

// newRenderer is a Renderer over a fetcher that lets through allow only, without
// politeness delays. It skips the test when Chromium is not installed.
func newRenderer(t testing.TB, allow []string, opts Options) (*Renderer, *fetch.Fetcher) {
	t.Helper()
	if ExecPath("") == "" {
		t.Skip("chromium is not installed")
	}
	f, err := fetch.New(fetch.Options{Allow: allow, Delay: -1, TotalTimeout: 10 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	opts.Fetcher = f
	opts.Logger = slog.New(slog.DiscardHandler)
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, f
}

// shell is an application shell: an empty mount point and the script that fills it.
const shell = `<!DOCTYPE html><html><head><title>Shop</title></head>
<body><div id="app"></div><noscript>This shop needs JavaScript.</noscript><script src="/app.js"></script></body></html>`

func TestRenderDrawsWhatTheScriptsWrite(t *testing.T) {
	s := startSite(t, "127.0.0.1:0", map[string]string{
		"/":          shell,
		"/app.js":    `fetch('/data.json').then(r => r.json()).then(d => { document.getElementById('app').innerHTML = '<h1>' + d.title + '</h1><img src="/photo.jpg">'; });`,
		"/data.json": `{"title": "Linen Shirt"}`,
	})
	r, f := newRenderer(t, []string{"127.0.0.1"}, Options{})
	page := fetchPage(t, f, s.base+"/")
	if !adapter.IsAppShell(page) {
		t.Fatal("the shell is not recognised as an application shell")
	}
	drawn, err := r.Render(context.Background(), page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(drawn.Body), "<h1>Linen Shirt</h1>") {
		t.Fatalf("the page's script did not draw; got %s", drawn.Body)
	}
	if adapter.IsAppShell(drawn) {
		t.Error("a rendered page still reads as a shell")
	}
	if got := s.count("/"); got != 1 {
		t.Errorf("the page was requested %d times, want 1 (the browser is answered with the page already fetched)", got)
	}
	if got := s.count("/photo.jpg"); got != 0 {
		t.Errorf("the image was requested %d times, want 0 (images are blocked)", got)
	}
}

func TestRenderRefusesPrivateAddressesTheScriptAsksFor(t *testing.T) {
	private := startSite(t, "127.0.0.77:0", map[string]string{"/secret.json": `"the secret"`})
	s := startSite(t, "127.0.0.1:0", map[string]string{
		"/": shell,
		"/app.js": fmt.Sprintf(`
const ask = u => fetch(u).then(r => r.json()).catch(() => 'blocked');
Promise.all([ask(%q), ask('http://10.0.0.1/admin.json')]).then(([a, b]) => {
  document.getElementById('app').innerHTML = '<p id="loopback">' + a + '</p><p id="lan">' + b + '</p>';
});`, private.base+"/secret.json"),
	})
	r, f := newRenderer(t, []string{"127.0.0.1"}, Options{})
	drawn, err := r.Render(context.Background(), fetchPage(t, f, s.base+"/"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(drawn.Body)
	if !strings.Contains(body, `<p id="loopback">blocked</p>`) || !strings.Contains(body, `<p id="lan">blocked</p>`) {
		t.Fatalf("the script's requests to private addresses were not refused; got %s", body)
	}
	if got := private.count("/secret.json"); got != 0 {
		t.Errorf("the private server was asked %d times, want 0", got)
	}
	if got := f.Stats().Blocked; got < 2 {
		t.Errorf("the fetcher's guard blocked %d requests, want 2", got)
	}
	if got := r.Stats().Blocked; got < 2 {
		t.Errorf("the renderer refused %d requests, want at least 2", got)
	}
}

func TestRenderEndsAPageThatNeverSettlesAtItsDeadline(t *testing.T) {
	s := startSite(t, "127.0.0.1:0", map[string]string{
		"/":           shell,
		"/app.js":     `setInterval(() => fetch('/poll.json'), 50);`,
		"/poll.json":  `{}`,
		"/still.html": `<p>A page with nothing to do.</p>`,
	})
	const timeout = 1500 * time.Millisecond
	r, f := newRenderer(t, []string{"127.0.0.1"}, Options{Timeout: timeout})
	page := fetchPage(t, f, s.base+"/")
	// Chromium starts with the first page, outside the page's time, and so does the
	// scope's tab.
	scope, end := r.Scope(context.Background())
	defer end()
	if _, err := r.Render(scope, fetchPage(t, f, s.base+"/still.html")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := r.Render(scope, page)
	elapsed := time.Since(start)
	if !errors.Is(err, ErrUnsettled) {
		t.Fatalf("Render = %v, want ErrUnsettled", err)
	}
	// Closing the tab takes a moment more.
	if elapsed < timeout || elapsed > timeout+2*time.Second {
		t.Errorf("the page ended after %s, want about %s", elapsed, timeout)
	}
	if s.count("/poll.json") < 3 {
		t.Errorf("the page polled %d times; the test wants a page that keeps asking", s.count("/poll.json"))
	}
}

func TestRenderNeverOpensMoreTabsThanItsBound(t *testing.T) {
	const tabs, pages = 2, 6
	s := startSite(t, "127.0.0.1:0", map[string]string{
		"/":          shell,
		"/app.js":    `fetch('/slow.json').then(r => r.json()).then(d => { document.getElementById('app').textContent = d; });`,
		"/slow.json": `"drawn"`,
	})
	s.delay = 300 * time.Millisecond
	r, f := newRenderer(t, []string{"127.0.0.1"}, Options{Tabs: tabs})
	page := fetchPage(t, f, s.base+"/")
	// Start Chromium first, so that the count of its tabs can watch every page.
	if _, err := r.Render(context.Background(), page); err != nil {
		t.Fatal(err)
	}
	browser, err := r.start()
	if err != nil {
		t.Fatal(err)
	}
	var peakTargets atomic.Int64
	watching, stopWatching := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for watching.Err() == nil {
			infos, err := chromedp.Targets(browser)
			if err == nil {
				n := int64(0)
				for _, info := range infos {
					if info.Type == "page" && strings.HasPrefix(info.URL, s.base) {
						n++
					}
				}
				peakTargets.Store(max(peakTargets.Load(), n))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	// Two scopes, so that tabs kept for one are closed to make room for the other's.
	first, endFirst := r.Scope(context.Background())
	defer endFirst()
	second, endSecond := r.Scope(context.Background())
	defer endSecond()
	var wg sync.WaitGroup
	errs := make(chan error, pages)
	for k := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scope := first
			if k%2 == 1 {
				scope = second
			}
			drawn, err := r.Render(scope, page)
			if err == nil && !strings.Contains(string(drawn.Body), "drawn") {
				err = fmt.Errorf("page not drawn: %s", drawn.Body)
			}
			errs <- err
		}()
	}
	wg.Wait()
	stopWatching()
	<-watched
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := peakTargets.Load(); got > tabs {
		t.Errorf("Chromium had %d of the pages open at once, want at most %d", got, tabs)
	}
	if got := r.Stats().PeakTabs; got != tabs {
		t.Errorf("the renderer had %d tabs open at most, want exactly %d (the bound, reached)", got, tabs)
	}
	if got := r.Stats().Pages; got != pages+1 {
		t.Errorf("%d pages drawn, want %d", got, pages+1)
	}
	s.mu.Lock()
	peak := s.peak
	s.mu.Unlock()
	if peak > tabs {
		t.Errorf("the site answered %d requests at once, want at most %d", peak, tabs)
	}
}

func TestRenderScopesKeepCookiesAndScriptsApart(t *testing.T) {
	s := startSite(t, "127.0.0.1:0", map[string]string{
		"/": shell,
		"/app.js": `document.getElementById('app').innerHTML = '<p id="before">' + (document.cookie || 'none') + '</p>';
document.cookie = 'visitor=1; path=/';`,
	})
	r, f := newRenderer(t, []string{"127.0.0.1"}, Options{})
	page := fetchPage(t, f, s.base+"/")
	cookieSeen := func(ctx context.Context) string {
		t.Helper()
		drawn, err := r.Render(ctx, page)
		if err != nil {
			t.Fatal(err)
		}
		body := string(drawn.Body)
		i := strings.Index(body, `<p id="before">`)
		return body[i+len(`<p id="before">`) : i+strings.Index(body[i:], "</p>")]
	}
	vendor, end := r.Scope(context.Background())
	if got := cookieSeen(vendor); got != "none" {
		t.Fatalf("first page saw cookie %q", got)
	}
	if got := cookieSeen(vendor); got != "visitor=1" {
		t.Errorf("a second page of the same scope saw cookie %q, want visitor=1", got)
	}
	end()
	next, endNext := r.Scope(context.Background())
	defer endNext()
	if got := cookieSeen(next); got != "none" {
		t.Errorf("a page of the next scope saw cookie %q, want none", got)
	}
	// The script is fetched once per scope, not once per page.
	if got := s.count("/app.js"); got != 2 {
		t.Errorf("the script was fetched %d times for two scopes, want 2", got)
	}
}
