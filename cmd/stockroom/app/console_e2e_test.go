package app

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// The console, driven in a real headless Chromium against a whole stack: sign in, crawl
// the demo store from the form and watch its progress bar, browse a collection and a
// product, search with a profile, read the usage chart, sign out. Every page is checked
// with axe-core and photographed at phone and desktop widths.

// consoleUI is the console's npm project, relative to this package.
const consoleUI = "../../../server/console/ui"

// screenshotDir is where the test leaves its screenshots: .data/ of the repository (not
// committed), or STOCKROOM_CONSOLE_SCREENSHOTS.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("STOCKROOM_CONSOLE_SCREENSHOTS")
	if dir == "" {
		abs, err := filepath.Abs("../../../.data/console-screenshots")
		if err != nil {
			t.Fatal(err)
		}
		dir = abs
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chromium finds the browser, or skips the test saying why.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no chromium on PATH: the console's browser test needs Debian's chromium (apt-get install chromium)")
	return ""
}

// consoleProxy puts a server in front of the stack for the browser: the console's own
// files pass straight through, and every API answer is checked against the OpenAPI
// document like the other end-to-end tests' calls.
func consoleProxy(t *testing.T, base string) string {
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	checked := httputil.NewSingleHostReverseProxy(target)
	checked.Transport = conformingClient(t).Transport
	plain := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/console") {
			plain.ServeHTTP(w, r)
			return
		}
		checked.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	return proxy.URL
}

// browser is one tab of a headless Chromium that stops with the test.
type browser struct {
	t    *testing.T
	ctx  context.Context
	axe  string
	dir  string
	base string
}

func newBrowser(t *testing.T, base string) *browser {
	path := chromium(t)
	axe, err := os.ReadFile(filepath.Join(consoleUI, "node_modules/axe-core/axe.min.js"))
	if err != nil {
		t.Skipf("axe-core is not installed (run make console): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.Headless,
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // the test may run as root
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("lang", "en-US"),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	ctx, cancelTime := context.WithTimeout(ctx, 6*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	return &browser{t: t, ctx: ctx, axe: string(axe), dir: screenshotDir(t), base: base}
}

// in returns the browser reporting to t, a subtest.
func (b *browser) in(t *testing.T) *browser {
	c := *b
	c.t = t
	return &c
}

// run performs actions, failing the test with what was being done.
func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// evaluate runs a JavaScript expression in the page and returns its value.
func evaluate[T any](b *browser, what, expression string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expression, opts...))
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// open goes to a view of the console by its hash route.
func (b *browser) open(route string) {
	b.t.Helper()
	b.run("open "+route, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("location.hash = %q", route)))
}

// waitFor polls a JavaScript condition until it is true.
func (b *browser) waitFor(what, condition string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if evaluate[bool](b, "check "+what, "!!("+condition+")") {
			return
		}
		if time.Now().After(deadline) {
			text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string]("document.querySelector('main')?.innerText ?? document.body.innerText"))
			b.t.Fatalf("timed out after %s waiting for %s; the page reads:\n%s", timeout, what, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (b *browser) text(selector string) string {
	b.t.Helper()
	// Read through script rather than by node: a view that polls may replace its nodes
	// between a query and a read.
	return evaluate[string](b, "read "+selector, fmt.Sprintf("document.querySelector(%q)?.innerText ?? ''", selector))
}

// check photographs the page at 360 and 1280 pixels wide and runs axe-core on it,
// failing on any serious or critical violation.
func (b *browser) check(name string) {
	b.t.Helper()
	for _, width := range []int64{360, 1280} {
		b.run("resize to "+fmt.Sprint(width),
			chromedp.EmulateViewport(width, 800),
			chromedp.Sleep(200*time.Millisecond), // let the layout settle at the new width
		)
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			b.t.Fatalf("screenshot %s: %v", name, err)
		}
		file := filepath.Join(b.dir, fmt.Sprintf("%s-%d.png", name, width))
		if err := os.WriteFile(file, png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	b.run("restore the viewport", chromedp.ResetViewport())
	type violation struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target []any `json:"target"`
		} `json:"nodes"`
	}
	b.run("inject axe-core", chromedp.Evaluate[chromedp.Void](b.axe))
	violations := evaluate[[]violation](b, "axe "+name,
		`axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)`, chromedp.EvalAwaitPromise)
	for _, v := range violations {
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Errorf("%s: accessibility (%s) %s: %s at %v", name, v.Impact, v.ID, v.Help, v.Nodes)
		}
	}
}

