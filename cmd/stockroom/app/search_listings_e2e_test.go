package app

import (
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// The case of issue 40: a crawl lists a store's 300 products and an extraction saves 20 of
// them. Search still covers all 300: the listings no extraction replaced are results too,
// marked as such, in the same product schema, until an extraction replaces them.
func TestSearchFindsTheListingsNoExtractionReplaced(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 300})
	shop := s.fleet.Get(demostore.Shopify)
	crawlID := s.startCrawl(shop.BaseURL)
	r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(shop.BaseURL), "crawl_id": crawlID, "max_products": 20})
	if r.status != 202 {
		t.Fatalf("start extraction: %d %s", r.status, r.raw)
	}
	extraction := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=100", 3*time.Minute)
	if num(field(extraction, "meta", "result", "products_successful")) != 20 {
		t.Fatalf("extraction: %v", field(extraction, "meta", "result"))
	}
	extracted := map[string]bool{}
	for _, it := range objects(extraction["data"]) {
		if p, ok := it["product"].(map[string]any); ok {
			extracted[p["url"].(string)] = true
		}
	}

	// A v2 search over the whole catalog: most of what it finds are listings.
	id := s.startSearch(map[string]any{"query": "shoes", "limit": 100})
	done := s.waitEnded("/v2/agentic-search/"+id+"?page_size=100", time.Minute)
	schema := ""
	var listed []map[string]any
	for i, h := range objects(done["data"]) {
		p, _ := h["product"].(map[string]any)
		if p == nil {
			t.Fatalf("hit %d without a product: %v", i, h)
		}
		if schema == "" {
			schema = keySet(p)
		} else if keySet(p) != schema {
			t.Errorf("hit %d (%s) has the fields %s, hit 0 %s", i, h["source"], keySet(p), schema)
		}
		switch h["source"] {
		case "extraction":
		case "listing":
			if extracted[p["url"].(string)] {
				t.Errorf("hit %d is the listing of extracted %s", i, p["url"])
			}
			price, _ := p["price"].(map[string]any)
			images, _ := p["images"].([]any)
			variants, _ := p["variants"].([]any)
			if p["title"] == nil || price == nil || price["current_value"] == nil || len(images) == 0 || len(variants) != 0 ||
				p["store_domain"] != hostOf(shop.BaseURL) || p["platform"] != nil || p["is_available"] != false {
				t.Errorf("hit %d, built from a listing: %v", i, p)
			}
			listed = append(listed, h)
		default:
			t.Errorf("hit %d has source %v", i, h["source"])
		}
	}
	if len(listed) < 10 {
		t.Fatalf("%d of %d hits are listings, want most of them", len(listed), len(objects(done["data"])))
	}

	// A product and the keys of an extracted one: the schema is the same.
	var anExtracted map[string]any
	for _, it := range objects(extraction["data"]) {
		if p, ok := it["product"].(map[string]any); ok {
			anExtracted = p
			break
		}
	}
	if got := keySet(anExtracted); got != schema {
		t.Errorf("an extracted product has the fields %s, a search hit %s", got, schema)
	}

	// The minis and v1 say the source of each product too.
	v1 := s.do("POST", "/v1/agentic-search-mini", map[string]any{"query": "shoes"})
	products, _ := v1.body["products"].([]any)
	sources, _ := field(v1.body, "meta", "sources").([]any)
	if v1.status != 200 || len(products) == 0 || len(sources) != len(products) {
		t.Errorf("v1 mini: %d, %d products, sources %v", v1.status, len(products), sources)
	}
	v2 := s.do("POST", "/v2/agentic-search-mini", map[string]any{"query": "shoes"})
	for i, h := range objects(v2.body["data"]) {
		if h["source"] != "listing" && h["source"] != "extraction" {
			t.Errorf("v2 mini hit %d: source %v", i, h["source"])
		}
	}

	// Extracting a listed hit replaces it in the search's results.
	url := listed[0]["url"].(string)
	r = s.do("POST", "/v2/extract", map[string]any{"urls": []string{url}})
	if r.status != 202 {
		t.Fatalf("extract %s: %d %s", url, r.status, r.raw)
	}
	s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), time.Minute)
	again := s.do("GET", "/v2/agentic-search/"+id+"?page_size=100", nil)
	seen := 0
	for _, h := range objects(again.body["data"]) {
		if h["url"] != url {
			continue
		}
		seen++
		p := h["product"].(map[string]any)
		variants, _ := p["variants"].([]any)
		if h["source"] != "extraction" || len(variants) == 0 || p["platform"] == nil {
			t.Errorf("after its extraction, %s is served as %v: %v", url, h["source"], p)
		}
	}
	if seen != 1 {
		t.Errorf("%s is %d times among the results after its extraction", url, seen)
	}
}
