package app

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// searchStack is a stack whose catalog was filled through the API: a crawl of a Shopify demo
// store, then a vendor-mode extraction of all its products.
func searchStack(t *testing.T, products int) *stack {
	t.Helper()
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: products})
	shop := s.fleet.Get(demostore.Shopify)
	crawlID := s.startCrawl(shop.BaseURL)
	r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(shop.BaseURL), "crawl_id": crawlID})
	if r.status != 202 {
		t.Fatalf("start extraction: %d %s", r.status, r.raw)
	}
	body := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string), 3*time.Minute)
	if body["status"] != "completed" || num(field(body, "meta", "result", "products_successful")) != products {
		t.Fatalf("extraction: %v %v", body["status"], field(body, "meta", "result"))
	}
	return s
}

// keySet is the sorted field names of an object.
func keySet(m map[string]any) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

func objects(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, it := range list {
		m, _ := it.(map[string]any)
		out = append(out, m)
	}
	return out
}

// startSearch starts a v2 search and returns its id.
func (s *stack) startSearch(body map[string]any) string {
	s.t.Helper()
	r := s.do("POST", "/v2/agentic-search", body)
	if r.status != 202 || r.body["status"] != "pending" {
		s.t.Fatalf("start search: %d %s", r.status, r.raw)
	}
	return r.body["execution_id"].(string)
}

// wantError checks an error answer's status, code and that its message names want.
func wantError(t *testing.T, what string, r reply, status int, code, want string) {
	t.Helper()
	msg, _ := field(r.body, "error", "message").(string)
	if r.status != status || field(r.body, "error", "code") != code || !strings.Contains(msg, want) {
		t.Errorf("%s: %d %.300s, want %d %s naming %q", what, r.status, r.raw, status, code, want)
	}
}

