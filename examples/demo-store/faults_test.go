package demostore_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestSpecialProductURLs(t *testing.T) {
	fleet := start(t,
		demostore.Options{Kind: demostore.Shopify, Products: 30},
		demostore.Options{Kind: demostore.JSONLD, Products: 30},
		demostore.Options{Kind: demostore.HTML, Products: 30})
	for _, st := range fleet.Stores {
		prefix := strings.TrimSuffix(st.ProductPath(0), st.Catalog().Product(0).Handle)
		tests := []struct {
			handle   string
			status   int
			location string
			body     string
		}{
			{demostore.HandleMissing, 404, "", "Not Found"},
			{demostore.HandleHome, 302, st.URL("/"), ""},
			{demostore.HandleMoved, 301, st.URL(st.ProductPath(0)), ""},
			{demostore.HandleCategory, 200, "", st.URL(st.CategoryPath(st.Catalog().Collections()[0].Handle))},
		}
		for _, tt := range tests {
			resp, body := get(t, st.URL(prefix+tt.handle))
			if resp.StatusCode != tt.status || resp.Header.Get("Location") != tt.location || !strings.Contains(body, tt.body) {
				t.Errorf("%s %s: %s Location=%q", st.Kind(), tt.handle, resp.Status, resp.Header.Get("Location"))
			}
		}
		// The listing of special URLs names them all.
		var listed struct{ Faults []demostore.Fault }
		getJSON(t, st.URL("/_demo/faults.json"), &listed)
		if len(listed.Faults) != len(st.Faults()) || !strings.Contains(listed.Faults[0].Path, demostore.HandleMissing) {
			t.Errorf("%s: faults.json lists %v", st.Kind(), listed.Faults)
		}
	}
	shop := fleet.Get(demostore.Shopify)
	if resp, _ := get(t, shop.URL("/products/"+demostore.HandleMoved+".json")); resp.Header.Get("Location") != shop.URL(shop.ProductPath(0)+".json") {
		t.Errorf("moved .json redirects to %q", resp.Header.Get("Location"))
	}
}

func TestSlowProductTimesOutClients(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.HTML, Products: 5, Faults: demostore.Faults{SlowDelay: 300 * time.Millisecond}}).Get(demostore.HTML)
	client := &http.Client{Timeout: 50 * time.Millisecond}
	if _, err := client.Get(st.URL("/item/" + demostore.HandleSlow)); err == nil {
		t.Fatal("slow page answered within 50ms")
	}
	began := time.Now()
	body := getOK(t, st.URL("/item/"+demostore.HandleSlow))
	if time.Since(began) < 300*time.Millisecond || !strings.Contains(body, st.Catalog().Product(0).Title) {
		t.Errorf("slow page took %v", time.Since(began))
	}
}

func TestQueryFaults(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Shopify, Products: 5}).Get(demostore.Shopify)
	tests := []struct {
		query  string
		status int
		header string
	}{
		{"_fault=429", 429, "Retry-After"},
		{"_fault=503", 503, "Retry-After"},
		{"_fault=500", 500, ""},
		{"_fault=botwall", 403, "Cf-Mitigated"},
	}
	for _, tt := range tests {
		resp, body := get(t, st.URL("/products.json?"+tt.query))
		if resp.StatusCode != tt.status || (tt.header != "" && resp.Header.Get(tt.header) == "") {
			t.Errorf("%s: %s %v", tt.query, resp.Status, resp.Header)
		}
		if tt.query == "_fault=botwall" && (!strings.Contains(body, "Just a moment...") || resp.Header.Get("Cf-Mitigated") != "challenge") {
			t.Errorf("bot wall page: %s", body)
		}
	}
	began := time.Now()
	getOK(t, st.URL("/products.json?_delay=150ms"))
	if time.Since(began) < 150*time.Millisecond {
		t.Errorf("_delay=150ms answered in %v", time.Since(began))
	}
	if got := st.Stats().Faulted; got != 4 {
		t.Errorf("Stats.Faulted = %d, want 4", got)
	}
}

func TestRateLimitBursts(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.JSONLD, Products: 5,
		Faults: demostore.Faults{RateLimit: demostore.RateLimit{Burst: 2, Every: 3, RetryAfter: 2 * time.Second}}}).Get(demostore.JSONLD)
	var got []int
	for range 10 {
		resp, _ := get(t, st.URL("/"))
		got = append(got, resp.StatusCode)
		if resp.StatusCode == 429 && resp.Header.Get("Retry-After") != "2" {
			t.Errorf("Retry-After = %q", resp.Header.Get("Retry-After"))
		}
	}
	want := []int{200, 200, 200, 429, 429, 200, 200, 200, 429, 429}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("statuses %v, want %v", got, want)
		}
	}
	if st.Stats().ByStatus[429] != 4 {
		t.Errorf("Stats.ByStatus = %v", st.Stats().ByStatus)
	}
	// /_demo/ is never faulted.
	getOK(t, st.URL("/_demo/stats.json"))
	getOK(t, st.URL("/_demo/stats.json"))
}

