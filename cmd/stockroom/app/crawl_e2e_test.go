package app

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestCrawlOfAShopifyStoreFillsTheCatalogExactly(t *testing.T) {
	// 748 products: "sale" holds 250, one full page, and its second page is empty.
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 748})
	shop := s.fleet.Get(demostore.Shopify)
	id := s.startCrawl(shop.BaseURL)
	if !strings.HasPrefix(id, "crawl-"+hostOf(shop.BaseURL)+"-") {
		t.Errorf("execution id %q is not crawl-{hostname}-{uuid}", id)
	}
	body := s.waitEnded("/v2/crawl/"+id, time.Minute)
	if body["status"] != "completed" || body["error"] != nil {
		t.Fatalf("crawl did not complete: %v", body)
	}
	cat := shop.Catalog()
	collections := cat.Collections()
	if sale, _ := cat.Collection("sale"); len(sale.Products) != 250 {
		t.Fatalf("sale holds %d products, not the full page the test needs", len(sale.Products))
	}
	if got := num(field(body, "meta", "result", "listings_total")); got != cat.Len() {
		t.Errorf("listings_total %d, want %d", got, cat.Len())
	}
	// The store's collections, and "all", every product, which it serves without listing.
	if got := num(field(body, "meta", "result", "collections_total")); got != len(collections)+1 {
		t.Errorf("collections_total %d, want %d", got, len(collections)+1)
	}
	for _, step := range field(body, "meta", "steps").([]any) {
		if st := step.(map[string]any)["status"]; st != "completed" {
			t.Errorf("step %v", step)
		}
	}
	if field(body, "meta", "progress") != nil || field(body, "meta", "stop_date") == nil {
		t.Errorf("completed crawl: progress %v stop_date %v", field(body, "meta", "progress"), field(body, "meta", "stop_date"))
	}

	// The browse endpoints serve what the crawl found, a listing in several collections
	// linked to each.
	vendor := hostOf(shop.BaseURL)
	r := s.do("GET", "/v2/collections?page_size=100&vendor="+vendor, nil)
	if got := num(field(r.body, "pagination", "total_items")); got != len(collections)+1 {
		t.Fatalf("collections: %d, want %d", got, len(collections)+1)
	}
	r = s.do("GET", "/v2/listings?page_size=1&vendor="+vendor, nil)
	if got := num(field(r.body, "pagination", "total_items")); got != cat.Len() {
		t.Errorf("listings: %d, want %d", got, cat.Len())
	}
	all := demostore.Collection{Handle: "all", Products: make([]int32, cat.Len())}
	for _, c := range slices.Concat(collections, []demostore.Collection{all}) {
		q := url.Values{"vendor": {vendor}, "collection_url": {shop.URL("/collections/" + c.Handle)}, "page_size": {"1"}}
		r := s.do("GET", "/v2/listings?"+q.Encode(), nil)
		if got := num(field(r.body, "pagination", "total_items")); got != len(c.Products) {
			t.Errorf("collection %s: %d listings, want %d", c.Handle, got, len(c.Products))
		}
	}

	// v1 reads the same crawl in its own shape.
	r = s.do("GET", "/v1/crawl/"+id, nil)
	if len(r.body) != 2 || r.body["status"] != "completed" || num(r.body["total_listings_found"]) != cat.Len() {
		t.Errorf("v1 status: %s", r.raw)
	}
	r = s.do("GET", "/v1/crawl?status=completed", nil)
	if list, _ := r.body["executions"].([]any); len(list) != 1 {
		t.Errorf("v1 list: %s", r.raw)
	}
	// A second crawl finds nothing new: same counts, no duplicates, the same listings. It
	// asks only whether each page changed, and the store, unchanged, answers 304 to all.
	// last_updated_by_service says when the crawl last saw a listing, which a recrawl does.
	seenAt := regexp.MustCompile(`"last_updated_by_service":"[^"]*"`)
	listings := func() string {
		return seenAt.ReplaceAllString(string(s.do("GET", "/v2/listings?page_size=100&vendor="+vendor, nil).raw), "")
	}
	listingsBefore := listings()
	shop.ResetStats()
	id2 := s.startCrawl(shop.BaseURL)
	body = s.waitEnded("/v2/crawl/"+id2, time.Minute)
	if num(field(body, "meta", "result", "listings_total")) != cat.Len() {
		t.Errorf("recrawl: %v", field(body, "meta", "result"))
	}
	stats := shop.Stats()
	asked := stats.Requests - stats.ByRoute[demostore.RouteRobots]
	// The crawl asks for a collection's next pages ahead of reading them, and abandons those
	// it no longer needs when a collection ends sooner: at most one a collection, counted as
	// unanswered, and (never stored) asked again without a validator the next time. Every
	// other request is conditional and answered 304.
	requests, _ := field(body, "meta", "requests").(map[string]any)
	abandoned := int64(num(requests["failed"]))
	unconditional := asked - stats.Conditional
	if asked == 0 || abandoned+unconditional > int64(len(collections)) || stats.ByStatus[304] < stats.Conditional-abandoned {
		t.Errorf("recrawl: %d page requests, %d conditional, %d answered 304, %d abandoned; want all but the pages asked ahead conditional and unchanged",
			asked, stats.Conditional, stats.ByStatus[304], abandoned)
	}
	if got := int64(num(requests["not_modified"])); got != stats.ByStatus[304]-abandoned && got != stats.ByStatus[304] {
		t.Errorf("recrawl: meta.requests %v; want the %d answers 304 the crawl read", requests, stats.ByStatus[304])
	}
	if after := listings(); after != listingsBefore {
		t.Errorf("recrawl of an unchanged store changed the listings:\n%s\nthen\n%s", listingsBefore, after)
	}
	r = s.do("GET", "/v2/listings?page_size=1&vendor="+vendor, nil)
	if got := num(field(r.body, "pagination", "total_items")); got != cat.Len() {
		t.Errorf("after recrawl: %d listings, want %d", got, cat.Len())
	}
}

