package app

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// A crawl whose server is killed (SIGKILL) is resumed by the next server and ends with the
// same catalog as a crawl that ran straight through.
func TestCrawlSurvivesSIGKILLOfItsServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the real binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	fleet, err := demostore.Launch(ctx, demostore.Options{Kind: demostore.Shopify, Products: 1500, PageSize: 24,
		Faults: demostore.Faults{Latency: 150 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer fleet.Stop()
	shop := fleet.Stores[0]
	storeHost := strings.TrimPrefix(shop.BaseURL, "http://")

	bin := filepath.Join(t.TempDir(), "stockroom")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/stockroom/stockroom/cmd/stockroom")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	address := l.Addr().String()
	l.Close()
	dbURL := storagetest.NewPostgres(t)
	env := append(os.Environ(),
		"DATABASE_URL="+dbURL,
		"CLICKHOUSE_URL="+storagetest.NewClickHouse(t),
		"STOCKROOM_SERVER__ADDRESS="+address,
		"STOCKROOM_ADAPTERS__CACHE_DIR="+adapterCache(),
		"STOCKROOM_FETCH__ALLOW="+storeHost,
		"STOCKROOM_FETCH__NO_DELAY_HOSTS="+storeHost,
		"STOCKROOM_JOBS__REPORT_EVERY=250ms",
		"STOCKROOM_JOBS__LEASE_TTL=2s",
		"STOCKROOM_CRAWL__COLLECTIONS=1",
		"STOCKROOM_LOG__LEVEL=warn",
		// Metrics on a port of the system's choosing: never a fixed one another run may hold.
		"STOCKROOM_METRICS__LISTEN=127.0.0.1:0",
	)
	spool := t.TempDir()
	serve := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, bin, "serve", "--migrate")
		cmd.Env = append(env, "STOCKROOM_USAGE__SPOOL_DIR="+filepath.Join(spool, time.Now().Format("150405.000")))
		cmd.Stderr = os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}

	first := serve()
	s := &stack{t: t, base: "http://" + address, fleet: fleet}
	waitUp(t, address)
	// Keys are made by the admin command, against the same database.
	admin := exec.CommandContext(ctx, bin, "orgs", "create", "--name", "acme", "--credits", "100", "--auto-top-up", "on")
	admin.Env = env
	if out, err := admin.CombinedOutput(); err != nil {
		t.Fatalf("orgs create: %v\n%s", err, out)
	}
	keys := exec.CommandContext(ctx, bin, "keys", "create", "--org", "acme")
	keys.Env = env
	out, err := keys.Output()
	if err != nil {
		t.Fatalf("keys create: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	s.key = lines[len(lines)-1]

	id := s.startCrawl(shop.BaseURL)
	deadline := time.Now().Add(time.Minute)
	for num(field(s.do("GET", "/v2/crawl/"+id, nil).body, "meta", "progress", "listings_found")) < 100 {
		if time.Now().After(deadline) {
			t.Fatal("no progress before the kill")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	// The kill must have landed mid-crawl, or this test proves nothing.
	if status := statusInDatabase(t, dbURL, id); status != "running" {
		t.Fatalf("the crawl was %s at the kill; it must be running (slow the store down)", status)
	}

	serve()
	waitUp(t, address)
	body := s.waitEnded("/v2/crawl/"+id, 3*time.Minute)
	if body["status"] != "completed" {
		t.Fatalf("resumed crawl: %v %v", body["status"], body["error"])
	}
	cat := shop.Catalog()
	if got := num(field(body, "meta", "result", "listings_total")); got != cat.Len() {
		t.Errorf("listings_total %d, want %d", got, cat.Len())
	}
	vendor := hostOf(shop.BaseURL)
	r := s.do("GET", "/v2/listings?page_size=1&vendor="+vendor, nil)
	if got := num(field(r.body, "pagination", "total_items")); got != cat.Len() {
		t.Errorf("catalog holds %d listings, want %d: lost or duplicated", got, cat.Len())
	}
	for _, c := range cat.Collections() {
		r := s.do("GET", "/v2/listings?page_size=1&vendor="+vendor+"&collection_url="+shop.URL("/collections/"+c.Handle), nil)
		if got := num(field(r.body, "pagination", "total_items")); got != len(c.Products) {
			t.Errorf("collection %s: %d listings, want %d", c.Handle, got, len(c.Products))
		}
	}
}

func waitUp(t *testing.T, address string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", address, 100*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server at %s did not come up", address)
}

// statusInDatabase reads an execution's status straight from Postgres (the API is down).
func statusInDatabase(t *testing.T, dbURL, id string) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var status string
	if err := conn.QueryRow(context.Background(), "SELECT status FROM executions WHERE id = $1", id).Scan(&status); err != nil {
		t.Fatal(err)
	}
	return status
}
