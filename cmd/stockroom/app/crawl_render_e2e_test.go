package app

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/render"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// needChromium skips a test that renders pages when no Chromium is installed.
func needChromium(t *testing.T) {
	t.Helper()
	if render.ExecPath("") == "" {
		t.Skip("chromium is not installed")
	}
}

const renderingOn = "STOCKROOM_RENDER__ENABLED=true"

// TestCrawlOfAStoreDrawnByScript crawls, with rendering on, the demo store whose every
// page is an application shell: discovery, listing and extraction each find their page
// empty, render it and read what its script drew. The script draws the JSON-LD store's
// pages, so the same catalogue served by the JSON-LD store is crawled beside it: the two
// must come out the same, and both as the catalogue says. Ten products are extracted
// from each and compared field by field.
func TestCrawlOfAStoreDrawnByScript(t *testing.T) {
	needChromium(t)
	s := newStackWith(t, []string{renderingOn, "STOCKROOM_RENDER__TABS=2"},
		demostore.Options{Kind: demostore.Script, Products: 120}, demostore.Options{Kind: demostore.JSONLD, Products: 120})
	shop, served := s.fleet.Get(demostore.Script), s.fleet.Get(demostore.JSONLD)
	cat := shop.Catalog()

	started := time.Now()
	body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), 3*time.Minute)
	elapsed := time.Since(started)
	if body["status"] != "completed" || body["error"] != nil {
		t.Fatalf("crawl did not complete: %v", body)
	}
	if body := s.waitEnded("/v2/crawl/"+s.startCrawl(served.BaseURL), time.Minute); body["status"] != "completed" {
		t.Fatalf("crawl of the JSON-LD store did not complete: %v", body)
	}
	collections := cat.Collections()
	if got := num(field(body, "meta", "result", "collections_total")); got != len(collections) {
		t.Errorf("collections_total %d, want %d", got, len(collections))
	}
	if got := num(field(body, "meta", "result", "listings_total")); got != cat.Len() {
		t.Errorf("listings_total %d, want %d", got, cat.Len())
	}
	vendor := hostOf(shop.BaseURL)
	for _, col := range collections {
		q := url.Values{"vendor": {vendor}, "collection_url": {shop.URL(shop.CategoryPath(col.Handle))}, "page_size": {"1"}}
		r := s.do("GET", "/v2/listings?"+q.Encode(), nil)
		if got := num(field(r.body, "pagination", "total_items")); got != len(col.Products) {
			t.Errorf("collection %s: %d listings, want %d", col.Handle, got, len(col.Products))
		}
	}
	// Every category page is read once, as a shell whose script then asks for it.
	if got, want := shop.Stats().ByRoute[demostore.RouteCategoryPage], archivePages(shop); got != int64(want) {
		t.Errorf("%d category pages read, want %d", got, want)
	}
	stats := s.svc.running.engine.renderer.Stats()
	requests := shop.Stats().Requests
	t.Logf("script store: %d listings, %d requests (%.2f a listing), %d pages rendered (%.2f a second), %s",
		cat.Len(), requests, float64(requests)/float64(cat.Len()), stats.Pages, float64(stats.Pages)/elapsed.Seconds(), elapsed.Round(time.Millisecond))

	// Every listing as its tile shows it: the name, the lead variant's price in dollars,
	// and the same as the JSON-LD store's tile gives.
	drawn, plain := s.listingsOf(vendor), s.listingsOf(hostOf(served.BaseURL))
	for i := range cat.Len() {
		p := cat.Product(i)
		l, ok := drawn[shop.URL(shop.ProductPath(i))]
		if !ok {
			t.Errorf("no listing of %s", p.Handle)
			continue
		}
		price, _ := l["price"].(map[string]any)
		if l["name"] != p.Title || price["currency"] != "USD" || !sameMoney(price["current_value"], p.LeadVariant().Price) {
			t.Errorf("listing %s: %v %v, want %q %s USD", p.Handle, l["name"], l["price"], p.Title, p.LeadVariant().Price)
		}
		if other := plain[served.URL(served.ProductPath(i))]; !reflect.DeepEqual(l["price"], other["price"]) || l["name"] != other["name"] {
			t.Errorf("listing %s: %v %v drawn by script, %v %v served", p.Handle, l["name"], l["price"], other["name"], other["price"])
		}
	}

	// Ten products, extracted exactly, and as from the JSON-LD store.
	picked := pickProducts(cat, 10)
	fromScript, fromServed := s.extractAll(shop, picked), s.extractAll(served, picked)
	for k, i := range picked {
		p := cat.Product(i)
		got, want := fromScript[k], fromServed[k]
		if got == nil {
			t.Errorf("product %s: not extracted", p.Handle)
			continue
		}
		current, compareAt := leadPrice(p)
		if got["title"] != p.Title || !samePrice(got["price"], current, compareAt, "USD") || got["is_available"] != p.Available() {
			t.Errorf("product %s: %q %v available %v; want %q %s %s USD, available %v", p.Handle,
				got["title"], got["price"], got["is_available"], p.Title, current, compareAt, p.Available())
		}
		for _, key := range []string{"title", "price", "is_available", "variants", "description"} {
			if !reflect.DeepEqual(got[key], want[key]) {
				t.Errorf("product %s: %s is %v drawn by script, %v served", p.Handle, key, got[key], want[key])
			}
		}
		// Images are on each store's own host, with ids of their own.
		if a, b := imagePaths(got), imagePaths(want); !reflect.DeepEqual(a, b) || len(a) == 0 {
			t.Errorf("product %s: images %v drawn by script, %v served", p.Handle, a, b)
		}
	}
}

