package app

import (
	"net/url"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestAffiliateNetworkFromConfigurationToEveryFace(t *testing.T) {
	// The network covers the Shopify store, not the HTML one; both are crawled.
	s := newStackWith(t, []string{
		"STOCKROOM_AFFILIATE__TEMPLATE=https://go.network.example/?pub=7&dc={vendor}&url={url_encoded}",
		"STOCKROOM_AFFILIATE__VENDORS=" + demostore.DefaultHost(demostore.Shopify),
	}, demostore.Options{Kind: demostore.Shopify, Products: 30}, demostore.Options{Kind: demostore.HTML, Products: 30})
	shop, html := s.fleet.Get(demostore.Shopify), s.fleet.Get(demostore.HTML)
	for _, st := range []*demostore.Running{shop, html} {
		if body := s.waitEnded("/v2/crawl/"+s.startCrawl(st.BaseURL), time.Minute); body["status"] != "completed" {
			t.Fatalf("crawl of %s: %v", st.BaseURL, body)
		}
	}

	inNetwork := map[string]bool{hostOf(shop.BaseURL): true, hostOf(html.BaseURL): false}
	for _, path := range []string{"/v1/vendors", "/v2/vendors", "/api/vendors"} {
		r := s.do("GET", path, nil)
		list := objects(r.body["data"])
		if path == "/api/vendors" {
			list = objects(r.body["vendors"])
		}
		if len(list) != len(inNetwork) {
			t.Fatalf("%s: %s", path, r.raw)
		}
		for _, v := range list {
			if want := inNetwork[v["vendor"].(string)]; v["in_affiliate_network"] != want {
				t.Errorf("%s: %v in_affiliate_network %v, want %v", path, v["vendor"], v["in_affiliate_network"], want)
			}
		}
	}

	// A listing of each store, as a client would take it from the catalog.
	listingOf := func(st *demostore.Running) string {
		r := s.do("GET", "/v2/listings?page_size=1&vendor="+hostOf(st.BaseURL), nil)
		list := objects(r.body["data"])
		if len(list) != 1 {
			t.Fatalf("listings of %s: %s", st.BaseURL, r.raw)
		}
		return list[0]["url"].(string)
	}
	inside, outside := listingOf(shop), listingOf(html)
	for _, path := range []string{"/v1/affiliate", "/v2/affiliate"} {
		r := s.do("POST", path, map[string]any{"urls": []string{inside, outside}})
		items := objects(r.body["results"])
		if path == "/v2/affiliate" {
			items = objects(r.body["data"])
		}
		if r.status != 200 || len(items) != 2 {
			t.Fatalf("%s: %d %s", path, r.status, r.raw)
		}
		want := "https://go.network.example/?pub=7&dc=" + hostOf(shop.BaseURL) + "&url=" + url.QueryEscape(inside)
		if items[0]["success"] != true || items[0]["affiliate_link"] != want || items[0]["original_url"] != inside {
			t.Errorf("%s: link of a listing in the network: %v, want %s", path, items[0], want)
		}
		if items[1]["success"] != false || items[1]["affiliate_link"] != nil || items[1]["error"] == nil {
			t.Errorf("%s: link of a listing outside: %v", path, items[1])
		}
	}

	// Usage counts both paths under their own names.
	deadline := time.Now().Add(time.Minute)
	for {
		calls := map[string]int{}
		for _, it := range objects(s.do("GET", "/v2/usage?period=24h&page_size=100", nil).body["data"]) {
			calls[it["path"].(string)] = num(it["total_calls"])
		}
		if calls["/v1/affiliate"] == 1 && calls["/v2/affiliate"] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage: %v, want one call of /v1/affiliate and of /v2/affiliate", calls)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
