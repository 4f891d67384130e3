package app

import (
	"os"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/storagetest"
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
//   - new: every request is 1,000 URLs the catalog has never seen (inserts).
//   - again: the same 1,000 URLs, already in the catalog and unchanged (a refresh).
//
// Figures: urls/s; cpu-s/1000urls, the user+system CPU of this process (service and demo
// stores) per 1,000 URLs; and db-cpu-s/1000urls, that of its child processes (the test
// Postgres and ClickHouse, which share the same cores; reported when the test starts its
// own databases, not under `make bench`).
//
//	go test -run '^$' -bench Extract -benchtime 3x ./cmd/stockroom/app
func BenchmarkExtract(b *testing.B) {
	b.Run("new", func(b *testing.B) { benchExtract(b, true) })
	b.Run("again", func(b *testing.B) { benchExtract(b, false) })
}

func benchExtract(b *testing.B, fresh bool) {
	per := benchExtractURLs/3 + 1
	requests := b.N
	if !fresh {
		requests = 1
	}
	s := newStack(b,
		demostore.Options{Kind: demostore.Shopify, Products: per * requests},
		demostore.Options{Kind: demostore.JSONLD, Products: per * requests},
		demostore.Options{Kind: demostore.HTML, Products: per * requests})
	urls := make([][]string, requests)
	for k := range urls {
		for i := 0; len(urls[k]) < benchExtractURLs; i++ {
			st := s.fleet.Stores[i%len(s.fleet.Stores)]
			urls[k] = append(urls[k], st.URL(st.ProductPath(k*per+i/len(s.fleet.Stores))))
		}
	}
	extract := func(urls []string) {
		r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
		if r.status != 202 {
			b.Fatalf("start: %d %s", r.status, r.raw)
		}
		status := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=1", 5*time.Minute)
		if ok := field(status, "meta", "result", "products_successful"); ok != float64(len(urls)) {
			b.Fatalf("%v of %d URLs extracted: %v", ok, len(urls), field(status, "meta", "result"))
		}
	}
	if !fresh {
		extract(urls[0]) // into the catalog, unmeasured
	}

	var cpu, dbCPU time.Duration
	b.ResetTimer()
	for n := range b.N {
		before, dbBefore := storagetest.ProcessCPU(), descendantsCPU()
		extract(urls[n%requests])
		cpu += storagetest.ProcessCPU() - before
		dbCPU += descendantsCPU() - dbBefore
	}
	b.StopTimer()
	runs := float64(b.N)
	b.ReportMetric(runs*benchExtractURLs/b.Elapsed().Seconds(), "urls/s")
	b.ReportMetric(cpu.Seconds()/runs*1000/benchExtractURLs, "cpu-s/1000urls")
	if os.Getenv("DATABASE_URL") == "" {
		// Only databases the test started itself are its children (storagetest); under
		// `make bench` they belong to `stockroom local exec`.
		b.ReportMetric(dbCPU.Seconds()/runs*1000/benchExtractURLs, "db-cpu-s/1000urls")
	}
	b.ReportMetric(0, "ns/op") // one op is a whole 1,000-URL request: urls/s says it better
}

// descendantsCPU is the user and system CPU used so far by the live descendants of this
// process (0 where /proc does not exist).
func descendantsCPU() time.Duration {
	procs := storagetest.LiveProcesses()
	self := os.Getpid()
	var total time.Duration
	for _, st := range procs {
		for p := st.Parent; p > 1; p = procs[p].Parent {
			if p == self {
				total += st.CPU
				break
			}
		}
	}
	return total
}