func TestAgenticSearchEndToEnd(t *testing.T) {
	s := searchStack(t, 200)

	// Start: 202, pending, the documented id and the credits charged.
	r := s.do("POST", "/v2/agentic-search", map[string]any{
		"query":            "waterproof shoes under $150",
		"customer_profile": map[string]any{"style": map[string]any{"avoid": []string{"suede"}}},
	})
	if r.status != 202 || r.body["status"] != "pending" || num(field(r.body, "meta", "credits_used")) != 25 ||
		field(r.body, "meta", "request_id") == nil {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	id := r.body["execution_id"].(string)
	if !strings.HasPrefix(id, "agentic-") {
		t.Errorf("id %q", id)
	}

	// Poll to completion: steps, result, reasons, hard constraints kept.
	done := s.waitEnded("/v2/agentic-search/"+id, time.Minute)
	if done["status"] != "completed" || done["error"] != nil {
		t.Fatalf("search ended %v: %v", done["status"], done["error"])
	}
	meta := done["meta"].(map[string]any)
	var steps []string
	for _, st := range objects(meta["steps"]) {
		steps = append(steps, st["name"].(string))
		if st["status"] == "failed" || st["status"] == "running" {
			t.Errorf("step %v of a completed search", st)
		}
	}
	if len(steps) == 0 || steps[0] != "Understanding query" || steps[len(steps)-1] != "Done" {
		t.Errorf("steps %v", steps)
	}
	if meta["query"] != "waterproof shoes under $150" || meta["progress"] != nil || meta["start_date"] == nil ||
		meta["stop_date"] == nil || meta["duration_ms"] == nil {
		t.Errorf("meta of a completed search: %v", meta)
	}
	total := num(field(meta, "result", "products_total"))
	data := objects(done["data"])
	if total == 0 || len(data) != min(total, 50) || num(field(done, "pagination", "total_items")) != total ||
		num(field(done, "pagination", "page_size")) != 50 {
		t.Fatalf("%d hits of %d, pagination %v", len(data), total, done["pagination"])
	}
	for i, h := range data {
		p, _ := h["product"].(map[string]any)
		reasons, _ := h["reasons"].([]any)
		if p == nil || h["url"] != p["url"] || len(reasons) == 0 || h["score"] == nil {
			t.Errorf("hit %d: %v", i, h)
			continue
		}
		if _, v1 := p["price_amount"]; v1 || p["price"] == nil {
			t.Errorf("hit %d is not a v2 product: %v", i, keySet(p))
		}
		if lo, ok := p["min_price"].(float64); !ok || lo > 150 {
			t.Errorf("hit %d breaks the price ceiling: %v", i, p["min_price"])
		}
	}

	t.Run("results are paged", func(t *testing.T) {
		var seen []string
		pages := (total + 1) / 2
		for n := 1; n <= min(pages, 3); n++ {
			b := s.do("GET", "/v2/agentic-search/"+id+"?page_size=2&page="+strconv.Itoa(n), nil).body
			pg := b["pagination"].(map[string]any)
			if num(pg["page"]) != n || num(pg["total_items"]) != total || num(pg["total_pages"]) != pages ||
				pg["has_prev"] != (n > 1) || pg["has_next"] != (n < pages) {
				t.Errorf("page %d: %v", n, pg)
			}
			for _, h := range objects(b["data"]) {
				seen = append(seen, h["url"].(string))
			}
		}
		var first []string
		for _, h := range data[:min(len(data), len(seen))] {
			first = append(first, h["url"].(string))
		}
		if !slices.Equal(seen, first) {
			t.Errorf("pages of 2 %v differ from the first page %v", seen, first)
		}
		for _, q := range []struct{ query, param string }{{"page_size=101", "page_size"}, {"page_size=0", "page_size"}, {"page=0", "page"}} {
			wantError(t, q.query, s.do("GET", "/v2/agentic-search/"+id+"?"+q.query, nil), 400, "VALIDATION_ERROR", q.param)
		}
		wantError(t, "page=x", s.do("GET", "/v2/agentic-search/"+id+"?page=x", nil), 400, "INVALID_REQUEST", "page")
	})

	t.Run("list", func(t *testing.T) {
		b := s.do("GET", "/v2/agentic-search?status=completed", nil).body
		found := false
		for _, e := range objects(b["data"]) {
			found = found || e["execution_id"] == id && e["status"] == "completed"
		}
		if !found || num(field(b, "pagination", "page")) != 1 || field(b, "pagination", "has_next") != false {
			t.Errorf("list of completed searches: %v", b)
		}
		for _, e := range objects(s.do("GET", "/v2/agentic-search?status=processing", nil).body["data"]) {
			if e["execution_id"] == id {
				t.Errorf("a completed search listed as processing")
			}
		}
		wantError(t, "status=bogus", s.do("GET", "/v2/agentic-search?status=bogus", nil), 400, "VALIDATION_ERROR", "status")
		wantError(t, "page_size=101", s.do("GET", "/v2/agentic-search?page_size=101", nil), 400, "VALIDATION_ERROR", "page_size")
	})

	t.Run("another organization's search is not found", func(t *testing.T) {
		ctx := t.Context()
		if _, err := s.svc.access.EnsureOrganization(ctx, "other", 1000, true); err != nil {
			t.Fatal(err)
		}
		_, key, err := s.svc.access.IssueKey(ctx, "other", "k")
		if err != nil {
			t.Fatal(err)
		}
		if r := s.call("GET", "/v2/agentic-search/"+id, nil, key); r.status != 404 || field(r.body, "error", "code") != "NOT_FOUND" {
			t.Errorf("GET: %d %s", r.status, r.raw)
		}
		if r := s.call("DELETE", "/v2/agentic-search/"+id, nil, key); r.status != 404 {
			t.Errorf("DELETE: %d %s", r.status, r.raw)
		}
		for _, e := range objects(s.call("GET", "/v2/agentic-search", nil, key).body["data"]) {
			if e["execution_id"] == id {
				t.Errorf("listed to another organization")
			}
		}
		if r := s.do("GET", "/v2/agentic-search/agentic-unknown", nil); r.status != 404 {
			t.Errorf("unknown id: %d", r.status)
		}
	})

	t.Run("cancel", func(t *testing.T) {
		// An ended search cannot be canceled.
		wantError(t, "cancel of a completed search", s.do("DELETE", "/v2/agentic-search/"+id, nil), 409, "EXECUTION_NOT_RUNNING", "")
		// A search canceled at once: searches are fast, so the cancel may lose the race; a
		// few attempts make one win.
		for attempt := 0; attempt < 10; attempt++ {
			sid := s.startSearch(map[string]any{"query": "linen shirt"})
			r := s.do("DELETE", "/v2/agentic-search/"+sid, nil)
			if r.status == 409 {
				continue
			}
			if r.status != 200 || r.body["status"] != "canceled" || r.body["execution_id"] != sid || r.body["stop_date"] == "" {
				t.Fatalf("cancel: %d %s", r.status, r.raw)
			}
			b := s.waitEnded("/v2/agentic-search/"+sid, time.Minute)
			if b["status"] != "failed" || b["error"] != "canceled" || len(objects(b["data"])) != 0 || field(b, "meta", "result") != nil {
				t.Errorf("after cancel: %v %v %v", b["status"], b["error"], b["meta"])
			}
			wantError(t, "second cancel", s.do("DELETE", "/v2/agentic-search/"+sid, nil), 409, "EXECUTION_NOT_RUNNING", "")
			return
		}
		t.Error("ten searches completed before their cancel arrived")
	})

	t.Run("flags keep the schema", func(t *testing.T) {
		query := map[string]any{"query": "apparel"}
		rich := map[string]any{"query": "apparel", "enable_enrichment": true, "enable_image_tags": true,
			"enable_reviews": true, "enable_similar_products": true}
		plain := objects(s.waitEnded("/v2/agentic-search/"+s.startSearch(query), time.Minute)["data"])
		full := objects(s.waitEnded("/v2/agentic-search/"+s.startSearch(rich), time.Minute)["data"])
		if len(plain) == 0 || len(full) == 0 {
			t.Fatalf("no apparel: %d and %d hits", len(plain), len(full))
		}
		p, f := plain[0]["product"].(map[string]any), full[0]["product"].(map[string]any)
		if keySet(p) != keySet(f) {
			t.Errorf("flags changed the product's fields:\n%s\n%s", keySet(p), keySet(f))
		}
		for _, k := range []string{"attributes", "product_type", "engine_product_category_id", "engine_product_category_path"} {
			if v, ok := p[k]; !ok || v != nil {
				t.Errorf("flags off: %s = %v, want present and null", k, v)
			}
		}
		if f["attributes"] == nil {
			t.Errorf("enrichment on: attributes null")
		}
		// Similar products are looked up for search results as for extractions: the
		// apparel titles share words, so some hit has neighbours.
		withSimilar := 0
		for _, h := range full {
			list, ok := h["product"].(map[string]any)["similar_products"].([]any)
			if !ok {
				t.Fatalf("enable_similar_products on: similar_products %v", h["product"].(map[string]any)["similar_products"])
			}
			if len(list) > 0 {
				withSimilar++
			}
		}
		if withSimilar == 0 || p["similar_products"] != nil {
			t.Errorf("similar products: %d of %d hits have some with the flag on; off: %v", withSimilar, len(full), p["similar_products"])
		}
		// The minis and v1 keep their own schema whatever the flags, too.
		for _, path := range []string{"/v1/agentic-search", "/v1/agentic-search-mini", "/api/agentic-search-mini"} {
			off := s.do("POST", path, map[string]any{"query": "apparel", "enable_enrichment": false, "enable_image_tags": false})
			on := s.do("POST", path, rich)
			po, pn := objects(off.body["products"]), objects(on.body["products"])
			if len(po) == 0 || len(pn) == 0 || keySet(po[0]) != keySet(pn[0]) || po[0]["attributes"] != nil {
				t.Errorf("%s: %d %d products; fields %s vs %s", path, len(po), len(pn), keySet(first(po)), keySet(first(pn)))
			}
		}
		off := objects(s.do("POST", "/v2/agentic-search-mini", query).body["data"])
		on := objects(s.do("POST", "/v2/agentic-search-mini", rich).body["data"])
		if len(off) == 0 || len(on) == 0 || keySet(off[0]["product"].(map[string]any)) != keySet(on[0]["product"].(map[string]any)) ||
			keySet(off[0]["product"].(map[string]any)) != keySet(p) {
			t.Errorf("v2 mini: the flags or the endpoint changed the schema")
		}
	})

	t.Run("v1 is synchronous with v1 products", func(t *testing.T) {
		r := s.do("POST", "/v1/agentic-search", map[string]any{"query": "waterproof shoes under $150", "limit": 5})
		products := objects(r.body["products"])
		urls, _ := field(r.body, "meta", "urls").([]any)
		if r.status != 200 || len(products) == 0 || len(products) > 5 || num(field(r.body, "meta", "totalItems")) != len(products) ||
			len(urls) != len(products) || num(field(r.body, "meta", "credits_used")) != 25 {
			t.Fatalf("v1: %d %.300s", r.status, r.raw)
		}
		for i, p := range products {
			if _, ok := p["price_amount"]; !ok || p["price"] != nil || urls[i] != p["url"] {
				t.Errorf("product %d is not a v1 product of meta.urls[%d]: %s", i, i, keySet(p))
			}
		}
		wantError(t, "limit=101", s.do("POST", "/v1/agentic-search", map[string]any{"query": "apparel", "limit": 101}), 400, "VALIDATION_ERROR", "limit")
	})

	t.Run("minis answer at most ten", func(t *testing.T) {
		for _, c := range []struct {
			path, size string
		}{{"/v1/agentic-search-mini", "limit"}, {"/api/agentic-search-mini", "limit"}, {"/v2/agentic-search-mini", "page_size"}} {
			for _, size := range []any{nil, 3, 10, 50} {
				body := map[string]any{"query": "apparel"}
				if size != nil {
					body[c.size] = size
				}
				r := s.do("POST", c.path, body)
				want := 10
				if n, ok := size.(int); ok {
					want = min(n, 10)
				}
				items := objects(r.body["products"])
				count := num(field(r.body, "meta", "totalItems"))
				if c.size == "page_size" {
					items, count = objects(r.body["data"]), num(field(r.body, "pagination", "total_items"))
					if num(field(r.body, "pagination", "page_size")) != want || num(field(r.body, "meta", "credits_used")) != 5 {
						t.Errorf("%s %v: pagination %v meta %v", c.path, size, r.body["pagination"], r.body["meta"])
					}
				}
				// The catalog holds 22 apparel products, so each mini fills its page.
				if r.status != 200 || len(items) != want || count != want {
					t.Errorf("%s %s=%v: %d, %d items, count %d, want %d", c.path, c.size, size, r.status, len(items), count, want)
				}
			}
			wantError(t, c.path+" size 0", s.do("POST", c.path, map[string]any{"query": "shirt", c.size: 0}), 400, "VALIDATION_ERROR", c.size)
		}
	})

	t.Run("legacy search filters", func(t *testing.T) {
		r := s.do("POST", "/api/search", map[string]any{"query": "shoes", "page": 1, "limit": 5,
			"filters": map[string]any{"max_price": 120, "is_available": true}})
		products := objects(r.body["products"])
		m, _ := r.body["meta"].(map[string]any)
		if r.status != 200 || len(products) == 0 || len(products) > 5 || num(m["currentPage"]) != 1 || num(m["pageSize"]) != 5 ||
			num(m["totalPages"]) != (num(m["totalItems"])+4)/5 {
			t.Fatalf("/api/search: %d %.300s", r.status, r.raw)
		}
		for i, p := range products {
			if lo, ok := p["min_price"].(float64); !ok || lo > 120 || p["is_available"] != true {
				t.Errorf("product %d breaks the filters: min_price %v available %v", i, p["min_price"], p["is_available"])
			}
		}
		if num(m["totalItems"]) > 5 {
			next := s.do("POST", "/api/search", map[string]any{"query": "shoes", "page": 2, "limit": 5,
				"filters": map[string]any{"max_price": 120, "is_available": true}})
			if num(field(next.body, "meta", "currentPage")) != 2 || len(objects(next.body["products"])) == 0 ||
				objects(next.body["products"])[0]["id"] == products[0]["id"] {
				t.Errorf("page 2: %.300s", next.raw)
			}
		}
		// Without a query the filters alone select.
		vendor := hostOf(s.fleet.Get(demostore.Shopify).BaseURL)
		r = s.do("POST", "/api/search", map[string]any{"limit": 100, "filters": map[string]any{"vendor": vendor, "tags": []string{"Apparel"}}})
		if r.status != 200 || num(field(r.body, "meta", "totalItems")) != 22 {
			t.Errorf("filters alone: %d, %v items, want the 22 apparel products", r.status, field(r.body, "meta", "totalItems"))
		}
		for _, c := range []struct {
			filters map[string]any
			param   string
		}{
			{map[string]any{"min_price": "cheap"}, "filters.min_price"},
			{map[string]any{"max_price": true}, "filters.max_price"},
			{map[string]any{"vendor": 3}, "filters.vendor"},
			{map[string]any{"is_available": "yes"}, "filters.is_available"},
			{map[string]any{"tags": "sale"}, "filters.tags"},
		} {
			wantError(t, c.param, s.do("POST", "/api/search", map[string]any{"query": "shoes", "filters": c.filters}), 400, "INVALID_REQUEST", c.param)
		}
		wantError(t, "filters not an object", s.do("POST", "/api/search", map[string]any{"query": "shoes", "filters": []int{1}}), 400, "INVALID_REQUEST", "filters")
		wantError(t, "min above max", s.do("POST", "/api/search", map[string]any{"query": "shoes",
			"filters": map[string]any{"min_price": 50, "max_price": 10}}), 400, "VALIDATION_ERROR", "filters.min_price")
		wantError(t, "negative price", s.do("POST", "/api/search", map[string]any{"query": "shoes",
			"filters": map[string]any{"max_price": -1}}), 400, "VALIDATION_ERROR", "filters.max_price")
		wantError(t, "limit=101", s.do("POST", "/api/search", map[string]any{"query": "shoes", "limit": 101}), 400, "VALIDATION_ERROR", "limit")
	})

	t.Run("bad bodies", func(t *testing.T) {
		for _, path := range []string{"/v2/agentic-search", "/v1/agentic-search", "/v1/agentic-search-mini",
			"/v2/agentic-search-mini", "/api/agentic-search-mini", "/api/search"} {
			if path != "/api/search" { // legacy search may select by filters alone, and has no profile
				wantError(t, path+" without query", s.do("POST", path, map[string]any{}), 400, "INVALID_REQUEST", "query")
				wantError(t, path+" blank query", s.do("POST", path, map[string]any{"query": "  "}), 400, "INVALID_REQUEST", "query")
				wantError(t, path+" profile not an object", s.do("POST", path, map[string]any{"query": "shirt", "customer_profile": []string{"x"}}),
					400, "INVALID_REQUEST", "customer_profile")
			}
			wantError(t, path+" query not a string", s.do("POST", path, map[string]any{"query": 3}), 400, "INVALID_REQUEST", "query")
			wantError(t, path+" flag not a boolean", s.do("POST", path, map[string]any{"query": "shirt", "enable_enrichment": "yes"}),
				400, "INVALID_REQUEST", "enable_enrichment")
			wantError(t, path+" body not an object", s.do("POST", path, []string{"query"}), 400, "INVALID_REQUEST", "JSON object")
		}
	})

	t.Run("credits", func(t *testing.T) {
		ctx := t.Context()
		if _, err := s.svc.access.EnsureOrganization(ctx, "poor", 7, true); err != nil {
			t.Fatal(err)
		}
		_, key, err := s.svc.access.IssueKey(ctx, "poor", "k")
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/v2/agentic-search", "/v1/agentic-search", "/api/search"} {
			if r := s.call("POST", path, map[string]any{"query": "shirt"}, key); r.status != 402 || field(r.body, "error", "code") != "INSUFFICIENT_CREDITS" {
				t.Errorf("%s with 7 credits: %d %s", path, r.status, r.raw)
			}
		}
		if r := s.call("POST", "/v2/agentic-search-mini", map[string]any{"query": "shirt"}, key); r.status != 200 {
			t.Errorf("a mini with 7 credits: %d %s", r.status, r.raw)
		}
		if r := s.call("POST", "/v1/agentic-search-mini", map[string]any{"query": "shirt"}, key); r.status != 402 ||
			field(r.body, "error", "code") != "INSUFFICIENT_CREDITS" {
			t.Errorf("a mini with 2 credits left: %d %s", r.status, r.raw)
		}
		if org, _ := s.svc.access.Store().OrganizationByName(ctx, "poor"); org.Credits != 2 {
			t.Errorf("balance %d, want 2: one mini charged, the refused calls nothing", org.Credits)
		}
	})

	t.Run("usage records the route templates", func(t *testing.T) {
		want := []string{"/v2/agentic-search", "/v2/agentic-search/{execution_id}", "/v2/agentic-search-mini",
			"/v1/agentic-search", "/v1/agentic-search-mini", "/api/agentic-search-mini", "/api/search"}
		deadline := time.Now().Add(time.Minute)
		for {
			paths := map[string]bool{}
			for _, it := range objects(s.do("GET", "/v2/usage?period=24h&page_size=100", nil).body["data"]) {
				paths[it["path"].(string)] = true
			}
			var missing []string
			for _, p := range want {
				if !paths[p] {
					missing = append(missing, p)
				}
			}
			if len(missing) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("usage lacks %v; has %v", missing, paths)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}

func first(list []map[string]any) map[string]any {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}
