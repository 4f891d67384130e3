// Package render draws the pages that only a browser can read: storefronts whose HTML is
// an empty mount point and the scripts that fill it. It drives a headless Chromium through
// the DevTools protocol (chromedp), and lets the browser reach nothing by itself: every
// request a page makes is paused, fetched by the crawl's own fetcher (the same address
// guard, robots.txt and per-host politeness as any other fetch) and handed back, or
// refused.
//
// One Renderer serves a process. It starts Chromium on the first page it draws, never
// before, so that a service with rendering on pays nothing until a page needs it:
//
//	r, err := render.New(render.Options{Fetcher: fetcher, Tabs: 2, Timeout: 20 * time.Second})
//	defer r.Close()
//	ctx, end := r.Scope(ctx) // one vendor's pages: cookies and storage end with it
//	defer end()
//	drawn, err := r.Render(ctx, page)
//
// adapter.Set calls Render when the adapters found nothing in a page that is an
// application shell (adapter.IsAppShell). RATIONALE.md beside this file says why the
// browser's network is the fetcher, and what rendering costs.
package render

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/fetch"
)

// Options configure a Renderer. Fetcher is required; the zero value of every other field
// is usable.
type Options struct {
	// Fetcher fetches every request the pages make. Required.
	Fetcher *fetch.Fetcher
	// ExecPath is the Chromium binary. Empty means "chromium" on PATH, then the names
	// chromedp looks for.
	ExecPath string
	// Tabs is the most tabs open at once in the whole process, busy or kept for their
	// scope's next page; a page waits for a free one. Zero means 2.
	Tabs int
	// Timeout is the most one page may take, from opening its tab to reading what it
	// drew. Zero means 20 seconds.
	Timeout time.Duration
	// Quiet is how long a page must make no request, once loaded, to count as drawn.
	// Zero means 500 milliseconds.
	Quiet time.Duration
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// openTimeout is the most Chromium may take to open a tab before it is taken for stuck.
// Opening is not the page's time (Options.Timeout): a busy machine takes seconds.
const openTimeout = 30 * time.Second

// ErrUnsettled is a page still making requests when its time ran out.
var ErrUnsettled = errors.New("the page did not settle")

// Renderer draws pages in a headless Chromium. It is safe for concurrent use.
type Renderer struct {
	opts Options
	log  *slog.Logger
	tabs *pool

	mu      sync.Mutex
	browser context.Context // nil until the first page; see start
	stop    func()

	stats counters
}

// Stats are a Renderer's counters since New.
type Stats struct {
	Pages   int64 // pages drawn
	Failed  int64 // pages that failed (timeouts included)
	Fetched int64 // requests of the pages fetched for them
	Blocked int64 // requests refused: forbidden addresses, images, fonts, media, other methods than GET
	// PeakTabs is the most tabs that were open at once.
	PeakTabs int64
	// Browsers counts the starts of Chromium: 0 until a page needed it.
	Browsers int64
}

type counters struct {
	pages, failed, fetched, blocked, browsers atomic.Int64
}

// New returns a Renderer; Chromium starts with the first page drawn.
func New(opts Options) (*Renderer, error) {
	if opts.Fetcher == nil {
		return nil, errors.New("render: Options.Fetcher is required")
	}
	if opts.Tabs <= 0 {
		opts.Tabs = 2
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 20 * time.Second
	}
	if opts.Quiet <= 0 {
		opts.Quiet = 500 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Renderer{opts: opts, log: opts.Logger.With("component", "render"), tabs: newPool(opts.Tabs)}, nil
}

// Stats returns the counters so far.
func (r *Renderer) Stats() Stats {
	return Stats{Pages: r.stats.pages.Load(), Failed: r.stats.failed.Load(), Fetched: r.stats.fetched.Load(),
		Blocked: r.stats.blocked.Load(), PeakTabs: int64(r.tabs.peakOpen()), Browsers: r.stats.browsers.Load()}
}

// Close stops Chromium, if it was started.
func (r *Renderer) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop != nil {
		r.stop()
		r.browser, r.stop = nil, nil
	}
}

// ExecPath finds the Chromium binary: path when set, else "chromium" on PATH, else ""
// (chromedp then looks for the usual names itself).
func ExecPath(path string) string {
	if path != "" {
		return path
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// start returns the browser's context, starting Chromium when it is not running (the
// first page, or after it died).
func (r *Renderer) start() (context.Context, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.browser != nil && r.browser.Err() == nil {
		return r.browser, nil
	}
	if r.stop != nil {
		r.stop()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.Headless,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("blink-settings", "imagesEnabled=false"),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("dns-prefetch-disable", true),
		// Every request is fulfilled through the fetcher (see tab.answer). Anything the
		// interception does not see, such as a WebSocket, goes to a proxy that is not
		// there, and fails: the browser has no network of its own.
		chromedp.ProxyServer("http://127.0.0.1:1"),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
	)
	if p := ExecPath(r.opts.ExecPath); p != "" {
		opts = append(opts, chromedp.ExecPath(p))
	}
	if os.Geteuid() == 0 {
		// Chromium refuses to start its sandbox as root (a container's usual user).
		opts = append(opts, chromedp.NoSandbox)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	if err := chromedp.Do(browser); err != nil {
		cancelBrowser()
		cancelAlloc()
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	r.browser = browser
	r.stop = func() { cancelBrowser(); cancelAlloc() }
	r.stats.browsers.Add(1)
	r.log.Info("chromium started", "tabs", r.opts.Tabs)
	return browser, nil
}

// Render draws page, as fetched, in a tab of its scope (see Scope): the page's own
// request is answered with page's body, the others through the fetcher. It returns the
// page as its scripts left it once it has made no request for Options.Quiet, or an error
// at Options.Timeout (ErrUnsettled when the page was still busy). It waits for a tab
// while Options.Tabs are busy.
func (r *Renderer) Render(ctx context.Context, page *adapter.Document) (*adapter.Document, error) {
	start := time.Now()
	drawn, err := r.render(ctx, page)
	if err != nil {
		r.stats.failed.Add(1)
		r.log.Warn("page not rendered", "url", page.URL, "err", err, "elapsed", time.Since(start))
		return nil, err
	}
	r.stats.pages.Add(1)
	r.log.Debug("page rendered", "url", page.URL, "bytes", len(drawn.Body), "elapsed", time.Since(start))
	return drawn, nil
}

func (r *Renderer) render(ctx context.Context, page *adapter.Document) (*adapter.Document, error) {
	browser, err := r.start()
	if err != nil {
		return nil, err
	}
	s, scoped := sessionFrom(ctx)
	if !scoped {
		// A page drawn outside any Scope has a browser context, and a tab, of its own.
		s = &session{}
		defer s.end(r)
	}
	scope, err := s.browserContext(ctx, browser)
	if err != nil {
		return nil, err
	}
	open, err := r.tabs.get(ctx, scope, func() (*openTab, error) { return r.openTab(browser, scope) })
	if err != nil {
		return nil, err
	}
	t := &tab{r: r, page: page, ctx: ctx, target: chromedp.FromContext(open.ctx).Target, assets: &s.assets}
	drawn, err := t.draw(open.ctx)
	if err != nil {
		// A tab whose page failed may still be busy with it: it is closed, not kept, and
		// the page's caller does not wait for Chromium to close it.
		go r.tabs.put(open, false)
		return nil, err
	}
	r.tabs.put(open, scoped)
	return drawn, nil
}

// openTab opens a tab in the browser context scope, with its requests intercepted.
func (r *Renderer) openTab(browser context.Context, scope cdp.BrowserContextID) (*openTab, error) {
	ctx, closeTab := chromedp.NewContext(browser, chromedp.WithExistingBrowserContext(scope))
	// The tab lives as long as the context of its first run, so that run cannot have a
	// deadline of its own: a timer cancels it instead when Chromium does not answer.
	timer := time.AfterFunc(openTimeout, closeTab)
	defer timer.Stop()
	if err := chromedp.Do(ctx); err != nil {
		closeTab()
		return nil, fmt.Errorf("open a tab: %w", err)
	}
	target := chromedp.FromContext(ctx).Target
	if _, err := cdp.Call(ctx, target, cdpfetch.Enable, cdpfetch.EnableParams{Patterns: []*cdpfetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		closeTab()
		return nil, fmt.Errorf("intercept requests: %w", err)
	}
	return &openTab{scope: scope, ctx: ctx, close: closeTab}, nil
}
