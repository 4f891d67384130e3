package jobs_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
)

// BenchmarkStartToRunning measures the time from a start's call to its job's handler
// running, for a lone start and for the last of six made together by six organizations.
// Each iteration is one round; the metrics are the rounds' median, 90th percentile and
// slowest (ns/op also counts the pause between rounds). The poll is five seconds apart: a
// start that no announcement reaches shows.
func BenchmarkStartToRunning(b *testing.B) {
	for _, together := range []int{1, 6} {
		b.Run(fmt.Sprintf("together=%d", together), func(b *testing.B) {
			ctx := context.Background()
			pool := postgrestest.Migrated(b, postgres.PoolOptions{})
			orgs := make([]string, together)
			for i := range orgs {
				org, err := postgres.NewAccessStore(pool).CreateOrganization(ctx, fmt.Sprintf("org-%d", i), 1<<40, true)
				if err != nil {
					b.Fatal(err)
				}
				orgs[i] = org.ID
			}
			ran := make(chan string, 100)
			queue, err := jobs.New(pool, map[execution.Kind]jobs.Handler{
				execution.AgenticSearch: func(_ context.Context, id string) error { ran <- id; return nil },
			}, jobs.Options{PollInterval: 5 * time.Second, Workers: 50})
			if err != nil {
				b.Fatal(err)
			}
			if err := queue.StartWorking(ctx); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = queue.Stop(ctx) })
			time.Sleep(300 * time.Millisecond) // past the queue's first look

			latencies := make([]time.Duration, 0, b.N)
			for i := range b.N {
				began := time.Now()
				var wg sync.WaitGroup
				for k := range together {
					wg.Go(func() {
						e := execution.Execution{ID: fmt.Sprintf("agentic-%d-%d", i, k), Kind: execution.AgenticSearch,
							OrganizationID: orgs[k], CreditsUsed: 1}
						if err := queue.Start(ctx, e, nil); err != nil {
							b.Error(err)
						}
					})
				}
				for range together {
					select {
					case <-ran:
					case <-time.After(10 * time.Second):
						b.Fatal("a start did not run within 10 s")
					}
				}
				latencies = append(latencies, time.Since(began))
				wg.Wait()
				// Rounds apart, as separate clients' starts are, rather than each within
				// the workers' fetch cooldown of the last look.
				time.Sleep(20 * time.Millisecond)
			}
			slices.Sort(latencies)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(latencies[len(latencies)/2]), "ms-p50")
			b.ReportMetric(ms(latencies[len(latencies)*9/10]), "ms-p90")
			b.ReportMetric(ms(latencies[len(latencies)-1]), "ms-max")
		})
	}
}
