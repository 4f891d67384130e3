package tracing

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/stockroom/stockroom/cmd/stockroom/app/metrics"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// idleModule answers every call at once, so that a benchmark of it measures what wraps it.
type idleModule struct{}

func (idleModule) Info() adapter.Info { return adapter.Info{Name: "idle"} }
func (idleModule) Call(context.Context, *adapter.Request) (*adapter.Response, error) {
	return &adapter.Response{}, nil
}

type idleSource struct{}

func (idleSource) Modules() []adapter.Module { return []adapter.Module{idleModule{}} }

// reportCPU reports the process's CPU per iteration since cpu (the batching goroutine's
// included), which a machine busy with other work moves less than the time per iteration.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(storagetest.ProcessCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkObservedCall is what metrics and tracing add to an adapter call and to a fetch
// that cost nothing themselves: unobserved, measured as the service measures them, and
// traced with every span sampled and handed, in batches, to an exporter that discards it.
// cmd/stockroom/app/metrics/RATIONALE.md compares it with a listing page's cost.
func BenchmarkObservedCall(b *testing.B) {
	tr := New(tracetest.NewNoopExporter(), Config{SampleRatio: 1, ServiceName: "bench"})
	b.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
	m, err := metrics.New(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	classify := func(error) string { return "error" }
	req := &adapter.Request{Op: adapter.OpList, URL: "https://shop.example/collections/all"}
	doc := &adapter.Document{Status: 200, Body: []byte("<html></html>")}
	for _, c := range []struct {
		name    string
		source  adapter.Source
		fetcher adapter.Fetcher
	}{
		{"observe=off", idleSource{}, oneDocument{doc}},
		{"observe=metrics", m.Adapters(idleSource{}, classify), m.Fetcher(oneDocument{doc}, func(string) string { return "polite" })},
		{"observe=tracing", tr.Adapters(idleSource{}, classify), tr.Fetcher(oneDocument{doc})},
	} {
		ctx := context.Background()
		b.Run("adapter-call/"+c.name, func(b *testing.B) {
			cpu := storagetest.ProcessCPU()
			for b.Loop() {
				if _, err := c.source.Modules()[0].Call(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
		b.Run("fetch/"+c.name, func(b *testing.B) {
			cpu := storagetest.ProcessCPU()
			for b.Loop() {
				if _, err := c.fetcher.Fetch(ctx, "https://shop.example/collections/all?page=2"); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}