func TestConsoleInARealBrowser(t *testing.T) {
	chromium(t) // skip before starting a whole stack
	// A little latency on every page keeps the crawl running long enough to see it move.
	s := newStack(t, demostore.Options{Kind: demostore.JSONLD, Products: 60, Faults: demostore.Faults{Latency: 150 * time.Millisecond}})
	shop := s.fleet.Get(demostore.JSONLD)
	base := consoleProxy(t, s.base)
	if page := s.get(t, base+"/console/"); strings.Contains(page, "built without the console") {
		t.Skip("the binary's console is not built: run make console")
	}
	tab := newBrowser(t, base)
	// step runs one part of the walk through as a subtest; the walk stops at the first
	// failing part, since every later one builds on it.
	step := func(name string, part func(t *testing.T, b *browser)) {
		if !t.Run(name, func(t *testing.T) { part(t, tab.in(t)) }) {
			t.FailNow()
		}
	}

	step("first load", func(t *testing.T, b *browser) {
		b.run("load the console", chromedp.Navigate(base+"/console/"))
		b.waitFor("the sign-in form", `document.querySelector('#key')`, 10*time.Second)
		type timings struct {
			Interactive float64 `json:"interactive"`
			Rendered    float64 `json:"rendered"`
			Transferred int     `json:"transferred"`
		}
		figures := evaluate[timings](b, "read timings", `(() => {
			const nav = performance.getEntriesByType('navigation')[0];
			const all = [nav, ...performance.getEntriesByType('resource')];
			return {interactive: nav.domInteractive, rendered: performance.now(), transferred: all.reduce((n, e) => n + e.transferSize, 0)};
		})()`)
		t.Logf("first load: %d bytes transferred; DOM interactive at %.0f ms, sign-in form rendered by %.0f ms",
			figures.Transferred, figures.Interactive, figures.Rendered)
		b.check("signin")
	})

	step("a wrong key is refused in words, with the request id", func(t *testing.T, b *browser) {
		b.run("sign in with a wrong key",
			chromedp.SendKeys(chromedp.CSS("#key"), "srk_not-a-key"),
			chromedp.Click(chromedp.CSS(`form button[type=submit]`)),
		)
		b.waitFor("the error", `document.querySelector('[role=alert]')?.innerText.includes('not valid')`, 10*time.Second)
		if got := b.text(`[role=alert]`); !strings.Contains(got, "Request id") {
			t.Errorf("the error does not give the request id: %q", got)
		}
		b.run("clear the key", chromedp.Evaluate[chromedp.Void](`document.querySelector('#key').value = ''`))
	})

	step("sign in", func(t *testing.T, b *browser) {
		b.run("sign in",
			chromedp.SendKeys(chromedp.CSS("#key"), s.key),
			chromedp.Click(chromedp.CSS(`form button[type=submit]`)),
		)
		b.waitFor("the overview", `document.querySelector('[data-testid=credits]')`, 10*time.Second)
		if stored := evaluate[string](b, "read the session", `sessionStorage.getItem('stockroom.apiKey')`); stored != s.key {
			t.Errorf("session storage holds %q, want the key", stored)
		}
	})

	step("crawl the demo store from the form and watch it complete", func(t *testing.T, b *browser) {
		b.open("#/executions")
		b.waitFor("the start form", `document.querySelector('input[name=url]')`, 10*time.Second)
		b.run("start a crawl",
			chromedp.SendKeys(chromedp.CSS(`input[name=url]`), shop.BaseURL),
			chromedp.Click(chromedp.CSS(`form.form button[type=submit]`)),
		)
		b.waitFor("the crawl's page", `location.hash.startsWith('#/executions/crawl/crawl-')`, 10*time.Second)
		// Read the bar as it moves, without reloading, until the crawl is done.
		seen := map[string]bool{}
		deadline := time.Now().Add(2 * time.Minute)
		for {
			value := evaluate[string](b, "read the progress bar", `document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') ?? ''`)
			seen[value] = true
			if value == "100" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the progress bar did not reach 100; it showed %v", seen)
			}
			time.Sleep(50 * time.Millisecond)
		}
		b.waitFor("the completed status", `document.querySelector('.badge')?.innerText === 'completed'`, 10*time.Second)
		if line := b.text(`[data-testid=progress-line]`); !strings.Contains(line, "60 listings") {
			t.Errorf("progress line %q, want the store's 60 listings", line)
		}
		t.Logf("progress values seen: %v", seen)
		b.check("crawl")
		b.open("#/executions")
		b.waitFor("the list", `document.querySelector('[data-testid=executions] li')`, 10*time.Second)
		b.check("executions")
	})

	vendor := hostOf(shop.BaseURL)
	var listingName, listingPrice string
	step("open a collection", func(t *testing.T, b *browser) {
		b.open("#/catalog")
		b.waitFor("the vendors", `document.querySelector('[data-testid=vendors] a')`, 10*time.Second)
		b.check("vendors")
		b.run("open the vendor", chromedp.Click(chromedp.CSS(`[data-testid=vendors] a`)))
		b.waitFor("the collections", `document.querySelectorAll('[data-testid=collections] a').length > 1`, 10*time.Second)
		b.run("open the first collection", chromedp.Click(chromedp.CSS(`[data-testid=collections] li:nth-child(2) a`)))
		b.waitFor("the collection's listings", `location.hash.includes('collection=') && document.querySelector('[data-testid=listings] .tile')`, 10*time.Second)
		type tile struct{ Name, Price string }
		first := evaluate[tile](b, "read the first tile", `(() => {
			const tile = document.querySelector('[data-testid=listings] .tile');
			return {name: tile.querySelector('.name').innerText, price: tile.querySelector('.price').innerText};
		})()`)
		listingName, listingPrice = first.Name, first.Price
		b.check("collection")
	})

	step("open a product and check its price and image", func(t *testing.T, b *browser) {
		r := s.do("GET", "/v2/listings?page_size=100&vendor="+url.QueryEscape(vendor), nil)
		var want map[string]any
		for _, l := range r.body["data"].([]any) {
			if l.(map[string]any)["name"] == listingName {
				want = l.(map[string]any)
			}
		}
		if want == nil {
			t.Fatalf("the grid shows %q, which the API does not list", listingName)
		}
		b.run("open the product", chromedp.Click(chromedp.CSS(`[data-testid=listings] .tile a`)))
		b.waitFor("the product page", `document.querySelector('[data-testid=product-price]')`, 10*time.Second)
		price := b.text(`[data-testid=product-price]`)
		current := field(want, "price", "current_value").(float64)
		if digits(price) == "" || !strings.Contains(digits(price), digits(fmt.Sprintf("%.2f", current))) || price != listingPrice {
			t.Errorf("product price %q (grid %q), want %.2f", price, listingPrice, current)
		}
		b.waitFor("the product image to load", `(() => { const i = document.querySelector('[data-testid=product-image]'); return i && i.complete && i.naturalWidth > 0; })()`, 10*time.Second)
		src := evaluate[string](b, "read the image", `document.querySelector('[data-testid=product-image]').src`)
		if wantSrc := field(want, "images").([]any)[0].(map[string]any)["url"]; src != wantSrc {
			t.Errorf("product image %q, want the listing's first %q", src, wantSrc)
		}
		b.run("extract its detail", chromedp.Click(chromedp.CSS(`.facts-col button`)))
		b.waitFor("the extracted detail and its field sources", `document.querySelector('[data-testid=field-sources] td')`, time.Minute)
		b.check("product")
	})

	step("search with a profile and see reasons", func(t *testing.T, b *browser) {
		b.open("#/search")
		b.waitFor("the search form", `document.querySelector('input[name=query]')`, 10*time.Second)
		words := strings.Fields(listingName)
		b.run("search",
			chromedp.SendKeys(chromedp.CSS(`input[name=query]`), words[len(words)-1]),
			chromedp.Click(chromedp.CSS(`input[name=use_profile]`)),
			chromedp.WaitVisible(chromedp.CSS(`textarea[name=profile]`)),
			chromedp.SetValue(chromedp.CSS(`textarea[name=profile]`), `{"preferences": {"in_stock_only": true}, "style": {"avoid": ["neon"]}}`),
			// SetValue does not fire input events; type a space so Preact reads the field.
			chromedp.SendKeys(chromedp.CSS(`textarea[name=profile]`), " "),
			chromedp.Click(chromedp.CSS(`form.form button[type=submit]`)),
		)
		b.waitFor("results with reasons", `document.querySelector('[data-testid=reasons] li')`, time.Minute)
		if got := b.text(`[data-testid=relaxed]`); got == "" {
			t.Error("the relaxations line is missing")
		}
		b.check("search")
	})

	step("read the usage chart", func(t *testing.T, b *browser) {
		b.open("#/overview")
		// Calls reach ClickHouse within a flush interval; ask again until the crawl's show.
		deadline := time.Now().Add(30 * time.Second)
		for {
			if evaluate[bool](b, "read the chart", `!!document.querySelector('[data-testid=usage-chart] rect') && !!document.querySelector('[data-testid=usage-table]')?.innerText.includes('/v2/crawl')`) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the usage chart shows no crawl calls: %s", b.text("main"))
			}
			b.run("reload the usage", chromedp.Click(chromedp.CSS(`.segmented button:first-child`)))
			time.Sleep(500 * time.Millisecond)
		}
		// The table agrees with /v2/usage, which counts the same calls another way.
		table := b.text(`[data-testid=usage-table]`)
		report := s.do("GET", "/v2/usage?period=24h&page_size=100", nil)
		for _, item := range report.body["data"].([]any) {
			path, calls := item.(map[string]any)["path"].(string), num(item.(map[string]any)["total_calls"])
			if path != "/v2/crawl" && path != "/v2/extract" {
				continue
			}
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(path) + `\s+` + strconv.Itoa(calls) + `\s`).MatchString(table) {
				t.Errorf("the usage table does not show %d calls of %s:\n%s", calls, path, table)
			}
		}
		b.check("overview")
	})

	step("sign out forgets the key", func(t *testing.T, b *browser) {
		b.run("sign out", chromedp.Click(chromedp.CSS(`.signout`)))
		b.waitFor("the sign-in form", `document.querySelector('#key')`, 10*time.Second)
		if stored := evaluate[*string](b, "read the session", `sessionStorage.getItem('stockroom.apiKey')`); stored != nil {
			t.Errorf("the key is still stored: %q", *stored)
		}
	})
}

// digits keeps the digits of s.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// get fetches a page without a key and returns its body.
func (s *stack) get(t *testing.T, address string) string {
	resp, err := http.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}
