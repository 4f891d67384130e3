package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// TestBadInputIsRefusedOnEveryEndpoint sends every endpoint values it cannot take (NUL
// characters, over-long URLs and hosts, pages past the ceiling, credentials in a crawl URL, a
// blank query) and expects a 400 naming the field, never a 500.
func TestBadInputIsRefusedOnEveryEndpoint(t *testing.T) {
	s := newStackWith(t, []string{
		"STOCKROOM_AFFILIATE__TEMPLATE=https://go.network.example/?url={url_encoded}",
		"STOCKROOM_AFFILIATE__VENDORS=*",
	}, demostore.Options{Kind: demostore.Shopify, Products: 5})
	shop := s.fleet.Get(demostore.Shopify)
	vendor := hostOf(shop.BaseURL)
	if body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute); body["status"] != "completed" {
		t.Fatalf("crawl: %v", body)
	}
	product := objects(s.do("GET", "/v2/listings?page_size=1&vendor="+vendor, nil).body["data"])[0]["url"].(string)
	// One finished execution of each kind, whose results the paging cases read.
	started := func(path string, body map[string]any) string {
		r := s.do("POST", path, body)
		if r.status != 200 && r.status != 202 {
			t.Fatalf("POST %s: %d %s", path, r.status, r.raw)
		}
		return r.body["execution_id"].(string)
	}
	batch := started("/v1/products", map[string]any{"urls": []string{product}})
	extraction := started("/v2/extract", map[string]any{"urls": []string{product}})
	search := started("/v2/agentic-search", map[string]any{"query": "shirt"})
	s.waitEnded("/v1/products/"+batch, time.Minute)
	s.waitEnded("/v2/extract/"+extraction, time.Minute)
	s.waitEnded("/v2/agentic-search/"+search, time.Minute)

	const nul = "\x00"
	const hugePage = "4611686018427387905"
	longURL := "https://" + vendor + "/products/" + strings.Repeat("a", 3000)
	longHost := strings.Repeat("a", 296) + ".com"
	cases := []struct {
		name, method, path string
		body               any
		code, field        string
	}{
		// NUL characters, which Postgres cannot store, in every string a request carries.
		{"extract url", "POST", "/v2/extract", map[string]any{"urls": []string{product + nul}}, "VALIDATION_ERROR", "urls"},
		{"batch url", "POST", "/v1/products", map[string]any{"urls": []string{"https://x.example/" + nul}}, "VALIDATION_ERROR", "urls"},
		{"legacy product url", "POST", "/api/product", map[string]any{"url": product + nul}, "VALIDATION_ERROR", "url"},
		{"legacy products url", "POST", "/api/products", map[string]any{"urls": []string{nul}}, "VALIDATION_ERROR", "urls"},
		{"extract vendor", "POST", "/v2/extract", map[string]any{"vendor": vendor + nul}, "VALIDATION_ERROR", "vendor"},
		{"extract crawl_id", "POST", "/v2/extract", map[string]any{"vendor": vendor, "crawl_id": "crawl-" + nul}, "VALIDATION_ERROR", "crawl_id"},
		{"extract country_code", "POST", "/v2/extract", map[string]any{"urls": []string{product}, "country_code": "U" + nul}, "VALIDATION_ERROR", "country_code"},
		{"search query", "POST", "/v2/agentic-search", map[string]any{"query": "shirt" + nul}, "VALIDATION_ERROR", "query"},
		{"profile key", "POST", "/v2/agentic-search", map[string]any{"query": "shirt", "customer_profile": map[string]any{"st" + nul + "yle": "x"}}, "VALIDATION_ERROR", "customer_profile"},
		{"profile value", "POST", "/v2/agentic-search", map[string]any{"query": "shirt", "customer_profile": map[string]any{"style": map[string]any{"avoid": []string{"wool" + nul}}}}, "VALIDATION_ERROR", "customer_profile.style.avoid"},
		{"v1 search query", "POST", "/v1/agentic-search", map[string]any{"query": nul + "shirt"}, "VALIDATION_ERROR", "query"},
		{"v1 mini query", "POST", "/v1/agentic-search-mini", map[string]any{"query": "shirt" + nul}, "VALIDATION_ERROR", "query"},
		{"v2 mini query", "POST", "/v2/agentic-search-mini", map[string]any{"query": "shirt" + nul}, "VALIDATION_ERROR", "query"},
		{"legacy mini query", "POST", "/api/agentic-search-mini", map[string]any{"query": "shirt" + nul}, "VALIDATION_ERROR", "query"},
		{"legacy search query", "POST", "/api/search", map[string]any{"query": "shirt" + nul}, "VALIDATION_ERROR", "query"},
		{"legacy search vendor filter", "POST", "/api/search", map[string]any{"query": "shirt", "filters": map[string]any{"vendor": nul}}, "VALIDATION_ERROR", "filters.vendor"},
		{"legacy search tags filter", "POST", "/api/search", map[string]any{"query": "shirt", "filters": map[string]any{"tags": []string{"a" + nul}}}, "VALIDATION_ERROR", "filters.tags"},
		{"crawl url", "POST", "/v2/crawl", map[string]any{"url": vendor + nul}, "VALIDATION_ERROR", "url"},
		{"v1 crawl url", "POST", "/v1/crawl", map[string]any{"url": nul}, "VALIDATION_ERROR", "url"},
		{"v1 listings vendor", "POST", "/v1/listings", map[string]any{"vendor": vendor + nul}, "VALIDATION_ERROR", "vendor"},
		{"v1 listings collection", "POST", "/v1/listings", map[string]any{"vendor": vendor, "collection_urls": []string{"https://" + vendor + "/collections/a" + nul}}, "VALIDATION_ERROR", "collection_urls"},
		{"v1 collections vendor", "POST", "/v1/collections", map[string]any{"vendor": nul}, "VALIDATION_ERROR", "vendor"},
		{"v2 listings vendor", "GET", "/v2/listings?vendor=" + vendor + "%00", nil, "VALIDATION_ERROR", "vendor"},
		{"v2 listings collection", "GET", "/v2/listings?vendor=" + vendor + "&collection_url=%00", nil, "VALIDATION_ERROR", "collection_url"},
		{"v2 collections vendor", "GET", "/v2/collections?vendor=%00", nil, "VALIDATION_ERROR", "vendor"},
		{"usage period", "GET", "/v2/usage?period=%00", nil, "VALIDATION_ERROR", "period"},
		{"list status", "GET", "/v2/extract?status=%00", nil, "VALIDATION_ERROR", "status"},
		{"affiliate url", "POST", "/v2/affiliate", map[string]any{"urls": []string{product + nul}}, "VALIDATION_ERROR", "urls"},

		// URLs and hosts longer than the documented limits.
		{"extract url over the URL limit", "POST", "/v2/extract", map[string]any{"urls": []string{longURL}}, "VALIDATION_ERROR", "urls"},
		{"batch url over the URL limit", "POST", "/v1/products", map[string]any{"urls": []string{longURL}}, "VALIDATION_ERROR", "urls"},
		{"legacy product url over the URL limit", "POST", "/api/product", map[string]any{"url": longURL}, "VALIDATION_ERROR", "url"},
		{"crawl url of 500 KB", "POST", "/v2/crawl", map[string]any{"url": "https://" + strings.Repeat("a", 500_000) + ".com"}, "VALIDATION_ERROR", "url"},
		{"crawl url over the URL limit", "POST", "/v2/crawl", map[string]any{"url": longURL}, "VALIDATION_ERROR", "url"},
		{"vendor of 300 characters", "GET", "/v2/listings?vendor=" + longHost, nil, "VALIDATION_ERROR", "vendor"},
		{"collections vendor of 300 characters", "GET", "/v2/collections?vendor=" + longHost, nil, "VALIDATION_ERROR", "vendor"},
		{"extract vendor of 300 characters", "POST", "/v2/extract", map[string]any{"vendor": longHost}, "VALIDATION_ERROR", "vendor"},

		// Pages past the ceiling, which would overflow an offset.
		{"listings page", "GET", "/v2/listings?vendor=" + vendor + "&page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"v1 listings page", "POST", "/v1/listings", json.RawMessage(`{"vendor": "` + vendor + `", "page": ` + hugePage + `}`), "VALIDATION_ERROR", "page"},
		{"collections page", "GET", "/v2/collections?vendor=" + vendor + "&page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"vendors page", "GET", "/v2/vendors?page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"v1 vendors page", "GET", "/v1/vendors?page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"usage page", "GET", "/v2/usage?page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"batch results page", "GET", "/v1/products/" + batch + "?page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"extraction results page", "GET", "/v2/extract/" + extraction + "?page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"search results page", "GET", "/v2/agentic-search/" + search + "?page=" + hugePage, nil, "VALIDATION_ERROR", "page"},
		{"legacy search page", "POST", "/api/search", json.RawMessage(`{"query": "shirt", "page": ` + hugePage + `}`), "VALIDATION_ERROR", "page"},
		{"page beyond any number", "GET", "/v2/vendors?page=99999999999999999999999", nil, "VALIDATION_ERROR", "page"},

		// Credentials are not something a crawl uses, and are never stored.
		{"crawl url with credentials", "POST", "/v2/crawl", map[string]any{"url": "https://user:secret@" + vendor + "/"}, "VALIDATION_ERROR", "url"},

		// A blank query, with no filter to select by instead, is refused before anything is
		// charged.
		{"legacy search blank query without filters", "POST", "/api/search", map[string]any{"query": "  "}, "INVALID_REQUEST", "query"},
	}
	org := func() int64 {
		o, err := s.svc.access.Store().OrganizationByName(t.Context(), "acme")
		if err != nil {
			t.Fatal(err)
		}
		return o.Credits
	}
	before := org()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do(c.method, c.path, c.body)
			wantError(t, c.method+" "+c.path, r, 400, c.code, c.field)
			if strings.Contains(string(r.raw), "secret") {
				t.Errorf("the answer repeats the credentials: %s", r.raw)
			}
		})
	}
	if after := org(); after != before {
		t.Errorf("refused requests charged %d credits", before-after)
	}
}
