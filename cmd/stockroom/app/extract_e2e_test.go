package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// outcomeCase is one input URL and what its result must say.
type outcomeCase struct {
	url      string
	outcome  string
	retry    bool
	finalURL bool
}

func TestExtractionReportsEveryOutcomeExactly(t *testing.T) {
	s := newStack(t,
		demostore.Options{Kind: demostore.Shopify, Products: 50},
		demostore.Options{Kind: demostore.Shopify, Products: 10, Faults: demostore.Faults{BotWall: "/products/"}},
	)
	shop, walled := s.fleet.Stores[0], s.fleet.Stores[1]
	product := func(i int) string { return shop.URL(shop.ProductPath(i)) }
	cases := []outcomeCase{
		{url: product(1), outcome: "success"},
		{url: product(2), outcome: "success"},
		{url: product(1), outcome: "success"}, // the same URL twice: fetched once, reported twice
		{url: shop.URL("/products/" + demostore.HandleMissing), outcome: "non_product_url"},
		{url: shop.URL("/products/" + demostore.HandleCategory), outcome: "non_product_url"},
		{url: shop.URL("/products/" + demostore.HandleHome), outcome: "non_product_url", finalURL: true},
		{url: shop.URL("/products/" + demostore.HandleMoved), outcome: "success", finalURL: true},
		{url: "shop.example/products/no-scheme", outcome: "malformed_url"},
		{url: "http://", outcome: "malformed_url"},
		{url: walled.URL(walled.ProductPath(0)), outcome: "automated_access_not_permitted", retry: true},
	}
	urls := make([]string, len(cases))
	for i, c := range cases {
		urls[i] = c.url
	}

	// v2: URL mode.
	r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 || r.body["status"] != "pending" || num(field(r.body, "meta", "url_count")) != len(urls) ||
		num(field(r.body, "meta", "credits_used")) != 5*len(urls) {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	id := r.body["execution_id"].(string)
	if !strings.HasPrefix(id, "extract-urls-") {
		t.Errorf("id %q", id)
	}
	body := s.waitEnded("/v2/extract/"+id+"?page_size=100", 2*time.Minute)
	data := body["data"].([]any)
	if len(data) != len(cases) {
		t.Fatalf("%d results for %d inputs", len(data), len(cases))
	}
	for i, c := range cases {
		item := data[i].(map[string]any)
		_, hasFinal := item["final_url"]
		if item["url"] != c.url || item["outcome"] != c.outcome || item["retry"] != c.retry || hasFinal != c.finalURL {
			t.Errorf("input %d (%s): %v", i, c.url, item)
		}
		if (item["product"] != nil) != (c.outcome == "success") {
			t.Errorf("input %d: product present = %v for outcome %s", i, item["product"] != nil, c.outcome)
		}
	}
	result := field(body, "meta", "result").(map[string]any)
	want := map[string]int{"products_requested": 10, "products_successful": 4, "products_failed": 1,
		"products_invalid": 5, "products_pending": 0}
	for k, v := range want {
		if num(result[k]) != v {
			t.Errorf("meta.result.%s = %v, want %d", k, result[k], v)
		}
	}
	if fmt.Sprint(result["products_invalid_by_reason"]) != "map[malformed_url:2 non_product_url:3]" ||
		fmt.Sprint(result["products_failed_by_reason"]) != "map[automated_access_not_permitted:1]" {
		t.Errorf("by reason: %v %v", result["products_invalid_by_reason"], result["products_failed_by_reason"])
	}
	if n := shop.Stats().ByRoute[demostore.RouteProductPage]; n > 7 {
		t.Errorf("%d product pages fetched for 6 distinct fetchable URLs (and a redirect target)", n)
	}

	// v1: the same inputs, the v1 shapes.
	r = s.do("POST", "/v1/products", map[string]any{"urls": urls})
	if r.status != 200 || r.body["success"] != true {
		t.Fatalf("v1 start: %d %s", r.status, r.raw)
	}
	id = r.body["execution_id"].(string)
	body = s.waitEnded("/v1/products/"+id+"?limit=4&page=3", 2*time.Minute)
	products := field(body, "results", "products").([]any)
	if len(products) != 2 || products[1].(map[string]any)["outcome"] != "automated_access_not_permitted" {
		t.Errorf("v1 page 3 of 4: %v", products)
	}
	meta := field(body, "results", "meta").(map[string]any)
	if num(meta["total_requested"]) != 10 || num(meta["total_successful"]) != 4 || num(meta["total_invalid"]) != 5 ||
		num(meta["total_failed"]) != 1 || num(meta["total_pending"]) != 0 {
		t.Errorf("v1 meta: %v", meta)
	}
	if p := body["pagination"].(map[string]any); num(p["total_pages"]) != 3 || p["has_next"] != false || num(p["limit"]) != 4 {
		t.Errorf("v1 pagination: %v", p)
	}
	// Any valid key reads a v1 batch.
	ctx := t.Context()
	if _, err := s.svc.access.EnsureOrganization(ctx, "other", 10, true); err != nil {
		t.Fatal(err)
	}
	_, otherKey, _ := s.svc.access.IssueKey(ctx, "other", "k")
	if r := s.call("GET", "/v1/products/"+id, nil, otherKey); r.status != 200 {
		t.Errorf("v1 batch read by another organization's key: %d", r.status)
	}
}

func TestOneProductThreeShapesAndFlags(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 20})
	shop := s.fleet.Get(demostore.Shopify)
	u := shop.URL(shop.ProductPath(3))

	// Legacy, synchronous.
	r := s.do("POST", "/api/product", map[string]any{"url": u})
	if r.status != 200 || field(r.body, "meta", "found") != true {
		t.Fatalf("/api/product: %d %s", r.status, r.raw)
	}
	legacy := r.body["product"].(map[string]any)
	if _, ok := legacy["price_amount"]; !ok {
		t.Errorf("legacy product has no price_amount: %v", legacy)
	}

	keys := func(m map[string]any) string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		return fmt.Sprint(len(ks))
	}
	extractOne := func(flags map[string]any) map[string]any {
		body := map[string]any{"urls": []string{u}}
		for k, v := range flags {
			body[k] = v
		}
		r := s.do("POST", "/v2/extract", body)
		if r.status != 202 {
			t.Fatalf("start: %d %s", r.status, r.raw)
		}
		b := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), time.Minute)
		return b["data"].([]any)[0].(map[string]any)["product"].(map[string]any)
	}
	plain := extractOne(nil)
	rich := extractOne(map[string]any{"enable_enrichment": true, "enable_image_tags": true, "enable_reviews": true,
		"enable_similar_products": true})
	if keys(plain) != keys(rich) {
		t.Errorf("the flags changed the schema: %s vs %s fields", keys(plain), keys(rich))
	}
	for _, k := range []string{"attributes", "product_type", "engine_product_category_id", "engine_product_category_path",
		"average_rating", "rating_scale", "review_count", "reviews", "similar_products"} {
		if v, ok := plain[k]; !ok || v != nil {
			t.Errorf("flags off: %s = %v, want present and null", k, v)
		}
	}
	if rich["attributes"] == nil || rich["product_type"] == nil {
		t.Errorf("enrichment on: attributes %v product_type %v", rich["attributes"], rich["product_type"])
	}
	// This Shopify page states no rating, and the product is alone in the catalog: the
	// lists are empty, not null, and the numbers null (values: extract_flags_e2e_test.go).
	if r, ok := rich["reviews"].([]any); !ok || len(r) != 0 || rich["average_rating"] != nil || rich["review_count"] != nil {
		t.Errorf("reviews on, page without ratings: %v %v %v", rich["reviews"], rich["average_rating"], rich["review_count"])
	}
	if sim, ok := rich["similar_products"].([]any); !ok || len(sim) != 0 {
		t.Errorf("similar products on, one product in the catalog: %v", rich["similar_products"])
	}
	price, ok := plain["price"].(map[string]any)
	if !ok || price["current_value"] != legacy["price_amount"] || price["currency"] != legacy["price_currency"] {
		t.Errorf("v2 price %v vs legacy %v %v", plain["price"], legacy["price_amount"], legacy["price_currency"])
	}
	if plain["id"] != legacy["id"] {
		t.Errorf("one product, two ids: %v %v", plain["id"], legacy["id"])
	}
	for _, k := range []string{"sku", "gtin", "mpn", "images", "options", "variants", "store_domain", "updated_at"} {
		if _, ok := plain[k]; !ok {
			t.Errorf("v2 product lacks %s", k)
		}
	}
}

