package postgres_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"testing"

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
	st := shop.Stats()
	pagesAsked := st.Requests - st.ByRoute[demostore.RouteRobots]
	if st.Conditional != pagesAsked || st.ByStatus[http.StatusNotModified] != pagesAsked {
		t.Errorf("the store saw %d page requests, %d conditional, %d answered 304; want all conditional and 304", pagesAsked, st.Conditional, st.ByStatus[http.StatusNotModified])
	}
	if r := meter.Requests(); r.Conditional != 2 || r.NotModified != 2 || r.JSON != 1 || r.Pages != 1 {
		t.Errorf("meter %+v; want 2 conditional requests answered 304, one JSON and one page", r)
	}
}
