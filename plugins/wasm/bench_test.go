package wasm_test

import (
	"context"
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
// "ok" runs a few queries.
func BenchmarkCall(b *testing.B) {
	for name, mode := range interrupts {
		m := loadGuest(b, wasm.Config{Interrupt: mode})
		for _, path := range []string{"missing", "ok", "hostcalls", "guestloop"} {
			b.Run(name+"/"+path, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := extract(m, path); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCheckout measures taking a ready instance from the pool and putting it back,
// and reports the p99 of single checkouts under contention from all cores.
func BenchmarkCheckout(b *testing.B) {
	m := loadGuest(b, wasm.Config{PoolSize: 4})
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			release, err := m.Checkout(ctx)
			if err != nil {
				b.Fatal(err)
			}
			release()
		}
	})
	var worst [1000]time.Duration
	samples := make([]time.Duration, 0, 10000)
	for i := 0; i < cap(samples); i++ {
		start := time.Now()
		release, _ := m.Checkout(ctx)
		samples = append(samples, time.Since(start))
		release()
	}
	_ = worst
	b.ReportMetric(float64(percentile(samples, 0.99).Nanoseconds()), "p99-ns")
}

func percentile(d []time.Duration, q float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[int(float64(len(s)-1)*q)]
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