// A real catalog, its collections derived as the demo store does (one per product type,
// one per shared tag), leaves products in none: kiidskingdom, 113 of its 250. The crawl
// finds them in "all", every product, which each Shopify store serves.
func TestCrawlOfARealShopifyCatalogFindsProductsInNoCollection(t *testing.T) {
	const file = "/work/shared/corpus/shopify/kiidskingdom-products.json"
	cat, err := demostore.LoadShopify(file)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	inSome := map[int32]bool{}
	for _, c := range cat.Collections() {
		for _, p := range c.Products {
			inSome[p] = true
		}
	}
	if len(inSome) == cat.Len() {
		t.Fatalf("every product of %s is in a collection: the test proves nothing", file)
	}
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Catalog: cat})
	shop := s.fleet.Get(demostore.Shopify)
	body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute)
	if body["status"] != "completed" || num(field(body, "meta", "result", "listings_total")) != cat.Len() {
		t.Errorf("crawl: %v %v, want all %d products (%d of them in a collection)", body["status"], field(body, "meta", "result"), cat.Len(), len(inSome))
	}
}

func TestCrawlRules(t *testing.T) {
	s := newStack(t,
		demostore.Options{Kind: demostore.Shopify, Products: 2000, Faults: demostore.Faults{Latency: 200 * time.Millisecond}},
		demostore.Options{Kind: demostore.Shopify, Products: 100, Faults: demostore.Faults{BotWall: "/"}},
		demostore.Options{Kind: demostore.Shopify, Products: 100, Faults: demostore.Faults{BotWall: "/collections"}},
	)
	slow, walled, walledInside := s.fleet.Stores[0], s.fleet.Stores[1], s.fleet.Stores[2]

	t.Run("a second start returns the running crawl", func(t *testing.T) {
		id := s.startCrawl(slow.BaseURL)
		again := s.startCrawl("HTTP://" + strings.TrimPrefix(slow.BaseURL, "http://") + "/")
		if again != id {
			t.Errorf("second start %s, want the running %s", again, id)
		}
		r := s.do("POST", "/v1/crawl", map[string]any{"url": slow.BaseURL})
		if r.status != 200 || r.body["success"] != true || r.body["execution_id"] != id {
			t.Errorf("v1 start: %d %s", r.status, r.raw)
		}

		// Cancel stops fetching within 2 s and is recorded as the decisions say.
		deadline := time.Now().Add(10 * time.Second)
		for {
			body := s.do("GET", "/v2/crawl/"+id, nil).body
			if body["status"] != "running" && body["status"] != "pending" {
				t.Fatalf("the crawl ended before it could be canceled: %v", body["status"])
			}
			if num(field(body, "meta", "progress", "listings_found")) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("crawl never made progress")
			}
			time.Sleep(20 * time.Millisecond)
		}
		r = s.do("DELETE", "/v2/crawl/"+id, nil)
		if r.status != 200 || r.body["status"] != "canceled" || r.body["execution_id"] != id || r.body["stop_date"] == "" {
			t.Fatalf("cancel: %d %s", r.status, r.raw)
		}
		time.Sleep(2 * time.Second)
		before := slow.Stats().Requests
		time.Sleep(time.Second)
		if after := slow.Stats().Requests; after != before {
			t.Errorf("the store still got %d requests more than 2 s after the cancel", after-before)
		}
		body := s.do("GET", "/v2/crawl/"+id, nil).body
		if body["status"] != "failed" || body["error"] != "canceled" {
			t.Errorf("after cancel: %v %v", body["status"], body["error"])
		}
		if r := s.do("DELETE", "/v2/crawl/"+id, nil); r.status != 409 || field(r.body, "error", "code") != "EXECUTION_NOT_RUNNING" {
			t.Errorf("second cancel: %d %s", r.status, r.raw)
		}
	})

	// One running crawl per hostname holds across organizations: another organization's
	// start answers with the running crawl, which that organization may then follow (its
	// status and its lists) but not cancel; an organization that never asked for it still
	// gets 404.
	t.Run("another organization's start joins the running crawl", func(t *testing.T) {
		id := s.startCrawl(slow.BaseURL)
		joiner := s.keyOfNewOrganization(t, "joiner")
		r := s.call("POST", "/v2/crawl", map[string]any{"url": slow.BaseURL}, joiner)
		if r.status != 202 || r.body["execution_id"] != id || num(field(r.body, "meta", "credits_used")) != 0 {
			t.Fatalf("another organization's start: %d %s, want the running %s, free", r.status, r.raw, id)
		}
		if r := s.call("GET", "/v2/crawl/"+id, nil, joiner); r.status != 200 || r.body["execution_id"] != id {
			t.Errorf("the joined crawl's status: %d %s", r.status, r.raw)
		}
		if r := s.call("GET", "/v1/crawl/"+id, nil, joiner); r.status != 200 {
			t.Errorf("the joined crawl's v1 status: %d %s", r.status, r.raw)
		}
		for _, path := range []string{"/v1/crawl", "/v2/crawl"} {
			r := s.call("GET", path, nil, joiner)
			list, _ := r.body["executions"].([]any)
			if path == "/v2/crawl" {
				list, _ = r.body["data"].([]any)
			}
			if len(list) != 1 || list[0].(map[string]any)["execution_id"] != id {
				t.Errorf("%s of the organization that joined: %s", path, r.raw)
			}
		}
		r = s.call("POST", "/v2/extract", map[string]any{"vendor": "127.0.0.2", "crawl_id": id, "max_products": 1}, joiner)
		if r.status != 202 {
			t.Errorf("an extraction waiting for the joined crawl: %d %s", r.status, r.raw)
		}
		if r := s.call("DELETE", "/v2/crawl/"+id, nil, joiner); r.status != 403 || field(r.body, "error", "code") != "FORBIDDEN" {
			t.Errorf("cancel by the organization that joined: %d %s", r.status, r.raw)
		}
		stranger := s.keyOfNewOrganization(t, "stranger")
		if r := s.call("GET", "/v2/crawl/"+id, nil, stranger); r.status != 404 {
			t.Errorf("an organization that never asked for the crawl: %d", r.status)
		}
		if r := s.do("DELETE", "/v2/crawl/"+id, nil); r.status != 200 {
			t.Fatalf("cancel by its organization: %d %s", r.status, r.raw)
		}
		s.waitEnded("/v2/crawl/"+id, 10*time.Second)
	})

	t.Run("a bot wall fails the crawl with a clear error", func(t *testing.T) {
		id := s.startCrawl(walled.BaseURL)
		body := s.waitEnded("/v2/crawl/"+id, time.Minute)
		msg, _ := body["error"].(string)
		if body["status"] != "failed" || !strings.Contains(strings.ToLower(msg), "automated access") {
			t.Errorf("walled crawl: %v %q", body["status"], msg)
		}
		steps := field(body, "meta", "steps").([]any)
		if steps[0].(map[string]any)["status"] != "failed" || steps[3].(map[string]any)["status"] != "pending" {
			t.Errorf("steps of a crawl failed at the first: %v", steps)
		}
	})

	// Behind an open home page and sitemap, every collection is walled: the crawl fails
	// at the listing step, rather than completing with no listings, and asks the store
	// nothing more once it has met the wall.
	t.Run("a bot wall on the collections fails the crawl there", func(t *testing.T) {
		id := s.startCrawl(walledInside.BaseURL)
		body := s.waitEnded("/v2/crawl/"+id, time.Minute)
		msg, _ := body["error"].(string)
		if body["status"] != "failed" || !strings.Contains(msg, "/products.json?limit=250&page=1: automated access not permitted: Cloudflare answered 403") {
			t.Errorf("crawl walled inside: %v %q", body["status"], msg)
		}
		steps := field(body, "meta", "steps").([]any)
		if steps[2].(map[string]any)["status"] != "completed" || steps[3].(map[string]any)["status"] != "failed" {
			t.Errorf("steps of a crawl failed at the listing: %v", steps)
		}
		// /collections.json, then at most the collection pages already asked for when the
		// first wall answered, one per listing slot; not each collection, through each
		// adapter, as when a walled page was taken for an empty one.
		if walls := walledInside.Stats().Faulted; walls > 5 {
			t.Errorf("the store answered %d requests with its wall", walls)
		}
	})

	t.Run("addresses outside the allowlist are refused, never fetched", func(t *testing.T) {
		for _, target := range []string{"http://127.0.0.1:9", "http://[::1]:9", "http://169.254.169.254", "http://10.0.0.1", "http://0x7f.1"} {
			id := s.startCrawl(target)
			body := s.waitEnded("/v2/crawl/"+id, 30*time.Second)
			// The reason, with the URL said once (it once came as "fetch URL: fetch URL: ...").
			msg, _ := body["error"].(string)
			if body["status"] != "failed" || !strings.Contains(msg, "forbidden address") || strings.Count(msg, "fetch ") != 1 {
				t.Errorf("%s: %v %q", target, body["status"], msg)
			}
		}
	})

	t.Run("another organization's crawl is not found", func(t *testing.T) {
		id := s.startCrawl(walled.BaseURL)
		otherKey := s.keyOfNewOrganization(t, "other")
		for _, m := range []string{"GET", "DELETE"} {
			if r := s.call(m, "/v2/crawl/"+id, nil, otherKey); r.status != 404 {
				t.Errorf("%s by another organization: %d", m, r.status)
			}
		}
		if r := s.call("GET", "/v1/crawl/"+id, nil, otherKey); r.status != 404 {
			t.Errorf("v1 by another organization: %d", r.status)
		}
	})

	t.Run("bad starts", func(t *testing.T) {
		for _, c := range []struct {
			body any
			code string
		}{
			{map[string]any{}, "INVALID_REQUEST"},
			{map[string]any{"url": 42}, "INVALID_REQUEST"},
			{map[string]any{"url": "not a domain"}, "VALIDATION_ERROR"},
			{map[string]any{"url": "ftp://shop.example"}, "VALIDATION_ERROR"},
		} {
			if r := s.do("POST", "/v2/crawl", c.body); r.status != 400 || field(r.body, "error", "code") != c.code {
				t.Errorf("%v: %d %s", c.body, r.status, r.raw)
			}
		}
		if r := s.do("GET", "/v2/crawl?status=done", nil); r.status != 400 {
			t.Errorf("bad status filter: %d", r.status)
		}
	})

	t.Run("auto top-up is required", func(t *testing.T) {
		ctx := t.Context()
		if _, err := s.svc.access.EnsureOrganization(ctx, "frugal", 10, false); err != nil {
			t.Fatal(err)
		}
		_, key, _ := s.svc.access.IssueKey(ctx, "frugal", "k")
		r := s.call("POST", "/v2/crawl", map[string]any{"url": walled.BaseURL}, key)
		if r.status != 402 || field(r.body, "error", "code") != "AUTO_TOP_UP_REQUIRED" {
			t.Errorf("%d %s", r.status, r.raw)
		}
	})
}

