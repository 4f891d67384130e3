package server_test

import (
	"fmt"
	"net/url"
	"testing"
)

// browseEndpoint is one generation's form of a browse endpoint.
type browseEndpoint struct {
	name        string
	method      string
	path        string
	items       string // where the items are: "data", "collections" or "listings"
	v1          bool   // pagination in meta with current_page, instead of pagination
	defaultSize int
}

func (b browseEndpoint) call(e *env, params map[string]any) response {
	if b.method == "GET" {
		q := url.Values{}
		for k, v := range params {
			q.Set(k, fmt.Sprint(v))
		}
		return e.do("GET", b.path+"?"+q.Encode(), nil)
	}
	return e.do("POST", b.path, params)
}

// page returns the items and the pagination object, whatever the generation's shape.
func (b browseEndpoint) page(t *testing.T, r response) ([]any, map[string]any) {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("%s: %d %s", b.name, r.status, r.body)
	}
	body := r.json(t)
	items, ok := body[b.items].([]any)
	if !ok {
		t.Fatalf("%s: no %q array in %s", b.name, b.items, r.body)
	}
	if b.v1 {
		meta := body["meta"].(map[string]any)
		meta["page"] = meta["current_page"]
		return items, meta
	}
	if meta, ok := body["meta"].(map[string]any); !ok || len(meta) != 0 {
		t.Errorf("%s: meta %v, want {}", b.name, body["meta"])
	}
	return items, body["pagination"].(map[string]any)
}

var collectionEndpoints = []browseEndpoint{
	{"POST /v1/collections", "POST", "/v1/collections", "collections", true, 10},
	{"GET /v2/collections", "GET", "/v2/collections", "data", false, 20},
	{"POST /v2/collections", "POST", "/v2/collections", "data", false, 20},
}

var listingEndpoints = []browseEndpoint{
	{"POST /v1/listings", "POST", "/v1/listings", "listings", true, 10},
	{"GET /v2/listings", "GET", "/v2/listings", "data", false, 20},
	{"POST /v2/listings", "POST", "/v2/listings", "data", false, 20},
}

var vendorEndpoints = []browseEndpoint{
	{"GET /v1/vendors", "GET", "/v1/vendors", "data", false, 20},
	{"GET /v2/vendors", "GET", "/v2/vendors", "data", false, 20},
}

func TestCollectionsPagesDefaultsAndOrder(t *testing.T) {
	e := newEnv(t, envOptions{})
	// 25 collections of sizes 1..25, written smallest first: answers must be largest first.
	sizes := make([]int, 25)
	for i := range sizes {
		sizes[i] = i + 1
	}
	e.seedVendor("shop.example", sizes...)
	for _, ep := range collectionEndpoints {
		t.Run(ep.name, func(t *testing.T) {
			items, p := ep.page(t, ep.call(e, map[string]any{"vendor": "https://www.Shop.Example/"}))
			if len(items) != ep.defaultSize || p["page_size"] != float64(ep.defaultSize) {
				t.Fatalf("default page: %d items, page_size %v; want %d", len(items), p["page_size"], ep.defaultSize)
			}
			if p["total_items"] != float64(25) || p["page"] != float64(1) || p["has_prev"] != false || p["has_next"] != true {
				t.Errorf("pagination %v", p)
			}
			first := items[0].(map[string]any)
			if first["products_total"] != float64(25) || first["url"] != "https://shop.example/collections/c24" {
				t.Errorf("first collection %v, want the largest", first)
			}
			for _, field := range []string{"id", "url", "products_total", "last_updated_by_service"} {
				if _, ok := first[field]; !ok {
					t.Errorf("collection lacks %q", field)
				}
			}
			items, p = ep.page(t, ep.call(e, map[string]any{"vendor": "shop.example", "page": 3, "page_size": 10}))
			if len(items) != 5 || p["total_pages"] != float64(3) || p["has_next"] != false || p["has_prev"] != true {
				t.Errorf("last page: %d items, %v", len(items), p)
			}
			if got := items[4].(map[string]any)["products_total"]; got != float64(1) {
				t.Errorf("last item products_total %v, want 1", got)
			}
			items, p = ep.page(t, ep.call(e, map[string]any{"vendor": "unknown.example"}))
			if len(items) != 0 || p["total_items"] != float64(0) || p["total_pages"] != float64(0) {
				t.Errorf("unknown vendor: %d items, %v", len(items), p)
			}
		})
	}
}

