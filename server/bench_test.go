package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/storage/clickhouse"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// The catalog of the API benchmarks: 1,000 vendors and 1,000,000 listings, one vendor large
// enough (200,000 listings) for page 5,000 of 20.
const (
	benchVendors     = 1000
	benchBigListings = 200_000
	benchListingsPer = 800
)

// BenchmarkAPI compares the listings endpoint with the health endpoint, page 5,000 with
// page 1, and usage recording on with off, all in one run over loopback HTTP.
func BenchmarkAPI(b *testing.B) {
	ctx := context.Background()
	pool := postgrestest.Migrated(b, postgres.PoolOptions{MaxConns: 16})
	start := time.Now()
	for _, stmt := range []string{
		fmt.Sprintf(`INSERT INTO vendors (host, listings_count, collections_count)
			SELECT CASE WHEN g = 1 THEN 'big.example' ELSE 'v' || g || '.example' END,
			       CASE WHEN g = 1 THEN %d ELSE %d END, 0
			FROM generate_series(1, %d) g`, benchBigListings, benchListingsPer, benchVendors),
		`INSERT INTO listings (id, vendor_id, ordinal, url, name, images, price_currency, price_current)
			SELECT gen_random_uuid(), v.id, g, 'https://' || v.host || '/products/p' || g, 'Product ' || g,
			       '[{"id":"1","url":"https://cdn.example/p.jpg","width":800,"height":800,"position":1}]', 'USD', 10 + g % 90
			FROM vendors v, generate_series(1, v.listings_count) g`,
		"ANALYZE",
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("seeded %d vendors and %d listings in %s", benchVendors, benchBigListings+(benchVendors-1)*benchListingsPer, time.Since(start).Round(time.Second))

	chConn, err := clickhouse.Open(ctx, storagetest.NewClickHouse(b))
	if err != nil {
		b.Fatal(err)
	}
	// A cleanup, not a defer: cleanups run after the function returns and last-registered
	// first, so the recorder (registered later) flushes before the connection closes.
	b.Cleanup(func() { _ = chConn.Close() })
	if err := clickhouse.Migrate(ctx, chConn); err != nil {
		b.Fatal(err)
	}
	accessSvc := access.NewService(postgres.NewAccessStore(pool), access.ServiceOptions{})
	if _, err := accessSvc.Store().CreateOrganization(ctx, "bench", 0, false); err != nil {
		b.Fatal(err)
	}
	_, key, err := accessSvc.IssueKey(ctx, "bench", "bench")
	if err != nil {
		b.Fatal(err)
	}
	catalogSvc := catalog.NewService(postgres.NewCatalogStore(pool))

	serve := func(b *testing.B, metered bool) string {
		deps := server.Deps{
			Access: accessSvc, Catalog: catalogSvc,
			Checks: []server.Check{
				{Name: "postgres", Required: true, Probe: func(ctx context.Context) error { return pool.Ping(ctx) }},
				{Name: "clickhouse", Probe: func(ctx context.Context) error { return clickhouse.Ping(ctx, chConn) }},
			},
		}
		if metered {
			rec, err := clickhouse.NewRecorder(chConn, clickhouse.RecorderOptions{SpoolDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = rec.Close(context.Background()) })
			deps.Recorder, deps.Usage = rec, usage.NewService(clickhouse.NewReader(chConn))
		}
		api := server.New(deps, server.Options{})
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = api.App().Listener(l) }()
		// Bounded: fasthttp's Shutdown waits for every connection to go idle, and a
		// keep-alive connection caught mid-request left a run hanging for minutes.
		b.Cleanup(func() { _ = api.App().ShutdownWithTimeout(5 * time.Second) })
		return "http://" + l.Addr().String()
	}
	metered, unmetered := serve(b, true), serve(b, false)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}}
	b.Cleanup(client.CloseIdleConnections) // registered last, so it runs before the servers stop

	closedLoop := func(base, path string) func(*testing.B) {
		return func(b *testing.B) {
			lat := newLatencies(b.N)
			b.SetParallelism(8)
			cpu := storagetest.ProcessCPU()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					lat.add(get(b, client, base+path, key))
				}
			})
			b.StopTimer()
			// CPU per request of this process (server and load generator alike) stays
			// comparable when other work shares the machine; req/s does not.
			b.ReportMetric(float64((storagetest.ProcessCPU()-cpu).Microseconds())/float64(b.N), "cpu-us/req")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			b.ReportMetric(lat.quantile(0.99).Seconds()*1000, "p99-ms")
		}
	}
	b.Run("healthz", closedLoop(unmetered, "/healthz"))
	b.Run("listings-page1/usage=off", closedLoop(unmetered, "/v2/listings?vendor=big.example&page_size=20"))
	b.Run("listings-page1/usage=on", closedLoop(metered, "/v2/listings?vendor=big.example&page_size=20"))
	b.Run("listings-page5000/usage=on", closedLoop(metered, "/v2/listings?vendor=big.example&page_size=20&page=5000"))
	b.Run("listings-small-vendor/usage=on", closedLoop(metered, "/v2/listings?vendor=v500.example&page_size=20&page=7"))

	// Open loop: one request every millisecond whatever the answers' pace, as 1,000 clients'
	// traffic would arrive; p99 is the figure of the issue, and the same load with usage
	// recording off and on shows what metering costs a request.
	openLoop := func(base string) func(*testing.B) {
		return func(b *testing.B) {
			lat := newLatencies(b.N)
			var wg sync.WaitGroup
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				<-tick.C
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					lat.add(get(b, client, fmt.Sprintf("%s/v2/listings?vendor=big.example&page_size=20&page=%d", base, 1+i%5000), key))
				}(i)
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(lat.quantile(0.50).Seconds()*1000, "p50-ms")
			b.ReportMetric(lat.quantile(0.99).Seconds()*1000, "p99-ms")
		}
	}
	b.Run("listings-at-1000rps/usage=off", openLoop(unmetered))
	b.Run("listings-at-1000rps/usage=on", openLoop(metered))
}

func get(b *testing.B, client *http.Client, url, key string) time.Duration {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("x-api-key", key)
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		b.Error(err)
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Errorf("%s: %d", url, resp.StatusCode)
	}
	return time.Since(start)
}

type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func newLatencies(n int) *latencies { return &latencies{d: make([]time.Duration, 0, n)} }

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) quantile(q float64) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	slices.Sort(l.d)
	return l.d[min(len(l.d)-1, int(q*float64(len(l.d))))]
}
