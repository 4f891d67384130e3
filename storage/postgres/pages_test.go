package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
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
	// The caller's headers are part of what a page is kept under.
	asJSON := http.Header{"Accept": {"application/json"}}
	first := map[string][]byte{}
	for _, u := range urls {
		resp, err := process().Fetch(ctx, &fetch.Request{URL: u, Header: asJSON})
		if err != nil || resp.Status != http.StatusOK || resp.Revalidated {
			t.Fatalf("first fetch of %s: %v %+v", u, err, resp)
		}
		first[u] = resp.Body
	}
	shop.ResetStats()
	meter := &fetch.Meter{}
	later := process()
	for _, u := range urls {
		resp, err := later.Fetch(fetch.WithMeter(ctx, meter), &fetch.Request{URL: u, Header: asJSON})
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
		if err := pages.SavePage(ctx, key, fetch.StoredPage{Status: 200, Header: http.Header{}, Body: body, ETag: `"1"`, Digest: fetch.BodyDigest(body)}); err != nil {
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
	confirmed := fetch.StoredPage{Status: 200, Header: http.Header{}, ETag: `"1"`, Digest: fetch.BodyDigest(body)}
	if err := pages.RevalidatePage(ctx, "http://shop.test/b", confirmed); err != nil {
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

// A host that sends a page whole again, unchanged but for its ETag (a store whose tags
// change with every answer), has the stored page confirmed, not written again; a changed
// page is stored anew. The stored page is the fetcher's only copy: removed from the store,
// the page is asked for unconditionally.
func TestAPageSentAgainUnchangedIsNotStoredAgain(t *testing.T) {
	ctx := context.Background()
	pool := migrated(t)
	var mu sync.Mutex
	version, body := 1, "<p>price 10</p>"
	var conditional []bool
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/p" {
			http.NotFound(w, r) // robots.txt: none
			return
		}
		mu.Lock()
		defer mu.Unlock()
		conditional = append(conditional, r.Header.Get("If-None-Match") != "")
		version++
		w.Header().Set("ETag", fmt.Sprintf(`"%d"`, version))
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(site.Close)
	f, err := fetch.New(fetch.Options{Allow: []string{"127.0.0.0/8"}, Delay: -1, Pages: postgres.NewPageStore(pool), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.CloseIdleConnections)
	u := site.URL + "/p"
	type row struct {
		etag, body    string
		fetched, used time.Time
	}
	stored := func() (r row) {
		t.Helper()
		err := pool.QueryRow(ctx, `SELECT etag, convert_from(body, 'UTF8'), fetched_at, used_at FROM fetched_pages WHERE key = $1`, u).
			Scan(&r.etag, &r.body, &r.fetched, &r.used)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fetchPage := func(want string) {
		t.Helper()
		resp, err := f.Fetch(ctx, &fetch.Request{URL: u})
		if err != nil || resp.Status != http.StatusOK || string(resp.Body) != want {
			t.Fatalf("Fetch = %v, %+v; want 200 %q", err, resp, want)
		}
	}

	fetchPage("<p>price 10</p>")
	first := stored()
	fetchPage("<p>price 10</p>")
	same := stored()
	if same.etag != `"3"` || !same.fetched.Equal(first.fetched) || !same.used.After(first.used) {
		t.Errorf("after the same body again: etag %s, fetched_at %v (was %v), used_at %v (was %v); want the new ETag, the page confirmed, not stored again",
			same.etag, same.fetched, first.fetched, same.used, first.used)
	}
	mu.Lock()
	body = "<p>price 12</p>"
	mu.Unlock()
	fetchPage("<p>price 12</p>")
	if changed := stored(); changed.body != "<p>price 12</p>" || !changed.fetched.After(first.fetched) {
		t.Errorf("after a changed body: stored %q fetched at %v; want the new body stored anew", changed.body, changed.fetched)
	}
	if _, err := pool.Exec(ctx, `DELETE FROM fetched_pages`); err != nil {
		t.Fatal(err)
	}
	fetchPage("<p>price 12</p>")
	mu.Lock()
	defer mu.Unlock()
	if want := []bool{false, true, true, false}; !slices.Equal(conditional, want) {
		t.Errorf("conditional requests %v; want %v: each once a page was stored, none once the store lost it", conditional, want)
	}
}

// A page is read back as it was stored, its digest whole: every one of its 64 bits is the
// digest's, the highest included.
func TestAStoredPageReadsBackAsStored(t *testing.T) {
	ctx := context.Background()
	pages := postgres.NewPageStore(migrated(t))
	want := fetch.StoredPage{Status: 200, Header: http.Header{"Etag": {`"7"`}}, Body: []byte("page"), ETag: `"7"`, LastModified: "Wed, 21 Oct 2015 07:28:00 GMT", Digest: 1<<63 | 5}
	if err := pages.SavePage(ctx, "http://shop.test/p", want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := pages.Page(ctx, "http://shop.test/p")
	if err != nil || !ok || got.Digest != want.Digest || got.Status != want.Status || !bytes.Equal(got.Body, want.Body) ||
		got.ETag != want.ETag || got.LastModified != want.LastModified || got.Header.Get("ETag") != `"7"` {
		t.Errorf("Page = %+v, %v, %v; want %+v", got, ok, err, want)
	}
}
