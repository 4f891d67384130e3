package app

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Two servers on one Postgres share the crawls: with one crawl worker each, two crawls
// started through one of them run at once, one in each; a start of a running crawl
// through the other returns the running crawl; no store sees more requests at once than
// one crawl makes; both end with the stores' exact catalogs, readable through either; and
// a cancel through either server stops its crawl within 2 s, wherever the crawl runs.
func TestServersOnOneDatabaseShareTheCrawls(t *testing.T) {
	const perHost = 2
	settings := []string{"STOCKROOM_JOBS__WORKERS=1", "STOCKROOM_FETCH__MAX_CONCURRENT_PER_HOST=" + strconv.Itoa(perHost)}
	// Slow stores, so that each crawl lasts long enough to be seen running beside the other.
	slow := demostore.Faults{Latency: 250 * time.Millisecond}
	// Slower still for the crawls to cancel: each must still be fetching well after its cancel.
	slower := demostore.Faults{Latency: 400 * time.Millisecond}
	a := newStackWith(t, settings,
		demostore.Options{Kind: demostore.Shopify, Products: 480, Faults: slow},
		demostore.Options{Kind: demostore.Shopify, Products: 360, Faults: slow},
		demostore.Options{Kind: demostore.Shopify, Products: 3000, Faults: slower},
		demostore.Options{Kind: demostore.Shopify, Products: 3000, Faults: slower},
	)
	dbURL := a.svc.cfg.Database.URL
	baseB, keyB, _ := serve(t.Context(), t, append(append(fetchSettings(a.fleet), settings...),
		"DATABASE_URL="+dbURL,
		"CLICKHOUSE_URL="+a.svc.cfg.ClickHouse.URL,
	)...)
	b := &stack{t: t, base: baseB, key: keyB, fleet: a.fleet}

	first, second, third, fourth := a.fleet.Stores[0], a.fleet.Stores[1], a.fleet.Stores[2], a.fleet.Stores[3]
	ids := []string{a.startCrawl(first.BaseURL), a.startCrawl(second.BaseURL)}
	if again := b.startCrawl(first.BaseURL); again != ids[0] {
		t.Errorf("a start through the other server: %s, want the running %s", again, ids[0])
	}

	owners := leaseOwnersWhileBothRun(t, dbURL, ids)
	if owners[0] == owners[1] {
		t.Errorf("both crawls ran in one server (%s), which has one worker", owners[0])
	}

	for i, st := range []*demostore.Running{first, second} {
		body := b.waitEnded("/v2/crawl/"+ids[i], 2*time.Minute)
		if body["status"] != "completed" {
			t.Fatalf("crawl of %s: %v %v", st.BaseURL, body["status"], body["error"])
		}
		want := st.Catalog().Len()
		if got := num(field(body, "meta", "result", "listings_total")); got != want {
			t.Errorf("%s: listings_total %d, want %d", st.BaseURL, got, want)
		}
		for _, s := range []*stack{a, b} {
			r := s.do("GET", "/v2/listings?page_size=1&vendor="+hostOf(st.BaseURL), nil)
			if got := num(field(r.body, "pagination", "total_items")); got != want {
				t.Errorf("%s through %s: %d listings, want %d", st.BaseURL, s.base, got, want)
			}
		}
		if n := st.Stats().MaxInFlight; n > perHost {
			t.Errorf("%s answered %d requests at once; one crawl makes at most %d", st.BaseURL, n, perHost)
		}
	}

	// Two more crawls, again one in each server; each is canceled through a different
	// server, so one of the cancels reaches the crawl through the server not running it.
	ids = []string{a.startCrawl(third.BaseURL), a.startCrawl(fourth.BaseURL)}
	if owners := leaseOwnersWhileBothRun(t, dbURL, ids); owners[0] == owners[1] {
		t.Fatalf("both crawls ran in one server (%s), which has one worker", owners[0])
	}
	for i, s := range []*stack{a, b} {
		if r := s.do("DELETE", "/v2/crawl/"+ids[i], nil); r.status != 200 || r.body["status"] != "canceled" {
			t.Fatalf("cancel of %s through %s: %d %s", ids[i], s.base, r.status, r.raw)
		}
	}
	time.Sleep(2 * time.Second)
	before := []int64{third.Stats().Requests, fourth.Stats().Requests}
	time.Sleep(time.Second)
	for i, st := range []*demostore.Running{third, fourth} {
		if after := st.Stats().Requests; after != before[i] {
			t.Errorf("%s still got %d requests more than 2 s after its crawl was canceled", st.BaseURL, after-before[i])
		}
		if body := a.do("GET", "/v2/crawl/"+ids[i], nil).body; body["status"] != "failed" || body["error"] != "canceled" {
			t.Errorf("canceled crawl of %s: %v %v", st.BaseURL, body["status"], body["error"])
		}
	}
}

// leaseOwnersWhileBothRun waits until every execution of ids is running under a lease at
// the same moment, and returns their lease owners, read in one query.
func leaseOwnersWhileBothRun(t *testing.T, dbURL string, ids []string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	most := 0 // the most seen running at once
	for {
		owners := make([]string, len(ids))
		rows, err := conn.Query(ctx, `SELECT id, lease_owner FROM executions
			WHERE id = ANY($1) AND status = 'running' AND lease_owner IS NOT NULL`, ids)
		if err != nil {
			t.Fatal(err)
		}
		running := 0
		for rows.Next() {
			var id, owner string
			if err := rows.Scan(&id, &owner); err != nil {
				t.Fatal(err)
			}
			for i := range ids {
				if ids[i] == id {
					owners[i] = owner
					running++
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if running == len(ids) {
			return owners
		}
		most = max(most, running)
		select {
		case <-ctx.Done():
			t.Fatalf("the crawls were never all running at once (at most %d of %d)", most, len(ids))
		case <-time.After(20 * time.Millisecond):
		}
	}
}
