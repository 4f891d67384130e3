package app

import (
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Every listing a crawl records with a price names its currency, the one the store's
// pages announce, whichever adapter read it.
func TestListingsCarryTheStoresCurrency(t *testing.T) {
	stores := []demostore.Options{
		{Kind: demostore.Shopify, Products: 30, Currency: "EUR"},
		{Kind: demostore.JSONLD, Products: 30, Currency: "GBP"},
		{Kind: demostore.HTML, Products: 30, Currency: "EUR"},
		{Kind: demostore.Sitemap, Products: 60, Currency: "CHF"},
	}
	s := newStack(t, stores...)
	for i, st := range s.fleet.Stores {
		t.Run(string(st.Kind()), func(t *testing.T) {
			body := s.waitEnded("/v2/crawl/"+s.startCrawl(st.BaseURL), time.Minute)
			if body["status"] != "completed" {
				t.Fatalf("crawl: %v", body)
			}
			r := s.do("GET", "/v2/listings?page_size=100&vendor="+hostOf(st.BaseURL), nil)
			listings := objects(r.body["data"])
			if len(listings) == 0 {
				t.Fatalf("no listings: %s", r.raw)
			}
			for _, l := range listings {
				price, _ := l["price"].(map[string]any)
				if price == nil {
					t.Errorf("%v: no price", l["url"])
					continue
				}
				if price["currency"] != stores[i].Currency {
					t.Errorf("%v: currency %v, want %s", l["url"], price["currency"], stores[i].Currency)
				}
			}
		})
	}
}
