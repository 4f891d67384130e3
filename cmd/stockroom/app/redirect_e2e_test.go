package app

import (
	"net"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A product reached through a redirect (301 or 302, on the same host or to another) is
// read where the fetch landed: extracted from a link that redirects, or from a listing
// a crawl found at such a link, it keeps its platform's data.
func TestProductsReachedThroughRedirectsKeepTheirPlatformData(t *testing.T) {
	// The Shopify store's address is fixed first, so that the HTML store can link its
	// products there through its own redirects.
	l, err := net.Listen("tcp", demostore.DefaultHost(demostore.Shopify)+":0")
	if err != nil {
		t.Fatal(err)
	}
	shopAddress := l.Addr().String()
	l.Close()
	shopProducts := "http://" + shopAddress + "/products/"
	s := newStack(t,
		demostore.Options{Kind: demostore.Shopify, Products: 12, Addr: shopAddress},
		// Same seed, same catalogue: the HTML store's handles are the Shopify store's.
		demostore.Options{Kind: demostore.HTML, Products: 12, Faults: demostore.Faults{ProductLinks: "/go/{handle}?status=302&to=" + shopProducts}},
		demostore.Options{Kind: demostore.HTML, Products: 12, Faults: demostore.Faults{ProductLinks: "/go/{handle}"}},
	)
	shop, elsewhere, local := s.fleet.Stores[0], s.fleet.Stores[1], s.fleet.Stores[2]
	handle := shop.Catalog().Product(0).Handle
	variants := len(shop.Catalog().Product(0).Variants)

	// wantShopify checks an extraction's item: the Shopify product, with its variants and
	// description, at the page the redirects ended on.
	wantShopify := func(t *testing.T, it map[string]any) {
		t.Helper()
		p, _ := it["product"].(map[string]any)
		final, _ := it["final_url"].(string)
		if it["success"] != true || p == nil || final == "" || final == it["url"] {
			t.Fatalf("%v: success %v, final_url %q, product %v", it["url"], it["success"], final, p != nil)
		}
		if p["platform"] != "shopify" || len(p["variants"].([]any)) < 1 || p["description"] == nil || p["description"] == "" ||
			p["platform_id"] == nil || p["url"] != final {
			t.Errorf("%v: platform %v, %d variants, description %.40v, platform_id %v, url %v; want Shopify's data at %s",
				it["url"], p["platform"], len(p["variants"].([]any)), p["description"], p["platform_id"], p["url"], final)
		}
	}

	t.Run("extract", func(t *testing.T) {
		urls := []string{
			shop.URL("/go/" + handle),                                         // 301, same host
			shop.URL("/go/" + handle + "?status=302"),                         // 302, same host
			elsewhere.URL("/go/" + handle + "?to=" + shopProducts),            // 301, another host
			elsewhere.URL("/go/" + handle + "?status=302&to=" + shopProducts), // 302, another host
		}
		items := s.extractV2(urls, nil)
		for _, it := range items {
			wantShopify(t, it)
			if p := it["product"].(map[string]any); len(p["variants"].([]any)) != variants {
				t.Errorf("%v: %d variants, want %d", it["url"], len(p["variants"].([]any)), variants)
			}
		}
	})

	// crawlAndExtract crawls a store, then extracts every listing the crawl found.
	crawlAndExtract := func(t *testing.T, st *demostore.Running) []map[string]any {
		t.Helper()
		crawlID := s.startCrawl(st.BaseURL)
		r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(st.BaseURL), "crawl_id": crawlID})
		if r.status != 202 {
			t.Fatalf("start extraction: %d %s", r.status, r.raw)
		}
		body := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=100", 2*time.Minute)
		items := objects(body["data"])
		if body["status"] != "completed" || len(items) == 0 {
			t.Fatalf("extraction: %v %v", body["status"], field(body, "meta", "result"))
		}
		return items
	}

	t.Run("crawl, through another host", func(t *testing.T) {
		for _, it := range crawlAndExtract(t, elsewhere) {
			wantShopify(t, it)
		}
	})
	t.Run("crawl, on the same host", func(t *testing.T) {
		for _, it := range crawlAndExtract(t, local) {
			p, _ := it["product"].(map[string]any)
			final, _ := it["final_url"].(string)
			if it["success"] != true || p == nil || final == "" || p["url"] != final {
				t.Errorf("%v: success %v, final_url %q, product %v", it["url"], it["success"], final, p)
			}
		}
	})
}