func TestErrorRateIsExact(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.HTML, Products: 5, Faults: demostore.Faults{ErrorRate: 0.25}}).Get(demostore.HTML)
	failed := 0
	for range 40 {
		if resp, _ := get(t, st.URL("/")); resp.StatusCode >= 500 {
			failed++
		}
	}
	if failed != 10 {
		t.Errorf("%d of 40 requests failed, want 10", failed)
	}
}

func TestBotWallOnAPrefix(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Shopify, Products: 5, Faults: demostore.Faults{BotWall: "/collections/"}}).Get(demostore.Shopify)
	if resp, body := get(t, st.URL("/collections/apparel")); resp.StatusCode != 403 || resp.Header.Get("Cf-Mitigated") != "challenge" ||
		resp.Header.Get("Server") != "cloudflare" || !strings.Contains(body, "<title>Just a moment...</title>") {
		t.Errorf("walled page: %s %v", resp.Status, resp.Header)
	}
	getOK(t, st.URL("/products.json"))
}

func TestRobotsDisallowIsAnnouncedAndCounted(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Shopify, Products: 50,
		Faults: demostore.Faults{RobotsDisallow: []string{"/collections/sale"}}}).Get(demostore.Shopify)
	if robots := getOK(t, st.URL("/robots.txt")); !strings.Contains(robots, "Disallow: /collections/sale\n") {
		t.Errorf("robots.txt:\n%s", robots)
	}
	getOK(t, st.URL("/collections/apparel"))
	getOK(t, st.URL("/collections/sale"))
	getOK(t, st.URL("/collections/sale/products.json"))
	if got := st.Stats().Disallowed; got != 2 {
		t.Errorf("Stats.Disallowed = %d, want 2", got)
	}
}

func TestLatencyIsAdded(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.HTML, Products: 5, Faults: demostore.Faults{Latency: 80 * time.Millisecond}}).Get(demostore.HTML)
	began := time.Now()
	getOK(t, st.URL("/"))
	if d := time.Since(began); d < 80*time.Millisecond {
		t.Errorf("answered in %v", d)
	}
}

func TestStatsCountRoutesAndProducts(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Shopify, Products: 100}).Get(demostore.Shopify)
	getOK(t, st.URL("/products.json?limit=10"))
	getOK(t, st.URL(st.ProductPath(50)))
	getOK(t, st.URL(st.ProductPath(50)+".js"))
	getOK(t, st.URL("/sitemap.xml"))
	get(t, st.URL("/nowhere"))
	s := st.Stats()
	want := map[demostore.Route]int64{demostore.RouteProductsJSON: 1, demostore.RouteProductPage: 1,
		demostore.RouteProductJS: 1, demostore.RouteSitemap: 1, demostore.RouteOther: 1}
	for r, n := range want {
		if s.ByRoute[r] != n {
			t.Errorf("ByRoute[%s] = %d, want %d", r, s.ByRoute[r], n)
		}
	}
	if s.Requests != 5 || s.ProductsSeen != 11 || s.ByStatus[404] != 1 {
		t.Errorf("stats %+v", s)
	}
	var js map[string]any
	getJSON(t, st.URL("/_demo/stats.json"), &js)
	// The requests came one at a time.
	if js["products_seen"].(float64) != 11 || js["max_in_flight"].(float64) != 1 {
		t.Errorf("stats.json: %v", js)
	}
	st.ResetStats()
	if s := st.Stats(); s.Requests != 0 || s.ProductsSeen != 0 {
		t.Errorf("after reset: %+v", s)
	}
}

func TestStoresStopWithTheirContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	fleet, err := demostore.Launch(ctx, demostore.Options{Kind: demostore.HTML, Products: 3})
	if err != nil {
		t.Fatal(err)
	}
	url := fleet.Stores[0].URL("/")
	getOK(t, url)
	cancel()
	deadline := time.Now().Add(2 * time.Second)
	for {
		resp, err := http.Get(url)
		if err != nil {
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("store still answers after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOnlyLoopbackAddresses(t *testing.T) {
	if _, err := demostore.Launch(t.Context(), demostore.Options{Kind: demostore.HTML, Addr: "0.0.0.0:0"}); err == nil {
		t.Fatal("Launch listened on 0.0.0.0")
	}

}

func TestWWWRedirectsOtherHostNames(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.HTML, Products: 5, Faults: demostore.Faults{WWW: true}}).Get(demostore.HTML)
	port := st.BaseURL[strings.LastIndexByte(st.BaseURL, ':'):]
	req, _ := http.NewRequest("GET", st.URL("/?page=2"), nil)
	req.Host = "shop.test" + port
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "http://www.shop.test" + port + "/?page=2"; resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
		t.Errorf("bare domain: %s to %q, want 301 to %q", resp.Status, resp.Header.Get("Location"), want)
	}
	req.Host = "www.shop.test" + port
	if resp, err = noRedirects.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("www.: %s, want 200", resp.Status)
	}
}