func TestCrawlIsPolite(t *testing.T) {
	s := newStack(t,
		demostore.Options{Kind: demostore.Shopify, Products: 200, Faults: demostore.Faults{RobotsDisallow: []string{"/collections/sale"}}},
		demostore.Options{Kind: demostore.Shopify, Products: 200, Faults: demostore.Faults{RateLimit: demostore.RateLimit{Burst: 3, Every: 10, RetryAfter: time.Second}}},
	)
	robots, limited := s.fleet.Stores[0], s.fleet.Stores[1]

	id := s.startCrawl(robots.BaseURL)
	if body := s.waitEnded("/v2/crawl/"+id, time.Minute); body["status"] != "completed" {
		t.Fatalf("crawl with robots rules: %v", body)
	}
	if d := robots.Stats().Disallowed; d != 0 {
		t.Errorf("%d requests to paths robots.txt disallows", d)
	}

	id = s.startCrawl(limited.BaseURL)
	body := s.waitEnded("/v2/crawl/"+id, 2*time.Minute)
	if body["status"] != "completed" || num(field(body, "meta", "result", "listings_total")) != limited.Catalog().Len() {
		t.Errorf("crawl through 429s: %v %v", body["status"], field(body, "meta", "result"))
	}
	if n := limited.Stats().ByStatus[429]; n == 0 {
		t.Error("the store never answered 429: the test proves nothing")
	}
	// The crawl reports what it cost, as the store counted it.
	stats := limited.Stats()
	requests, _ := field(body, "meta", "requests").(map[string]any)
	if num(requests["total"]) != int(stats.Requests) || num(requests["robots"]) != int(stats.ByRoute[demostore.RouteRobots]) ||
		num(requests["retries"]) == 0 || num(requests["json"]) == 0 {
		t.Errorf("meta.requests %v; the store saw %d requests (%v by route, %v by status)", requests, stats.Requests, stats.ByRoute, stats.ByStatus)
	}
}
