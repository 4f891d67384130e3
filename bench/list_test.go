package bench

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/cmd/stockroom/app/metrics"
	"github.com/stockroom/stockroom/cmd/stockroom/app/tracing"
	"github.com/stockroom/stockroom/core/adapter"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/plugins/registry"
	"github.com/stockroom/stockroom/plugins/wasm"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// BenchmarkListPage is the adapters' share of one crawl page: the first page of a
// collection of each demo store of BenchmarkCrawl, and a later page of the HTML store's
// (html-later, one of those a first page names ahead), listed through the built-in
// WebAssembly adapters (every round of the call), the page already fetched, one call at a
// time. cpu-ms/page is the
// process's CPU per page, garbage collection included; BenchmarkCrawl's Colly
// cpu-s/1000pages (ms per page) is the whole budget per page that listing must fit in
// with fetching and writing the catalog. guest-loops/page counts the loop heads the
// adapter's guest code passed (wasm.Module.GuestLoops): its work, in a measure this
// machine's load does not move, for comparing two builds of an adapter.
//
// Each case runs unobserved (observe=off), measured as the service measures it
// (observe=metrics: the adapters and the fetcher wrapped by cmd/stockroom/app/metrics) and
// traced (observe=tracing: every fetch and adapter call a sampled span, handed to an
// exporter that discards it), in one run, so that what metrics and tracing cost the
// crawl's busiest path can be read off. BENCH_ROUND turns the order of the modes round by
// round, for runs made in rounds (make bench-observe); see
// cmd/stockroom/app/metrics/RATIONALE.md.
func BenchmarkListPage(b *testing.B) {
	ctx := context.Background()
	fleet, err := demostore.Launch(ctx,
		demostore.Options{Kind: demostore.Shopify, Products: 10_000},
		demostore.Options{Kind: demostore.HTML, Products: 5_000})
	if err != nil {
		b.Fatal(err)
	}
	defer fleet.Stop()
	set := builtinAdapters(b)
	unmeasured := set.Source
	measured, err := metrics.New(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	traced := tracing.New(tracetest.NewNoopExporter(), tracing.Config{SampleRatio: 1, ServiceName: "bench"})
	b.Cleanup(func() { _ = traced.Shutdown(context.Background()) })
	modes := []string{"off", "metrics", "tracing"}
	if round, err := strconv.Atoi(os.Getenv("BENCH_ROUND")); err == nil {
		turn := round % len(modes)
		modes = append(modes[turn:], modes[:turn]...)
	}
	for _, c := range []struct {
		name       string
		kind       demostore.Kind
		platform   string
		collection string
		// later is the page listed, relative to the collection, when not its first: a
		// page named ahead, as most of a crawl's pages are.
		later string
	}{
		{"shopify", demostore.Shopify, "shopify", "/collections/sale", ""},
		{"html", demostore.HTML, "", "/shop/sale", ""},
		{"html-later", demostore.HTML, "", "/shop/sale", "?page=2"},
	} {
		for _, mode := range modes {
			name := c.name + "/observe=" + mode
			set.Source, set.Fetcher = unmeasured, &savedPages{pages: map[string]*adapter.Document{}}
			switch mode {
			case "metrics":
				set.Source = measured.Adapters(unmeasured, wasm.FailureOf)
				set.Fetcher = measured.Fetcher(set.Fetcher, func(string) string { return "no_delay" })
			case "tracing":
				set.Source = traced.Adapters(unmeasured, wasm.FailureOf)
				set.Fetcher = traced.Fetcher(set.Fetcher)
			}
			b.Run(name, func(b *testing.B) {
				collection := fleet.Get(c.kind).URL(c.collection)
				// The first calls fetch the pages; the loop lists one from memory, given the
				// collection's size as a crawl gives it once the first page said it.
				first, err := set.List(ctx, c.platform, collection, "", 0)
				if err != nil {
					b.Fatal(err)
				}
				cursor, size := "", 0
				if c.later != "" {
					cursor, size = collection+c.later, first.Total
					if _, err := set.List(ctx, c.platform, collection, cursor, size); err != nil {
						b.Fatal(err)
					}
				}
				var listings int
				loops0 := guestLoops(set)
				cpu0 := storagetest.ProcessCPU()
				for b.Loop() {
					page, err := set.List(ctx, c.platform, collection, cursor, size)
					if err != nil {
						b.Fatal(err)
					}
					listings = len(page.Listings)
				}
				if listings == 0 {
					b.Fatalf("no listings on %s%s", collection, c.later)
				}
				b.ReportMetric(float64(storagetest.ProcessCPU()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/page")
				b.ReportMetric(float64(listings), "listings/page")
				b.ReportMetric(float64(guestLoops(set)-loops0)/float64(b.N), "guest-loops/page")
			})
		}
	}
}

// builtinAdapters loads the built-in adapters as the server does.
func builtinAdapters(b *testing.B) *adapter.Set {
	ctx := context.Background()
	rt, err := wasm.New(ctx, wasm.Config{CacheDir: filepath.Join(os.TempDir(), "stockroom-bench-adapter-cache")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rt.Close(context.Background()) })
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := registry.New(rt, logger)
	if err := reg.Sync(ctx, "builtin", builtin.FS, registry.Options{}); err != nil {
		b.Fatal(err)
	}
	return &adapter.Set{Source: reg, Logger: logger}
}

// guestLoops sums the loop heads the guests of set's adapters have passed.
func guestLoops(set *adapter.Set) int64 {
	var n int64
	for _, m := range set.Source.Modules() {
		if measured, ok := m.(interface{ Unwrap() adapter.Module }); ok {
			m = measured.Unwrap()
		}
		if counted, ok := m.(interface{ GuestLoops() int64 }); ok {
			n += counted.GuestLoops()
		}
	}
	return n
}

// savedPages fetches each URL once and then answers from memory, so that a benchmark
// measures the adapters, not the network.
type savedPages struct {
	mu    sync.Mutex
	pages map[string]*adapter.Document
}

func (s *savedPages) Fetch(ctx context.Context, url string) (*adapter.Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.pages[url]; ok {
		// A fresh Document, so the host parses the page again as it would a new fetch.
		return &adapter.Document{URL: d.URL, Status: d.Status, Header: d.Header, Body: d.Body}, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	d := &adapter.Document{URL: url, Status: resp.StatusCode, Header: resp.Header, Body: body}
	s.pages[url] = d
	return d, nil
}
