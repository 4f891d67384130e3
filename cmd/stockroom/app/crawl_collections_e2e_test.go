package app

import (
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A Shopify store that answers 404 for /collections/all, which the crawl tries on every
// Shopify store, has no such collection: it is not recorded, nor counted in the crawl's
// result or in the vendor's collections.
func TestCrawlRecordsOnlyTheCollectionsTheStoreServes(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 60, Faults: demostore.Faults{NoAllProducts: true}})
	shop := s.fleet.Get(demostore.Shopify)
	body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute)
	if body["status"] != "completed" {
		t.Fatalf("crawl: %v", body)
	}
	served := len(shop.Catalog().Collections())
	if got := num(field(body, "meta", "result", "collections_total")); got != served {
		t.Errorf("collections_total %d, want the %d the store serves", got, served)
	}
	vendor := hostOf(shop.BaseURL)
	r := s.do("GET", "/v2/collections?page_size=100&vendor="+vendor, nil)
	if got := num(field(r.body, "pagination", "total_items")); got != served {
		t.Errorf("collections: %d, want %d", got, served)
	}
	for _, c := range objects(r.body["data"]) {
		if c["url"] == shop.URL("/collections/all") || num(c["products_total"]) == 0 {
			t.Errorf("a collection the store does not serve, or an empty one: %v", c)
		}
	}
	for _, v := range objects(s.do("GET", "/v2/vendors", nil).body["data"]) {
		if v["vendor"] == vendor && num(v["collections_count"]) != served {
			t.Errorf("vendor's collections_count %v, want %d", v["collections_count"], served)
		}
	}
}
