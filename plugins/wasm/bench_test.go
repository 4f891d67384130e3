package wasm_test

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

var interrupts = map[string]wasm.Interrupt{
	"instrumented": wasm.InterruptInstrumented,
	"context":      wasm.InterruptContext,
	"none":         wasm.InterruptNone,
}

// BenchmarkCall measures one round trip through a pooled instance: checkout, request
// encoding, the guest's dispatch, the response decoding. "missing" answers at once;
// "ok" runs a few queries; "hostcalls" makes 10,000 host calls, so (hostcalls − missing)
// / 10,000 is one crossing.
func BenchmarkCall(b *testing.B) {
	wantMessage := map[string]string{"missing": "nothing here", "hostcalls": "done"}
	for name, mode := range interrupts {
		m := loadGuest(b, wasm.Config{Interrupt: mode})
		for _, path := range []string{"missing", "ok", "hostcalls", "guestloop"} {
			b.Run(name+"/"+path, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					resp, err := extract(m, path)
					if err != nil {
						b.Fatal(err)
					}
					// A guest that answered otherwise did not do the work measured.
					if want := wantMessage[path]; resp.Message != want {
						b.Fatalf("%s answered %q (%s), want %q", path, resp.Message, resp.Outcome, want)
					}
				}
			})
		}
	}
}

// BenchmarkCheckout measures taking a ready instance from the pool and putting it back
// with all cores contending (GOMAXPROCS goroutines on a pool twice that size, as a
// server's pool is sized for its concurrency), and reports the percentiles of single
// checkouts. Waiting for an instance when every one is busy is queueing, not checkout;
// TestCallWaitsForAnInstanceAndHonoursCancel covers it. The issue allows a p99 of 10 µs.
func BenchmarkCheckout(b *testing.B) {
	m := loadGuest(b, wasm.Config{PoolSize: 2 * runtime.GOMAXPROCS(0)})
	ctx := context.Background()
	var mu sync.Mutex
	var samples []time.Duration
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		local := make([]time.Duration, 0, 1024)
		for pb.Next() {
			start := time.Now()
			release, err := m.Checkout(ctx)
			if err != nil {
				b.Error(err)
				return
			}
			local = append(local, time.Since(start))
			release()
		}
		mu.Lock()
		samples = append(samples, local...)
		mu.Unlock()
	})
	b.StopTimer()
	slices.Sort(samples)
	b.ReportMetric(float64(percentile(samples, 0.50).Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(percentile(samples, 0.99).Nanoseconds()), "p99-ns")
}

// percentile returns the q-quantile of sorted samples.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(float64(len(sorted)-1)*q)]
}

var _ = adapter.OpExtract

// BenchmarkIdleInstance reports the memory one idle, ready instance holds: its linear
// memory after start-up and one call, and the Go heap the host keeps for it.
func BenchmarkIdleInstance(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m := loadGuest(b, wasm.Config{PoolSize: 1})
		if _, err := extract(m, "ok"); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(m.IdleMemory())/(1<<20), "MiB/instance")
	}
}
