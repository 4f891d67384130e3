package app

import (
	"context"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A recrawl by another process (a service started anew on the same database) of an
// unchanged store asks for every document only whether it changed, robots.txt included,
// and reads robots.txt once: the sitemap reader is handed the copy the fetcher obeys.
func TestRecrawlByAnotherProcessAsksRobotsTxtConditionally(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	fleet, err := demostore.Launch(ctx, demostore.Options{Kind: demostore.JSONLD, Products: 60})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	shop := fleet.Get(demostore.JSONLD)
	settings := fetchSettings(fleet)
	crawl := func(s *stack) map[string]any {
		t.Helper()
		body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute)
		if body["status"] != "completed" {
			t.Fatalf("crawl: %v", body)
		}
		return body
	}

	base, key, first, stopFirst := startService(ctx, t, nil, settings...)
	crawl(&stack{t: t, base: base, key: key, svc: first})
	if robots := shop.Stats().ByRoute[demostore.RouteRobots]; robots != 1 {
		t.Errorf("the first crawl read robots.txt %d times; want once", robots)
	}
	stopFirst()

	shop.ResetStats()
	base, key, _, _ = startService(ctx, t, nil, append(settings, "STOCKROOM_DATABASE__URL="+first.cfg.Database.URL)...)
	body := crawl(&stack{t: t, base: base, key: key})
	st := shop.Stats()
	if st.ByRoute[demostore.RouteRobots] != 1 || st.Conditional != st.Requests || st.ByStatus[304] != st.Requests {
		t.Errorf("recrawl: the store saw %d requests (%d for robots.txt), %d conditional, %d answered 304; want robots.txt once, every request conditional and answered 304",
			st.Requests, st.ByRoute[demostore.RouteRobots], st.Conditional, st.ByStatus[304])
	}
	requests, _ := field(body, "meta", "requests").(map[string]any)
	if num(requests["robots"]) != 1 || num(requests["conditional"]) != num(requests["total"]) || num(requests["not_modified"]) != num(requests["total"]) {
		t.Errorf("recrawl: meta.requests %v; want one robots.txt request, every request conditional and answered 304", requests)
	}
}
