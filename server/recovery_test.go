package server_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/storage/localdb"
	"github.com/stockroom/stockroom/storage/postgres"
)

// A Postgres restart must not need a restart of the API: the pool reconnects.
func TestAPIRecoversAfterPostgresRestarts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	// A private server: the shared one serves other packages' tests at the same time.
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pg, err := localdb.StartPostgres(ctx, filepath.Join(dir, "pg"), localdb.PostgresOptions{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop(context.Background()) })
	pool, err := postgres.Open(ctx, pg.URL, postgres.PoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, pool: pool}
	e.access = access.NewService(postgres.NewAccessStore(pool), access.ServiceOptions{CacheTTL: -1, Logger: logger})
	e.catalog = catalog.NewService(postgres.NewCatalogStore(pool))
	e.org, e.key = e.newOrg("acme")
	e.api = server.New(server.Deps{Access: e.access, Catalog: e.catalog, Logger: logger}, server.Options{})
	e.seedVendor("shop.example", 3)

	if r := e.do("GET", "/v2/listings?vendor=shop.example", nil); r.status != 200 {
		t.Fatalf("before restart: %d %s", r.status, r.body)
	}
	if err := pg.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	r := e.do("GET", "/v2/listings?vendor=shop.example", nil)
	if code, _ := errorOf(t, r); r.status != 503 || code != "SERVICE_UNAVAILABLE" {
		t.Errorf("while down: %d %s, want 503 SERVICE_UNAVAILABLE", r.status, r.body)
	}
	pg, err = localdb.StartPostgres(ctx, filepath.Join(dir, "pg"), localdb.PostgresOptions{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r = e.do("GET", "/v2/listings?vendor=shop.example", nil)
		if r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after restart: still %d %s", r.status, r.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if items, _ := listingEndpoints[1].page(t, r); len(items) != 3 {
		t.Errorf("after restart: %d listings, want 3", len(items))
	}
}
