package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/affiliate"
	"github.com/stockroom/stockroom/server"
)

const affiliateTemplate = "https://go.network.example/?pub=7&url={url_encoded}"

// affiliateEnv is an API whose affiliate network covers shop.example and every
// subdomain of brand.example.
func affiliateEnv(t *testing.T) *env {
	t.Helper()
	n, err := affiliate.New(affiliate.Options{Template: affiliateTemplate, Vendors: []string{"shop.example", "*.brand.example"}})
	if err != nil {
		t.Fatal(err)
	}
	return newEnv(t, envOptions{deps: func(d *server.Deps) {
		d.Affiliate = n
		d.Catalog = d.Catalog.WithAffiliateNetwork(n)
	}})
}

// affiliateItemsOf returns the items of either generation's answer, and its counts.
func affiliateItemsOf(t *testing.T, path string, r response) ([]map[string]any, map[string]any) {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("%s: %d %s", path, r.status, r.body)
	}
	body := r.json(t)
	list, counts := body["results"], body
	if strings.HasPrefix(path, "/v2/") {
		list, counts = body["data"], body["meta"].(map[string]any)
	}
	var items []map[string]any
	for _, it := range list.([]any) {
		items = append(items, it.(map[string]any))
	}
	return items, counts
}

func TestAffiliateLinksInBothGenerations(t *testing.T) {
	e := affiliateEnv(t)
	urls := []string{
		"https://www.shop.example/products/red-scarf?variant=2",
		"https://eu.brand.example/p/1",
		"https://other.example/products/x",
		"shop.example/products/no-scheme",
	}
	want := []map[string]any{
		{"success": true, "affiliate_link": "https://go.network.example/?pub=7&url=https%3A%2F%2Fwww.shop.example%2Fproducts%2Fred-scarf%3Fvariant%3D2"},
		{"success": true, "affiliate_link": "https://go.network.example/?pub=7&url=https%3A%2F%2Feu.brand.example%2Fp%2F1"},
		{"success": false, "affiliate_link": nil, "error": "vendor is not in the affiliate network: other.example"},
		{"success": false, "affiliate_link": nil, "error": "malformed URL: URL must start with http:// or https://"},
	}
	for _, path := range []string{"/v1/affiliate", "/v2/affiliate"} {
		r := e.do("POST", path, map[string]any{"urls": urls})
		items, counts := affiliateItemsOf(t, path, r)
		if len(items) != len(urls) {
			t.Fatalf("%s: %d items for %d URLs: %s", path, len(items), len(urls), r.body)
		}
		for i, item := range items {
			if item["original_url"] != urls[i] {
				t.Errorf("%s item %d: original_url %v, want %q", path, i, item["original_url"], urls[i])
			}
			for k, v := range want[i] {
				if got, ok := item[k]; !ok || got != v {
					t.Errorf("%s item %d: %s = %v, want %v", path, i, k, got, v)
				}
			}
			if _, hasError := item["error"]; hasError == item["success"] {
				t.Errorf("%s item %d: error present exactly when the item failed: %v", path, i, item)
			}
		}
		if counts["total_processed"] != 4.0 || counts["successful"] != 2.0 || counts["failed"] != 2.0 {
			t.Errorf("%s counts: %v", path, counts)
		}
		if path == "/v2/affiliate" {
			body := r.json(t)
			want := map[string]any{"page": 1.0, "page_size": 4.0, "total_items": 4.0, "total_pages": 1.0, "has_next": false, "has_prev": false}
			if fmt.Sprint(body["pagination"]) != fmt.Sprint(want) {
				t.Errorf("v2 pagination: %v", body["pagination"])
			}
			if counts["request_id"] != r.header.Get("Request-ID") || counts["request_id"] == "" {
				t.Errorf("v2 meta.request_id %v, header %q", counts["request_id"], r.header.Get("Request-ID"))
			}
		} else if len(r.json(t)) != 4 {
			t.Errorf("v1 body holds results and the three counts only: %s", r.body)
		}
	}
}

