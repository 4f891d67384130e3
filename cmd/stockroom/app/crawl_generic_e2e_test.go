package app

import (
	"net/url"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Stores no platform adapter claims are crawled by the generic html adapter's Discover
// and List: categories from the home page's menus, products from the category pages'
// tiles, pages from their "next" links. 300 products make the bigger categories span
// several pages, so paging is exercised.
func TestCrawlOfGenericStoresFillsTheCatalogExactly(t *testing.T) {
	for _, kind := range []demostore.Kind{demostore.HTML, demostore.JSONLD} {
		t.Run(string(kind), func(t *testing.T) {
			s := newStack(t, demostore.Options{Kind: kind, Products: 300})
			shop := s.fleet.Get(kind)
			id := s.startCrawl(shop.BaseURL)
			body := s.waitEnded("/v2/crawl/"+id, time.Minute)
			if body["status"] != "completed" || body["error"] != nil {
				t.Fatalf("crawl did not complete: %v", body)
			}
			cat := shop.Catalog()
			collections := cat.Collections()
			if got := num(field(body, "meta", "result", "collections_total")); got != len(collections) {
				t.Errorf("collections_total %d, want %d", got, len(collections))
			}
			if got := num(field(body, "meta", "result", "listings_total")); got != cat.Len() {
				t.Errorf("listings_total %d, want %d", got, cat.Len())
			}

			vendor := hostOf(shop.BaseURL)
			r := s.do("GET", "/v2/listings?page_size=1&vendor="+vendor, nil)
			if got := num(field(r.body, "pagination", "total_items")); got != cat.Len() {
				t.Errorf("listings: %d, want %d", got, cat.Len())
			}
			pages := 0
			for _, c := range collections {
				pages += shop.CategoryPages(c.Handle)
				q := url.Values{"vendor": {vendor}, "collection_url": {shop.URL(shop.CategoryPath(c.Handle))}, "page_size": {"1"}}
				r := s.do("GET", "/v2/listings?"+q.Encode(), nil)
				if got := num(field(r.body, "pagination", "total_items")); got != len(c.Products) {
					t.Errorf("collection %s: %d listings, want %d", c.Handle, got, len(c.Products))
				}
			}
			// Every category page is read once: no page skipped, none past the last.
			if got := shop.Stats().ByRoute[demostore.RouteCategoryPage]; got != int64(pages) {
				t.Errorf("%d category page requests, want %d", got, pages)
			}
		})
	}
}
