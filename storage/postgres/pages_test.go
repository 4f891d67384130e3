package postgres_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stockroom/stockroom/core/fetch"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/postgres"
)

// A page read by one process is asked for conditionally by the next one, which knows
// nothing of it but what Postgres keeps, and answered 304 it reuses the stored page.
func TestStoredPagesMakeTheNextProcessAskConditionally(t *testing.T) {
	ctx := context.Background()
	pages := postgres.NewPageStore(migrated(t))
	shop, err := demostore.New(demostore.Options{Kind: demostore.Shopify, Products: 30})
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := shop.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	process := func() *fetch.Fetcher {
		f, err := fetch.New(fetch.Options{Allow: []string{"127.0.0.0/8"}, Delay: -1, Pages: pages, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.CloseIdleConnections)
		return f
	}
	urls := []string{base + "/products.json?limit=250&page=1", base + shop.ProductPath(2)}
	first := map[string][]byte{}
	for _, u := range urls {
		resp, err := process().Fetch(ctx, &fetch.Request{URL: u})
		if err != nil || resp.Status != http.StatusOK || resp.Revalidated {
			t.Fatalf("first fetch of %s: %v %+v", u, err, resp)
		}
		first[u] = resp.Body
	}
	shop.ResetStats()
	meter := &fetch.Meter{}
	later := process()
	for _, u := range urls {
		resp, err := later.Fetch(fetch.WithMeter(ctx, meter), &fetch.Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Revalidated || resp.Status != http.StatusOK || !bytes.Equal(resp.Body, first[u]) {
			t.Errorf("%s: revalidated %v, status %d, same body %v; want the stored page reused", u, resp.Revalidated, resp.Status, bytes.Equal(resp.Body, first[u]))
		}
	}
	// robots.txt too: the later process reads it again, and asks only whether it changed.
	st := shop.Stats()
	if st.ByRoute[demostore.RouteRobots] != 1 || st.Conditional != st.Requests || st.ByStatus[http.StatusNotModified] != st.Requests {
		t.Errorf("the store saw %d requests (%d for robots.txt), %d conditional, %d answered 304; want robots.txt once, all conditional and 304",
			st.Requests, st.ByRoute[demostore.RouteRobots], st.Conditional, st.ByStatus[http.StatusNotModified])
	}
	if r := meter.Requests(); r.Conditional != 3 || r.NotModified != 3 || r.Robots != 1 || r.JSON != 1 || r.Pages != 1 {
		t.Errorf("meter %+v; want 3 conditional requests answered 304: robots.txt, one JSON and one page", r)
	}
}

// Pruning deletes the pages no fetch has used within the age, then the least recently
// used until the rest fit the size budget; a page confirmed by a 304 (touched) counts as
// used then.
func TestPruneKeepsTheRecentlyUsedPagesWithinTheBudget(t *testing.T) {
	ctx := context.Background()
	pool := migrated(t)
	pages := postgres.NewPageStore(pool)
	body := bytes.Repeat([]byte("x"), 1000)
	for _, key := range []string{"http://shop.test/a", "http://shop.test/b", "http://shop.test/c", "http://shop.test/d"} {
		if err := pages.SavePage(ctx, key, fetch.StoredPage{Status: 200, Header: http.Header{}, Body: body, ETag: `"1"`}); err != nil {
			t.Fatal(err)
		}
	}
	// a was stored long ago; b too, but a recrawl has just had it confirmed; c is a day
	// old, d new.
	age := func(key, ago string) {
		if _, err := pool.Exec(ctx, `UPDATE fetched_pages SET used_at = now() - $2::interval WHERE key = $1`, key, ago); err != nil {
			t.Fatal(err)
		}
	}
	age("http://shop.test/a", "10 days")
	age("http://shop.test/b", "10 days")
	age("http://shop.test/c", "1 day")
	if err := pages.TouchPage(ctx, "http://shop.test/b"); err != nil {
		t.Fatal(err)
	}
	stored := func() []string {
		rows, err := pool.Query(ctx, `SELECT key FROM fetched_pages ORDER BY key`)
		if err != nil {
			t.Fatal(err)
		}
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return keys
	}

	n, err := pages.Prune(ctx, time.Now().Add(-72*time.Hour), 0)
	if err != nil || n != 1 {
		t.Fatalf("Prune by age: %d deleted, %v; want 1", n, err)
	}
	if got := stored(); !slices.Equal(got, []string{"http://shop.test/b", "http://shop.test/c", "http://shop.test/d"}) {
		t.Errorf("after pruning by age: %v; want a gone, the touched b kept", got)
	}
	// Room for two pages: c, the least recently used, goes.
	n, err = pages.Prune(ctx, time.Now().Add(-72*time.Hour), 2*int64(len(body)+len("http://shop.test/b")))
	if err != nil || n != 1 {
		t.Fatalf("Prune by size: %d deleted, %v; want 1", n, err)
	}
	if got := stored(); !slices.Equal(got, []string{"http://shop.test/b", "http://shop.test/d"}) {
		t.Errorf("after pruning by size: %v; want b and d, the most recently used", got)
	}
	if _, ok, err := pages.Page(ctx, "http://shop.test/c"); ok || err != nil {
		t.Errorf("a pruned page is still read: %v %v", ok, err)
	}
}
