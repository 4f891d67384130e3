package jobs_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
)

// A queue given the page cache's settings prunes the stored pages as soon as it starts:
// the page unused for longer than MaxAge goes, the one used recently stays.
func TestQueuePrunesStalePagesOnStart(t *testing.T) {
	ctx := context.Background()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{})
	pages := postgres.NewPageStore(pool)
	for _, key := range []string{"http://shop.test/stale", "http://shop.test/fresh"} {
		if err := pages.SavePage(ctx, key, fetch.StoredPage{Status: 200, Header: http.Header{}, Body: []byte("page"), ETag: `"1"`}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `UPDATE fetched_pages SET used_at = now() - interval '4 days' WHERE key = 'http://shop.test/stale'`); err != nil {
		t.Fatal(err)
	}
	queue, err := jobs.New(pool, nil, jobs.Options{PageCache: &jobs.PageCacheOptions{Store: pages, MaxAge: 72 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	if err := queue.StartWorking(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = queue.Stop(ctx) })
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, stale, err := pages.Page(ctx, "http://shop.test/stale")
		if err != nil {
			t.Fatal(err)
		}
		if !stale {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stale page is still stored 30 s after the queue started")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, fresh, err := pages.Page(ctx, "http://shop.test/fresh"); !fresh || err != nil {
		t.Errorf("the page used now was pruned: %v %v", fresh, err)
	}
}
