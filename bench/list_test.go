package bench

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
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
// time. cpu-ms/page is the process's CPU per page, garbage collection included;
// BenchmarkCrawl's Colly cpu-s/1000pages (ms per page) is the whole budget per page that
// listing must fit in with fetching and writing the catalog. guest-loops/page counts the
// loop heads the adapter's guest code passed (wasm.Module.GuestLoops): its work, in a
// measure this machine's load does not move, for comparing two builds of an adapter.
//
// Each case runs unobserved (observe=off), measured as the service measures it
// (observe=metrics: the adapters and the fetcher wrapped by cmd/stockroom/app/metrics) and
// traced (observe=tracing: every fetch and adapter call a sampled span, handed to an
// exporter that discards it), in one run, so that what metrics and tracing cost the
// crawl's busiest path can be read off. BENCH_ROUND turns the order of the modes round by
// round, for runs made in rounds (make bench-observe); see
// cmd/stockroom/app/metrics/RATIONALE.md.
func BenchmarkListPage(b *testing.B) {
	pages := newListPages(b)
	modes := observeModes
	if round, err := strconv.Atoi(os.Getenv("BENCH_ROUND")); err == nil {
		turn := round % len(modes)
		modes = slices.Concat(modes[turn:], modes[:turn])
	}
	for _, c := range listCases {
		for _, mode := range modes {
			b.Run(c.name+"/observe="+mode, func(b *testing.B) {
				set, page := pages.prepare(b, c, mode)
				var listings int
				loops0 := guestLoops(set)
				cpu0 := storagetest.ProcessCPU()
				for b.Loop() {
					listings = page.list(b, set)
				}
				b.ReportMetric(float64(storagetest.ProcessCPU()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/page")
				b.ReportMetric(float64(listings), "listings/page")
				b.ReportMetric(float64(guestLoops(set)-loops0)/float64(b.N), "guest-loops/page")
			})
		}
	}
}

// BenchmarkListPageObserved lists each case's page unobserved, with metrics and traced in
// turn, call after call, and reports each observed mode's time and CPU over the
// unobserved one's (metrics/off-wall, metrics/off-cpu, tracing/...), the median of the
// ratios of the calls made side by side: a load that comes and goes on the machine falls
// on every mode alike, which rounds of BenchmarkListPage's sub-benchmarks, seconds apart,
// cannot promise, and a call the machine held up moves the median little. The order of
// the modes turns call by call. Each iteration lists the page once in each mode.
func BenchmarkListPageObserved(b *testing.B) {
	pages := newListPages(b)
	for _, c := range listCases {
		b.Run(c.name, func(b *testing.B) {
			sets := make([]*adapter.Set, len(observeModes))
			var page listedPage
			for i, mode := range observeModes {
				sets[i], page = pages.prepare(b, c, mode)
			}
			// wall[i][j] and cpu[i][j] are mode i's time and CPU at iteration j.
			wall := make([][]time.Duration, len(observeModes))
			cpu := make([][]time.Duration, len(observeModes))
			calls, fetches := pages.counted(b, "stockroom_adapter_calls_total"), pages.counted(b, "stockroom_fetches_total")
			turn := 0
			for b.Loop() {
				for k := range observeModes {
					i := (turn + k) % len(observeModes)
					start, cpu0 := time.Now(), storagetest.ProcessCPU()
					page.list(b, sets[i])
					cpu[i] = append(cpu[i], storagetest.ProcessCPU()-cpu0)
					wall[i] = append(wall[i], time.Since(start))
				}
				turn++
			}
			// The calls each page observed makes, which BenchmarkObservedCall of
			// cmd/stockroom/app/tracing prices one by one.
			b.ReportMetric((pages.counted(b, "stockroom_adapter_calls_total")-calls)/float64(b.N), "adapter-calls/page")
			b.ReportMetric((pages.counted(b, "stockroom_fetches_total")-fetches)/float64(b.N), "fetches/page")
			for i, mode := range observeModes[1:] {
				b.ReportMetric(medianRatio(wall[i+1], wall[0]), mode+"/off-wall")
				b.ReportMetric(medianRatio(cpu[i+1], cpu[0]), mode+"/off-cpu")
			}
		})
	}
}

// medianRatio is the median of the ratios a[j]/b[j].
func medianRatio(a, b []time.Duration) float64 {
	ratios := make([]float64, 0, len(a))
	for j := range a {
		if b[j] > 0 {
			ratios = append(ratios, float64(a[j])/float64(b[j]))
		}
	}
	if len(ratios) == 0 {
		return 0
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

// observeModes are the ways the benchmarks observe the adapters and the fetcher, the
// unobserved first.
var observeModes = []string{"off", "metrics", "tracing"}

// listCase is a page the listing benchmarks list.
type listCase struct {
	name       string
	kind       demostore.Kind
	platform   string
	collection string
	// later is the page listed, relative to the collection, when not its first: a page
	// named ahead, as most of a crawl's pages are.
	later string
}

var listCases = []listCase{
	{"shopify", demostore.Shopify, "shopify", "/collections/sale", ""},
	{"html", demostore.HTML, "", "/shop/sale", ""},
	{"html-later", demostore.HTML, "", "/shop/sale", "?page=2"},
}

// listPages is what the listing benchmarks share: the demo stores, the built-in adapters,
// and the metrics and the tracing that observe them.
type listPages struct {
	fleet    *demostore.Fleet
	adapters adapter.Source
	measured *metrics.Metrics
	registry *prometheus.Registry // measured's
	traced   *tracing.Tracing
}

func newListPages(b *testing.B) *listPages {
	fleet, err := demostore.Launch(context.Background(),
		demostore.Options{Kind: demostore.Shopify, Products: 10_000},
		demostore.Options{Kind: demostore.HTML, Products: 5_000})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(fleet.Stop)
	reg := prometheus.NewRegistry()
	measured, err := metrics.New(reg)
	if err != nil {
		b.Fatal(err)
	}
	traced := tracing.New(tracetest.NewNoopExporter(), tracing.Config{SampleRatio: 1, ServiceName: "bench"})
	b.Cleanup(func() { _ = traced.Shutdown(context.Background()) })
	return &listPages{fleet: fleet, adapters: builtinAdapters(b).Source, measured: measured, registry: reg, traced: traced}
}

// counted sums the samples of a counter family of the metrics: the adapter calls
// (stockroom_adapter_calls_total) or the fetches (stockroom_fetches_total) measured so far.
func (p *listPages) counted(b *testing.B, family string) float64 {
	families, err := p.registry.Gather()
	if err != nil {
		b.Fatal(err)
	}
	var sum float64
	for _, f := range families {
		if f.GetName() == family {
			for _, m := range f.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

// listedPage is one case's page, ready to be listed from memory.
type listedPage struct {
	platform, collection, cursor string
	size                         int
}

// prepare returns the adapter set of mode, its pages fetched, and the page of c to list:
// given the collection's size, as a crawl gives it once the first page said it.
func (p *listPages) prepare(b *testing.B, c listCase, mode string) (*adapter.Set, listedPage) {
	ctx := context.Background()
	set := &adapter.Set{Source: p.adapters, Fetcher: &savedPages{pages: map[string]*adapter.Document{}},
		Logger: slog.New(slog.DiscardHandler)}
	switch mode {
	case "metrics":
		set.Source = p.measured.Adapters(set.Source, wasm.FailureOf)
		set.Fetcher = p.measured.Fetcher(set.Fetcher, func(string) string { return "no_delay" })
	case "tracing":
		set.Source = p.traced.Adapters(set.Source, wasm.FailureOf)
		set.Fetcher = p.traced.Fetcher(set.Fetcher)
	}
	page := listedPage{platform: c.platform, collection: p.fleet.Get(c.kind).URL(c.collection)}
	first, err := set.List(ctx, page.platform, page.collection, "", 0)
	if err != nil {
		b.Fatal(err)
	}
	if c.later != "" {
		page.cursor, page.size = page.collection+c.later, first.Total
		if _, err := set.List(ctx, page.platform, page.collection, page.cursor, page.size); err != nil {
			b.Fatal(err)
		}
	}
	return set, page
}

// list lists the page with set and returns how many listings it holds.
func (p listedPage) list(b *testing.B, set *adapter.Set) int {
	listed, err := set.List(context.Background(), p.platform, p.collection, p.cursor, p.size)
	if err != nil {
		b.Fatal(err)
	}
	if len(listed.Listings) == 0 {
		b.Fatalf("no listings on %s (%s)", p.collection, p.cursor)
	}
	return len(listed.Listings)
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