func TestPageBoundsAreRefusedNamingTheParameter(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seedVendor("shop.example", 1)
	all := append(append(append([]browseEndpoint{}, collectionEndpoints...), listingEndpoints...), vendorEndpoints...)
	for _, ep := range all {
		for _, c := range []struct {
			params map[string]any
			param  string
		}{
			{map[string]any{"page": 0}, "page"},
			{map[string]any{"page": -1}, "page"},
			{map[string]any{"page_size": 0}, "page_size"},
			{map[string]any{"page_size": 101}, "page_size"},
		} {
			c.params["vendor"] = "shop.example"
			r := ep.call(e, c.params)
			code, msg := errorOf(t, r)
			if r.status != 400 || code != "VALIDATION_ERROR" || len(msg) < len(c.param) || msg[:len(c.param)] != c.param {
				t.Errorf("%s %v: got %d %s %q", ep.name, c.params, r.status, code, msg)
			}
		}
		for _, size := range []int{1, 100} {
			r := ep.call(e, map[string]any{"vendor": "shop.example", "page_size": size})
			if _, p := ep.page(t, r); p["page_size"] != float64(size) {
				t.Errorf("%s page_size=%d answered %v", ep.name, size, p["page_size"])
			}
		}
	}
}

func TestListingsPagesAndCollectionFilter(t *testing.T) {
	e := newEnv(t, envOptions{})
	urls := e.seedVendor("shop.example", 30, 5)
	// A listing of collection 1 that also belongs to collection 0.
	e.seedListingIn("shop.example", "https://shop.example/products/c1-0", urls[0])

	for _, ep := range listingEndpoints {
		t.Run(ep.name, func(t *testing.T) {
			items, p := ep.page(t, ep.call(e, map[string]any{"vendor": "shop.example"}))
			if len(items) != ep.defaultSize || p["total_items"] != float64(35) {
				t.Fatalf("default page: %d items of %v", len(items), p["total_items"])
			}
			l := items[0].(map[string]any)
			for _, field := range []string{"id", "url", "name", "images", "price", "vendor", "first_seen_by_service", "last_updated_by_service"} {
				if _, ok := l[field]; !ok {
					t.Errorf("listing lacks %q", field)
				}
			}
			if l["vendor"] != "shop.example" || l["price"].(map[string]any)["currency"] != "USD" {
				t.Errorf("listing %v", l)
			}
			// Pages cover every listing once, in discovery order.
			seen := map[string]bool{}
			for n := 1; n <= 4; n++ {
				items, _ := ep.page(t, ep.call(e, map[string]any{"vendor": "shop.example", "page": n, "page_size": 10}))
				for _, it := range items {
					seen[it.(map[string]any)["url"].(string)] = true
				}
			}
			if len(seen) != 35 {
				t.Errorf("pages covered %d distinct listings, want 35", len(seen))
			}

			// Collection filter, with the collection URL written loosely.
			loose := "https://WWW.shop.example/collections/c0/"
			params := map[string]any{"vendor": "shop.example", "page_size": 100}
			if ep.v1 {
				params["collection_urls"] = []string{loose}
			} else {
				params["collection_url"] = loose
			}
			items, p = ep.page(t, ep.call(e, params))
			if len(items) != 31 || p["total_items"] != float64(31) {
				t.Errorf("collection c0: %d items, total %v; want 31 (30 own + 1 shared)", len(items), p["total_items"])
			}
		})
	}

	// v1 may name several collections: their union, each listing once.
	r := e.do("POST", "/v1/listings", map[string]any{"vendor": "shop.example", "page_size": 100, "collection_urls": urls})
	items, p := listingEndpoints[0].page(t, r)
	if len(items) != 35 || p["total_items"] != float64(35) {
		t.Errorf("union of both collections: %d items, total %v; want 35", len(items), p["total_items"])
	}
}

func (e *env) seedListingIn(vendor, listingURL, collectionURL string) {
	e.t.Helper()
	ls := []catalogListing{{URL: listingURL, CollectionURLs: []string{collectionURL}}}
	if err := e.catalog.Store().UpsertListings(ctxBG, vendor, ls, nowUTC()); err != nil {
		e.t.Fatal(err)
	}
}

func TestVendorsListEveryVendorMostListingsFirst(t *testing.T) {
	e := newEnv(t, envOptions{})
	for i := 1; i <= 25; i++ {
		e.seedVendor(fmt.Sprintf("v%02d.example", i), i)
	}
	for _, ep := range vendorEndpoints {
		items, p := ep.page(t, ep.call(e, map[string]any{}))
		if len(items) != 20 || p["total_items"] != float64(25) || p["total_pages"] != float64(2) {
			t.Fatalf("%s: %d items, %v", ep.name, len(items), p)
		}
		v := items[0].(map[string]any)
		if v["vendor"] != "v25.example" || v["listings_count"] != float64(25) || v["collections_count"] != float64(1) || v["in_affiliate_network"] != false {
			t.Errorf("%s first vendor %v", ep.name, v)
		}
		if _, ok := v["last_updated_by_service"]; !ok {
			t.Errorf("%s vendor lacks last_updated_by_service", ep.name)
		}
	}
	r := e.do("GET", "/api/vendors", nil)
	vendors, ok := r.json(t)["vendors"].([]any)
	if r.status != 200 || !ok || len(vendors) != 25 {
		t.Fatalf("/api/vendors: %d %s", r.status, r.body)
	}
	v := vendors[0].(map[string]any)
	if v["vendor"] != "v25.example" || v["product_count"] != float64(25) || v["latest_product_update_by_service"] == nil {
		t.Errorf("/api/vendors first %v", v)
	}
}
