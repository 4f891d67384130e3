package metrics

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stockroom/stockroom/core/adapter"
)

// idleModule answers every call at once, so that a benchmark of it measures what wraps it.
type idleModule struct{}

func (idleModule) Info() adapter.Info { return adapter.Info{Name: "idle"} }
func (idleModule) Call(context.Context, *adapter.Request) (*adapter.Response, error) {
	return &adapter.Response{}, nil
}

type idleSource struct{}

func (idleSource) Modules() []adapter.Module { return []adapter.Module{idleModule{}} }

// BenchmarkAdapterCall is what measuring an adapter call adds to it: a call of a module
// that does nothing, unmeasured and measured. RATIONALE.md beside it compares it with a
// listing page's cost.
func BenchmarkAdapterCall(b *testing.B) {
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	req := &adapter.Request{Op: adapter.OpList, URL: "https://shop.example/collections/all"}
	for name, src := range map[string]adapter.Source{"metrics=off": idleSource{}, "metrics=on": m.Adapters(idleSource{}, func(error) string { return "error" })} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				if _, err := src.Modules()[0].Call(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