func TestAffiliateTakesUpToAHundredURLs(t *testing.T) {
	e := affiliateEnv(t)
	urls := make([]string, 101)
	for i := range urls {
		urls[i] = fmt.Sprintf("https://shop.example/products/p%d", i)
	}
	for _, path := range []string{"/v1/affiliate", "/v2/affiliate"} {
		items, counts := affiliateItemsOf(t, path, e.do("POST", path, map[string]any{"urls": urls[:100]}))
		if len(items) != 100 || counts["successful"] != 100.0 {
			t.Errorf("%s: 100 URLs gave %d items, %v", path, len(items), counts)
		}
		r := e.do("POST", path, map[string]any{"urls": urls})
		if code, msg := errorOf(t, r); r.status != 400 || code != "VALIDATION_ERROR" || !strings.HasPrefix(msg, "urls ") || !strings.Contains(msg, "100") {
			t.Errorf("%s with 101 URLs: %d %s %q", path, r.status, code, msg)
		}
	}
}

func TestBadAffiliateRequestsAreRefusedNamingTheField(t *testing.T) {
	e := affiliateEnv(t)
	cases := []struct {
		name, body, code, mentions string
	}{
		{"malformed JSON", `{"urls": [`, "INVALID_REQUEST", "JSON"},
		{"not an object", `["https://shop.example/p"]`, "INVALID_REQUEST", "object"},
		{"no urls", `{}`, "INVALID_REQUEST", "urls is required"},
		{"urls null", `{"urls": null}`, "INVALID_REQUEST", "urls is required"},
		{"urls not a list", `{"urls": "https://shop.example/p"}`, "INVALID_REQUEST", "urls must be an array of strings"},
		{"urls not strings", `{"urls": ["https://shop.example/p", 7]}`, "INVALID_REQUEST", "urls must be an array of strings"},
		{"urls empty", `{"urls": []}`, "VALIDATION_ERROR", "urls must hold at least one URL"},
	}
	for _, path := range []string{"/v1/affiliate", "/v2/affiliate"} {
		for _, c := range cases {
			r := e.do("POST", path, c.body)
			if code, msg := errorOf(t, r); r.status != 400 || code != c.code || !strings.Contains(msg, c.mentions) {
				t.Errorf("%s, %s: %d %s %q, want 400 %s mentioning %q", path, c.name, r.status, code, msg, c.code, c.mentions)
			}
		}
	}
}

func TestAffiliateIsUnavailableWithoutANetwork(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, path := range []string{"/v1/affiliate", "/v2/affiliate"} {
		// Said before the request is read: a client learns the feature is off, not that
		// its request was wrong.
		for _, body := range []string{`{"urls": ["https://shop.example/p"]}`, `{"urls": []}`, `not json`} {
			r := e.do("POST", path, body)
			if code, msg := errorOf(t, r); r.status != 503 || code != "SERVICE_UNAVAILABLE" || !strings.Contains(msg, "affiliate") {
				t.Errorf("%s %s: %d %s %q", path, body, r.status, code, msg)
			}
		}
	}
}

func TestVendorsInTheNetworkSaySoOnEveryVendorEndpoint(t *testing.T) {
	inNetwork := map[string]bool{"shop.example": true, "eu.brand.example": true, "other.example": false, "shop.example.net": false}
	check := func(t *testing.T, e *env, want func(host string) bool) {
		t.Helper()
		for _, path := range []string{"/v1/vendors", "/v2/vendors", "/api/vendors"} {
			r := e.do("GET", path, nil)
			if r.status != 200 {
				t.Fatalf("%s: %d %s", path, r.status, r.body)
			}
			list := r.json(t)["data"]
			if path == "/api/vendors" {
				list = r.json(t)["vendors"]
			}
			if len(list.([]any)) != len(inNetwork) {
				t.Fatalf("%s: %s", path, r.body)
			}
			for _, it := range list.([]any) {
				v := it.(map[string]any)
				host := v["vendor"].(string)
				if v["in_affiliate_network"] != want(host) {
					t.Errorf("%s: %s in_affiliate_network %v, want %v", path, host, v["in_affiliate_network"], want(host))
				}
			}
		}
	}
	t.Run("with a network", func(t *testing.T) {
		e := affiliateEnv(t)
		for host := range inNetwork {
			e.seedVendor(host, 1)
		}
		check(t, e, func(host string) bool { return inNetwork[host] })
	})
	t.Run("without", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		for host := range inNetwork {
			e.seedVendor(host, 1)
		}
		check(t, e, func(string) bool { return false })
	})
}