func TestExtractionStartsAreValidatedAndCharged(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 30})
	shop := s.fleet.Get(demostore.Shopify)
	many := make([]string, 1001)
	for i := range many {
		many[i] = shop.URL(shop.ProductPath(i % 30))
	}
	for _, c := range []struct {
		path string
		body any
		code string
	}{
		{"/v2/extract", map[string]any{}, "INVALID_REQUEST"},
		{"/v2/extract", map[string]any{"urls": []string{"x"}, "vendor": "shop.example"}, "INVALID_REQUEST"},
		{"/v2/extract", map[string]any{"urls": "http://x"}, "INVALID_REQUEST"},
		{"/v2/extract", map[string]any{"urls": []string{}}, "VALIDATION_ERROR"},
		{"/v2/extract", map[string]any{"urls": many}, "VALIDATION_ERROR"},
		{"/v2/extract", map[string]any{"vendor": "never-crawled.example"}, "VALIDATION_ERROR"},
		{"/v1/products", map[string]any{"urls": many}, "VALIDATION_ERROR"},
		{"/api/products", map[string]any{"urls": many[:51]}, "VALIDATION_ERROR"},
	} {
		if r := s.do("POST", c.path, c.body); r.status != 400 || field(r.body, "error", "code") != c.code {
			t.Errorf("%s %v: %d %.200s", c.path, c.body, r.status, r.raw)
		}
	}

	// A start the balance cannot pay is refused and charges nothing.
	ctx := t.Context()
	if _, err := s.svc.access.EnsureOrganization(ctx, "poor", 9, true); err != nil {
		t.Fatal(err)
	}
	_, key, _ := s.svc.access.IssueKey(ctx, "poor", "k")
	r := s.call("POST", "/v2/extract", map[string]any{"urls": many[:2]}, key)
	if r.status != 402 || field(r.body, "error", "code") != "INSUFFICIENT_CREDITS" {
		t.Errorf("unpayable start: %d %s", r.status, r.raw)
	}
	org, _ := s.svc.access.Store().OrganizationByName(ctx, "poor")
	if org.Credits != 9 {
		t.Errorf("balance after a refused start: %d, want 9", org.Credits)
	}
	if r := s.call("GET", "/v2/extract", nil, key); len(r.body["data"].([]any)) != 0 {
		t.Errorf("a refused start left an execution: %s", r.raw)
	}
}

