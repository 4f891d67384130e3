package app

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// TestVendorExtractionReadsWhatTheCrawlRead crawls a Shopify-like store, then extracts
// the vendor: every product is built from the collection JSON the crawl read, and the
// extraction asks the store for its home page alone. The whole job stays within the bar
// of issue 41 (at most 0.02 requests a product), counted by the store.
func TestVendorExtractionReadsWhatTheCrawlRead(t *testing.T) {
	const products = 2500
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: products})
	shop := s.fleet.Get(demostore.Shopify)

	crawlID := s.startCrawl(shop.BaseURL)
	crawl := s.waitEnded("/v2/crawl/"+crawlID, 3*time.Minute)
	if crawl["status"] != "completed" {
		t.Fatalf("crawl: %v", crawl)
	}
	crawled := shop.Stats()

	r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(shop.BaseURL), "crawl_id": crawlID})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	body := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), 5*time.Minute)
	if got := num(field(body, "meta", "result", "products_successful")); got != products {
		t.Fatalf("%d products extracted, want %d: %v", got, products, field(body, "meta", "result"))
	}
	extracted := shop.Stats()
	if n := extracted.Requests - crawled.Requests; n != 1 || extracted.ByRoute[demostore.RouteHome]-crawled.ByRoute[demostore.RouteHome] != 1 {
		t.Errorf("the extraction made %d requests (%v), want 1: the home page", n, extracted.ByRoute)
	}
	perProduct := float64(extracted.Requests) / products
	t.Logf("crawl %d requests, extraction %d: %.4f requests a product", crawled.Requests, extracted.Requests-crawled.Requests, perProduct)
	if perProduct > 0.02 {
		t.Errorf("%.4f requests a product for the whole job, want at most 0.02 (%v)", perProduct, extracted.ByRoute)
	}
}

// TestVendorExtractionGivesWhatURLExtractionGives extracts a real Shopify catalog twice,
// as a vendor after a crawl and URL by URL, and wants the same products field for field.
func TestVendorExtractionGivesWhatURLExtractionGives(t *testing.T) {
	catalog, err := demostore.LoadShopify("/work/shared/corpus/shopify/stanley1913-products.json")
	if err != nil {
		t.Skipf("corpus: %v", err)
	}
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Catalog: catalog})
	shop := s.fleet.Get(demostore.Shopify)
	crawlID := s.startCrawl(shop.BaseURL)

	r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(shop.BaseURL), "crawl_id": crawlID})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	vendorMode := s.extractedProducts(r.body["execution_id"].(string))
	if len(vendorMode) != catalog.Len() {
		t.Fatalf("vendor mode gave %d products, the catalog has %d", len(vendorMode), catalog.Len())
	}
	before := shop.Stats()

	urls := make([]string, 0, len(vendorMode))
	for u := range vendorMode {
		urls = append(urls, u)
	}
	r = s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	urlMode := s.extractedProducts(r.body["execution_id"].(string))
	if after := shop.Stats(); after.ByRoute[demostore.RouteProductPage]-before.ByRoute[demostore.RouteProductPage] != int64(len(urls)) {
		t.Errorf("URL mode fetched %d product pages for %d URLs: it did not read the pages", after.ByRoute[demostore.RouteProductPage]-before.ByRoute[demostore.RouteProductPage], len(urls))
	}
	for u, want := range urlMode {
		if got := vendorMode[u]; !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s:\nvendor mode %.2000s\n   URL mode %.2000s", u, g, w)
		}
	}
}

// extractedProducts waits for extraction id to complete and returns its products by URL.
func (s *stack) extractedProducts(id string) map[string]any {
	s.t.Helper()
	out := map[string]any{}
	for page := 1; ; page++ {
		body := s.waitEnded(fmt.Sprintf("/v2/extract/%s?page=%d&page_size=100", id, page), 5*time.Minute)
		if body["status"] != "completed" {
			s.t.Fatalf("extraction %s: %v", id, body["error"])
		}
		for _, item := range body["data"].([]any) {
			it := item.(map[string]any)
			if it["product"] == nil {
				s.t.Fatalf("%s: no product: %v", it["url"], it)
			}
			out[it["url"].(string)] = it["product"]
		}
		if field(body, "pagination", "has_next") != true {
			return out
		}
	}
}

// TestVendorExtractionOfAJSONLDStore crawls and extracts a store whose category pages
// show less than a product: the extraction fetches each product's page once, and nothing
// else but robots.txt, counted by the store.
func TestVendorExtractionOfAJSONLDStore(t *testing.T) {
	const products = 1000
	s := newStack(t, demostore.Options{Kind: demostore.JSONLD, Products: products})
	shop := s.fleet.Get(demostore.JSONLD)
	crawlID := s.startCrawl(shop.BaseURL)
	if crawl := s.waitEnded("/v2/crawl/"+crawlID, 3*time.Minute); crawl["status"] != "completed" {
		t.Fatalf("crawl: %v", crawl)
	}
	crawled := shop.Stats()
	r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(shop.BaseURL), "crawl_id": crawlID})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	body := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), 5*time.Minute)
	if got := num(field(body, "meta", "result", "products_successful")); got != products {
		t.Fatalf("%d products extracted, want %d: %v", got, products, field(body, "meta", "result"))
	}
	st := shop.Stats()
	pages := st.ByRoute[demostore.RouteProductPage] - crawled.ByRoute[demostore.RouteProductPage]
	others := st.Requests - crawled.Requests - pages - (st.ByRoute[demostore.RouteRobots] - crawled.ByRoute[demostore.RouteRobots])
	t.Logf("crawl %d requests, extraction %d (%v): %.4f a product for the whole job", crawled.Requests, st.Requests-crawled.Requests, st.ByRoute, float64(st.Requests)/products)
	if pages != products || others != 0 {
		t.Errorf("the extraction fetched %d product pages and %d other documents for %d products, want one page each and nothing else", pages, others, products)
	}
}
