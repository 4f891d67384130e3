package main

import (
	"syscall"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// benchExtractURLs is the size of the benchmark's extraction: the most one request takes.
const benchExtractURLs = 1000

// BenchmarkExtract extracts 1,000 product URLs of the three demo store kinds (Shopify,
// JSON-LD, plain HTML; interleaved) over loopback, through the whole service wired as
// `stockroom serve` wires it: one v2 request, from its POST to the first poll (every
// 100 ms) that sees it completed. Politeness delays are off for the loopback stores
// (fetch.no_delay_hosts); the per-host concurrency bound (fetch.max_concurrent_per_host)
// and extract.concurrency stay at their defaults.
//
// Figures: urls/s, and cpu-s/1000urls, the user+system CPU of this process (service and
// demo stores; not Postgres, a process of its own) per 1,000 URLs.
//
//	go test -run '^$' -bench Extract -benchtime 3x ./cmd/stockroom
func BenchmarkExtract(b *testing.B) {
	per := benchExtractURLs/3 + 1
	s := newStack(b,
		demostore.Options{Kind: demostore.Shopify, Products: per},
		demostore.Options{Kind: demostore.JSONLD, Products: per},
		demostore.Options{Kind: demostore.HTML, Products: per})
	var urls []string
	for i := 0; len(urls) < benchExtractURLs; i++ {
		st := s.fleet.Stores[i%len(s.fleet.Stores)]
		urls = append(urls, st.URL(st.ProductPath(i/len(s.fleet.Stores))))
	}

	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		before := cpuTime(b)
		r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
		if r.status != 202 {
			b.Fatalf("start: %d %s", r.status, r.raw)
		}
		status := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=1", 5*time.Minute)
		cpu += cpuTime(b) - before
		if ok := field(status, "meta", "result", "products_successful"); ok != float64(benchExtractURLs) {
			b.Fatalf("%v of %d URLs extracted: %v", ok, benchExtractURLs, field(status, "meta", "result"))
		}
	}
	b.StopTimer()
	runs := float64(b.N)
	b.ReportMetric(runs*benchExtractURLs/b.Elapsed().Seconds(), "urls/s")
	b.ReportMetric(cpu.Seconds()/runs*1000/benchExtractURLs, "cpu-s/1000urls")
	b.ReportMetric(0, "ns/op") // one op is a whole 1,000-URL request: urls/s says it better
}

// cpuTime is the user and system CPU this process has used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