func TestVendorModeWaitsForItsCrawl(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 120, Faults: demostore.Faults{Latency: 50 * time.Millisecond}})
	shop := s.fleet.Get(demostore.Shopify)
	vendor := hostOf(shop.BaseURL)
	crawlID := s.startCrawl(shop.BaseURL)
	r := s.do("POST", "/v2/extract", map[string]any{"vendor": vendor, "crawl_id": crawlID, "max_products": 25})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	id := r.body["execution_id"].(string)
	if !strings.HasPrefix(id, "extract-"+strings.ReplaceAll(vendor, ".", "-")+"-") {
		t.Errorf("id %q", id)
	}
	waiting := s.do("GET", "/v2/extract/"+id, nil).body
	if waiting["status"] == "pending" && field(waiting, "meta", "waiting_for") != crawlID {
		t.Errorf("pending without waiting_for: %v", waiting["meta"])
	}
	body := s.waitEnded("/v2/extract/"+id+"?page_size=100", 2*time.Minute)
	if body["status"] != "completed" || num(field(body, "meta", "result", "products_requested")) != 25 ||
		num(field(body, "meta", "result", "products_successful")) != 25 {
		t.Errorf("vendor extraction: %v %v", body["status"], field(body, "meta", "result"))
	}

	// Waiting for a crawl that fails fails the extraction, clearly.
	failing := s.startCrawl("http://10.1.2.3")
	r = s.do("POST", "/v2/extract", map[string]any{"vendor": "10.1.2.3", "crawl_id": failing})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	body = s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), time.Minute)
	if msg, _ := body["error"].(string); body["status"] != "failed" || !strings.Contains(msg, failing) {
		t.Errorf("after a failed crawl: %v %q", body["status"], msg)
	}
}
