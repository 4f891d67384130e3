package evaluation

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
)

// BenchmarkSearch100k measures search over 100,000 demo products bulk-loaded with COPY:
// mini searches from 20 concurrent clients (p50, p99) and the time from the start of an
// asynchronous search to its completion, through the real River queue. The requests are
// BenchRequests: the labelled queries in varied forms, few of them twice.
func BenchmarkSearch100k(b *testing.B) {
	benchmarkSearch(b, "100,000 products", func(ctx context.Context, pool *pgxpool.Pool) error {
		return CopyDemo(ctx, pool, 100_000)
	})
}

// BenchmarkSearch100kListings is BenchmarkSearch100k over a mostly crawled catalog:
// 100,000 demo listings, of which one in ten is also an extracted product.
func BenchmarkSearch100kListings(b *testing.B) {
	benchmarkSearch(b, "100,000 listings, 10,000 of them extracted", func(ctx context.Context, pool *pgxpool.Pool) error {
		return CopyCrawledDemo(ctx, pool, 100_000, 10)
	})
}

func benchmarkSearch(b *testing.B, catalog string, seed func(context.Context, *pgxpool.Pool) error) {
	ctx := context.Background()
	pool := migrated(b)
	start := time.Now()
	if err := seed(ctx, pool); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "VACUUM ANALYZE products, listings, collections, collection_listings"); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %s in %s", catalog, time.Since(start).Round(time.Millisecond))

	// Wired with the service's default settings, as `stockroom serve` is.
	cfg, err := configs.Load("", nil)
	if err != nil {
		b.Fatal(err)
	}
	executions := postgres.NewExecutionStore(pool)
	runner := execution.NewRunner(executions, execution.RunnerOptions{ReportEvery: cfg.Jobs.ReportEvery, LeaseTTL: cfg.Jobs.LeaseTTL})
	pipeline := search.NewPipeline(postgres.NewSearchStore(pool), postgres.NewExtractStore(pool), executions, runner, search.PipelineOptions{
		DefaultLimit: cfg.Search.DefaultLimit, MaxLimit: cfg.Search.MaxLimit, MinResults: cfg.Search.MinResults,
		Candidates: cfg.Search.Candidates, MiniCandidates: cfg.Search.MiniCandidates, VocabularyTTL: cfg.Search.VocabularyTTL,
	})
	queue, err := jobs.New(pool, map[execution.Kind]jobs.Handler{execution.AgenticSearch: pipeline.Run},
		jobs.Options{Workers: cfg.Jobs.Workers, PollInterval: cfg.Jobs.PollInterval})
	if err != nil {
		b.Fatal(err)
	}
	if err := queue.StartWorking(ctx); err != nil {
		b.Fatal(err)
	}
	defer queue.Stop(ctx)
	org, err := postgres.NewAccessStore(pool).CreateOrganization(ctx, "bench", 1<<50, true)
	if err != nil {
		b.Fatal(err)
	}
	svc := search.NewService(executions, pipeline, queue, postgres.NewAccessStore(pool), search.Credits{Search: 25, Mini: 5})
	reqs, err := NewBenchRequests()
	if err != nil {
		b.Fatal(err)
	}
	// The first search loads the catalog vocabulary (a service preloads it when it starts);
	// it is not what clients wait for after.
	start = time.Now()
	if _, _, err := svc.Mini(ctx, org.ID, search.Request{Query: "warm up"}); err != nil {
		b.Fatal(err)
	}
	b.Logf("first search, with the vocabulary load, in %s", time.Since(start).Round(time.Millisecond))
	// Then requests unlike the measured ones bring the catalog's pages into Postgres'
	// cache, so that the first sub-benchmark does not pay for the ones after it.
	for i := range 200 {
		if _, _, err := svc.Mini(ctx, org.ID, reqs.Request(1_000_000+i)); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("mini-20-clients", func(b *testing.B) {
		concurrently(b, pool, 20, func(i int) error {
			_, _, err := svc.Mini(ctx, org.ID, reqs.Request(i))
			return err
		})
	})
	// The same without credits and product loading: the engine's own share.
	b.Run("mini-engine-only-20-clients", func(b *testing.B) {
		concurrently(b, pool, 20, func(i int) error {
			_, err := pipeline.Search(ctx, search.Query{Request: reqs.Request(i), Mini: true})
			return err
		})
	})

	b.Run("async-complete", func(b *testing.B) {
		latencies := make([]time.Duration, b.N)
		for i := range b.N {
			t0 := time.Now()
			started, err := svc.Start(ctx, org.ID, reqs.Request(i))
			if err != nil {
				b.Fatal(err)
			}
			for {
				d, err := svc.Get(ctx, org.ID, started.ExecutionID)
				if err != nil {
					b.Fatal(err)
				}
				e := d.Execution
				if e.Status.Ended() {
					if e.Status != execution.Completed {
						b.Fatalf("search %s: %s", e.ID, e.Error)
					}
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			latencies[i] = time.Since(t0)
		}
		p50, p99 := percentiles(latencies)
		b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	})
}

// concurrently runs fn b.N times from clients goroutines and reports latency percentiles
// and the CPU time per call of this process and of Postgres.
func concurrently(b *testing.B, pool *pgxpool.Pool, clients int, fn func(i int) error) {
	ctx := context.Background()
	self0, pg0, pgOK := cpuSpent(ctx, pool)
	latencies := make([]time.Duration, b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	b.ResetTimer()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				t0 := time.Now()
				if err := fn(i); err != nil {
					errs <- err
					return
				}
				latencies[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	p50, p99 := percentiles(latencies)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	self1, pg1, ok := cpuSpent(ctx, pool)
	perOp := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(perOp(self1-self0), "go-cpu-ms/op")
	if pgOK && ok {
		// Backends the pool opened during the run count from zero, as they should.
		b.ReportMetric(perOp(pg1-pg0), "pg-cpu-ms/op")
	}
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	if len(s) == 0 {
		return 0, 0
	}
	return s[len(s)/2], s[min(len(s)-1, len(s)*99/100)]
}