// imagePaths are the paths of a product's image URLs.
func imagePaths(product map[string]any) []string {
	var out []string
	images, _ := product["images"].([]any)
	for _, im := range images {
		u, _ := url.Parse(fmt.Sprint(im.(map[string]any)["url"]))
		out = append(out, u.Path)
	}
	return out
}

// extractAll extracts the products of shop at indexes through the API, and returns each
// one's product (nil when there is none).
func (s *stack) extractAll(shop *demostore.Running, indexes []int) []map[string]any {
	s.t.Helper()
	urls := make([]string, len(indexes))
	for k, i := range indexes {
		urls[k] = shop.URL(shop.ProductPath(i))
	}
	r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 {
		s.t.Fatalf("start extraction: %d %s", r.status, r.raw)
	}
	done := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=100", 2*time.Minute)
	items, _ := done["data"].([]any)
	if len(items) != len(indexes) {
		s.t.Fatalf("%d results for %d products: %v", len(items), len(indexes), done)
	}
	out := make([]map[string]any, len(items))
	for k, item := range items {
		out[k], _ = item.(map[string]any)["product"].(map[string]any)
	}
	return out
}

// With rendering off (the default), the same store fails clearly: the crawl ends at
// discovery saying the home page is drawn by script, and an extraction of a product says
// the same of its page.
func TestAStoreDrawnByScriptNeedsRendering(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Script, Products: 30})
	shop := s.fleet.Get(demostore.Script)
	body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute)
	if body["status"] != "failed" || !strings.Contains(fmt.Sprint(body["error"]), "drawn by script and rendering is off") {
		t.Errorf("crawl with rendering off: status %v, error %v; want failed, drawn by script", body["status"], body["error"])
	}

	r := s.do("POST", "/v2/extract", map[string]any{"urls": []string{shop.URL(shop.ProductPath(3))}})
	if r.status != 202 {
		t.Fatalf("start extraction: %d %s", r.status, r.raw)
	}
	done := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), time.Minute)
	items, _ := done["data"].([]any)
	if len(items) != 1 {
		t.Fatalf("extraction: %v", done)
	}
	item := items[0].(map[string]any)
	if item["product"] != nil || !strings.Contains(fmt.Sprint(item), "drawn by script and rendering is off") {
		t.Errorf("extraction with rendering off: %v; want no product, drawn by script", item)
	}
}

// Rendering on costs nothing on a store whose pages carry their products: the shell
// check says no to every page, Chromium never starts, and the crawl and an extraction
// make exactly the requests they make with rendering off.
func TestRenderingOnCostsNothingOnAStoreThatDoesNotNeedIt(t *testing.T) {
	needChromium(t)
	requests := map[bool]int64{}
	for _, on := range []bool{false, true} {
		var env []string
		if on {
			env = []string{renderingOn}
		}
		s := newStackWith(t, env, demostore.Options{Kind: demostore.JSONLD, Products: 120})
		shop := s.fleet.Get(demostore.JSONLD)
		started := time.Now()
		if body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute); body["status"] != "completed" {
			t.Fatalf("crawl (rendering %v): %v", on, body)
		}
		crawled := time.Since(started)
		if got := s.extractAll(shop, pickProducts(shop.Catalog(), 10)); got[0] == nil {
			t.Fatalf("extraction (rendering %v) found no product", on)
		}
		requests[on] = shop.Stats().Requests
		if r := s.svc.running.engine.renderer; on && (r.Stats().Pages != 0 || r.Stats().Browsers != 0) {
			t.Errorf("rendering on: %d pages rendered, Chromium started %d times; want none", r.Stats().Pages, r.Stats().Browsers)
		}
		t.Logf("rendering %v: %d requests, crawl %s", on, requests[on], crawled.Round(time.Millisecond))
	}
	if requests[true] != requests[false] {
		t.Errorf("%d requests with rendering on, %d with it off; want the same", requests[true], requests[false])
	}
}
