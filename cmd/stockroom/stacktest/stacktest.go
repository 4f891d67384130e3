// Package stacktest starts a whole Stockroom service for the end-to-end tests of what
// calls it from outside: the API clients (clients/) and the command line. The service is
// wired as `stockroom serve` wires it, over fresh databases from storagetest, with a
// Shopify-like demo store on loopback that it may crawl, and one organization with
// credits, auto top-up and a key.
//
// A test package that uses it calls storagetest.Main from its TestMain.
package stacktest

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/cmd/stockroom/app"
	"github.com/stockroom/stockroom/configs"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// Stack is a running service and the demo store it can crawl.
type Stack struct {
	// URL is the API's base URL and Key an API key of an organization with a million
	// credits and auto top-up on.
	URL, Key string
	// Store is the demo store, with Options.Products products.
	Store *demostore.Running
}

// Options are the settings of Start.
type Options struct {
	// Products is the number of products of the demo store. Zero means 60.
	Products int
}

// Start starts the demo store and the service; both stop when t ends.
func Start(t testing.TB, opts Options) *Stack {
	t.Helper()
	if opts.Products == 0 {
		opts.Products = 60
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	fleet, err := demostore.Launch(ctx, demostore.Options{Kind: demostore.Shopify, Products: opts.Products})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	store := fleet.Get(demostore.Shopify)
	storeHost := strings.TrimPrefix(store.BaseURL, "http://")

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := l.Addr().String()
	l.Close()
	cfg, err := configs.Load("", []string{
		"DATABASE_URL=" + storagetest.NewPostgres(t),
		"CLICKHOUSE_URL=" + storagetest.NewClickHouse(t),
		"STOCKROOM_SERVER__ADDRESS=" + address,
		"STOCKROOM_USAGE__SPOOL_DIR=" + filepath.Join(t.TempDir(), "spool"),
		"STOCKROOM_ADAPTERS__CACHE_DIR=" + filepath.Join(os.TempDir(), "stockroom-test-adapter-cache"),
		"STOCKROOM_RATE_LIMIT__REQUESTS=0",
		"STOCKROOM_LOG__LEVEL=warn",
		// Metrics on a port of the system's choosing: never a fixed one another test holds.
		"STOCKROOM_METRICS__LISTEN=127.0.0.1:0",
		// The demo store is on loopback, which the fetcher refuses unless told, and is
		// ours, so it is fetched without politeness delays.
		"STOCKROOM_FETCH__ALLOW=" + storeHost,
		"STOCKROOM_FETCH__NO_DELAY_HOSTS=" + storeHost,
	})
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	svc, err := app.New(ctx, cfg, app.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	if err := svc.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Access().EnsureOrganization(ctx, "acme", 1_000_000, true); err != nil {
		t.Fatal(err)
	}
	_, key, err := svc.Access().IssueKey(ctx, "acme", "stacktest")
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	if err := svc.Start(runCtx); err != nil {
		stop()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stop()
		if err := svc.Wait(); err != nil {
			t.Logf("stop the service: %v", err)
		}
	})
	return &Stack{URL: "http://" + address, Key: key, Store: store}
}
