package sdktest

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// BenchmarkCorpus is the product-extraction-benchmark corpus (see its README); benchmarks
// skip without it.
const BenchmarkCorpus = "/work/shared/corpus/product-extraction-benchmark"

// Page is a saved page of the benchmark corpus.
type Page struct {
	ID, URL string
	Body    []byte
}

// CPUMeter reports the process's CPU time per iteration of a benchmark as "cpu-ns/op":
// unlike ns/op it does not grow when other processes take the cores, so wasm and native
// runs on a shared machine compare. It counts every goroutine of the process, the
// garbage collector's included, which is part of either path's cost.
type CPUMeter struct{ start time.Duration }

// StartCPU resets b's timer and starts measuring; call Stop after the loop.
func StartCPU(b *testing.B) *CPUMeter {
	b.ResetTimer()
	return &CPUMeter{start: processCPU()}
}

// Stop stops b's timer and reports the CPU time per iteration.
func (m *CPUMeter) Stop(b *testing.B) {
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-m.start)/float64(b.N), "cpu-ns/op")
}

// WarmUp runs a benchmark's operation over its inputs a few times before it is measured.
// A guest instance's linear memory grows in its first few hundred calls, and wazero copies
// the whole memory at each step; a pooled instance lives for thousands of calls and pays
// that once, so a benchmark of the steady state starts after every pooled instance has
// grown. Both paths of a comparison warm up alike.
func WarmUp(inputs int, op func(i int)) {
	for i := 0; i < 3*max(inputs, 200); i++ {
		op(i)
	}
}

// CorpusPages reads the benchmark corpus, skipping tb when it is absent.
func CorpusPages(tb testing.TB) []Page {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(BenchmarkCorpus, "ground-truth.json"))
	if err != nil {
		tb.Skipf("benchmark corpus absent: %v", err)
	}
	var truth map[string]struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		tb.Fatal(err)
	}
	var pages []Page
	for id, t := range truth {
		f, err := os.Open(filepath.Join(BenchmarkCorpus, "html", id+".html.gz"))
		if err != nil {
			continue
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			tb.Fatal(err)
		}
		body, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, Page{ID: id, URL: t.URL, Body: body})
	}
	if len(pages) == 0 {
		tb.Skip("benchmark corpus has no pages")
	}
	return pages
}

// BenchmarkPages measures CPU per corpus page of one adapter through the WebAssembly guest
// built from guestDir (deadlines on, as in production) and natively, as sub-benchmarks
// "wasm" and "native". Every iteration hands the adapter a fresh Document, so the host's
// HTML parse is counted on both paths. The wasm run also reports instantiations/op (0: no
// instantiation on the request path) and idle-MiB/instance (the largest pooled instance's
// linear memory after the run).
func BenchmarkPages(b *testing.B, guestDir string, native adapter.Module) {
	pages := CorpusPages(b)
	for _, bc := range []struct {
		name string
		mod  func() adapter.Module
	}{
		{"native", func() adapter.Module { return native }},
		{"wasm", func() adapter.Module { return Load(b, guestDir, wasm.Config{}) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			mod := bc.mod()
			set := &adapter.Set{Source: Modules{mod}, Fetcher: Pages{}}
			guest, _ := mod.(*wasm.Module)
			var before int64
			if guest != nil {
				before = guest.Instantiations()
			}
			extract := func(i int) {
				p := pages[i%len(pages)]
				doc := &adapter.Document{URL: p.URL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: p.Body}
				if _, err := set.Extract(context.Background(), p.URL, doc); err != nil {
					b.Fatal(err)
				}
			}
			WarmUp(len(pages), extract)
			cpu := StartCPU(b)
			for i := 0; i < b.N; i++ {
				extract(i)
			}
			cpu.Stop(b)
			if guest != nil {
				// No instance may be created on the request path; an idle instance, after
				// every page of the corpus went through it, stays small.
				b.ReportMetric(float64(guest.Instantiations()-before)/float64(b.N), "instantiations/op")
				b.ReportMetric(float64(guest.IdleMemory())/(1<<20), "idle-MiB/instance")
			}
		})
	}
}
