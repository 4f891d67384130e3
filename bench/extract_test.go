package bench

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// BenchmarkVendorJob is issue 41's job at the politeness of a real host (a request a
// second, no no_delay_hosts): crawl a store, then extract the vendor, then crawl it again
// unchanged, counting the requests the store answered and the wall time of each step. The
// stores: the Shopify-like one (10,000 products), whose collection JSON holds whole
// products, and the JSON-LD one (2,000), whose category pages show less than a product.
//
// BENCH_BASELINE_BIN names another build (main's, before issue 41) measured the same way
// right after, on a store of the same size. That build fetches every product's documents,
// so that at a request a second it would take hours: its extraction stops after
// BENCH_BASELINE_PRODUCTS products (default 100), and its line projects the whole job from
// them. BENCH_SHOPIFY_PRODUCTS and BENCH_JSONLD_PRODUCTS change the stores' sizes.
func BenchmarkVendorJob(b *testing.B) {
	stores := []struct {
		name string
		opts demostore.Options
		// perProduct is the bar of the whole job's requests a product; maxWall of its
		// time (0: none).
		perProduct float64
		maxWall    time.Duration
	}{
		{"shopify", demostore.Options{Kind: demostore.Shopify, Products: envInt(b, "BENCH_SHOPIFY_PRODUCTS", 10_000)}, 0.02, 5 * time.Minute},
		{"jsonld", demostore.Options{Kind: demostore.JSONLD, Products: envInt(b, "BENCH_JSONLD_PRODUCTS", 2_000)}, 1.05, 0},
	}
	type build struct {
		name   string
		bin    string
		sample int // products the extraction stops after; 0: all
	}
	builds := []build{{"this", stockroomBin(b), 0}}
	if bin := os.Getenv("BENCH_BASELINE_BIN"); bin != "" {
		builds = append(builds, build{"baseline", bin, envInt(b, "BENCH_BASELINE_PRODUCTS", 100)})
	}
	for _, s := range stores {
		for _, bd := range builds {
			b.Run(s.name+"/"+bd.name, func(b *testing.B) {
				var job vendorJob
				for i := 0; i < b.N; i++ {
					job = runVendorJob(b, bd.bin, s.opts, bd.sample)
				}
				job.report(b)
				verdict := ""
				if bd.sample == 0 {
					met := job.perProduct() <= s.perProduct && (s.maxWall == 0 || job.wall() < s.maxWall)
					verdict = fmt.Sprintf(" Bar (at most %.2f requests a product", s.perProduct)
					if s.maxWall > 0 {
						verdict += fmt.Sprintf(", under %s", s.maxWall)
					}
					verdict += map[bool]string{true: "): met", false: "): not met"}[met]
				}
				// Printed: a benchmark that runs others shows its log only under -v.
				fmt.Printf("%s/%s: %s.%s\n", s.name, bd.name, job, verdict)
			})
		}
	}
}

// vendorJob is what one crawl, extraction and recrawl cost.
type vendorJob struct {
	products int // in the store
	// sampled is the products the extraction was limited to; 0: all of them.
	sampled                   int
	crawlRequests             int64
	crawlWall                 time.Duration
	extractRequests           int64
	extractWall               time.Duration
	successful, failed        int
	recrawlRequests           int64
	recrawlWall               time.Duration
	recrawlListings, listings int
}

// extracted is the products the extraction was asked for.
func (j vendorJob) extracted() int {
	if j.sampled > 0 {
		return j.sampled
	}
	return j.products
}

// wholeExtraction scales a sampled extraction's figures to the whole catalog.
func (j vendorJob) wholeExtraction() (requests float64, wall time.Duration) {
	scale := float64(j.products) / float64(j.extracted())
	return float64(j.extractRequests) * scale, time.Duration(float64(j.extractWall) * scale)
}

// perProduct is the whole job's requests (crawl and extraction) a product.
func (j vendorJob) perProduct() float64 {
	requests, _ := j.wholeExtraction()
	return (float64(j.crawlRequests) + requests) / float64(j.products)
}

// wall is the whole job's wall time (crawl and extraction).
func (j vendorJob) wall() time.Duration {
	_, wall := j.wholeExtraction()
	return j.crawlWall + wall
}

func (j vendorJob) String() string {
	s := fmt.Sprintf("%d products; crawl %d requests in %s (%d listings); extraction of %d products %d requests in %s (%d successful, %d failed)",
		j.products, j.crawlRequests, j.crawlWall.Round(time.Second), j.listings, j.extracted(), j.extractRequests,
		j.extractWall.Round(time.Second), j.successful, j.failed)
	if j.sampled > 0 {
		s += fmt.Sprintf("; projected to the whole catalog: %.3f requests a product, %s", j.perProduct(), j.wall().Round(time.Minute))
	} else {
		s += fmt.Sprintf("; whole job %.4f requests a product in %s; unchanged recrawl %d requests in %s",
			j.perProduct(), j.wall().Round(time.Second), j.recrawlRequests, j.recrawlWall.Round(time.Second))
	}
	return s
}

func (j vendorJob) report(b *testing.B) {
	b.ReportMetric(j.perProduct(), "requests/product")
	b.ReportMetric(j.wall().Seconds(), "job-s")
	b.ReportMetric(float64(j.crawlRequests), "crawl-requests")
	b.ReportMetric(j.crawlWall.Seconds(), "crawl-s")
	b.ReportMetric(float64(j.extractRequests), "extract-requests")
	b.ReportMetric(j.extractWall.Seconds(), "extract-s")
	if j.sampled == 0 {
		b.ReportMetric(float64(j.recrawlRequests), "recrawl-requests")
		b.ReportMetric(j.recrawlWall.Seconds(), "recrawl-s")
	}
}

// runVendorJob crawls a new store of opts with bin's server at a real host's politeness,
// extracts the vendor (at most sample products when sample > 0), and, extracting all of
// it, crawls it again.
func runVendorJob(b *testing.B, bin string, opts demostore.Options, sample int) vendorJob {
	st := launch(b, opts)
	base, err := url.Parse(st.base)
	if err != nil {
		b.Fatal(err)
	}
	srv := startServer(b, bin, base.Host, true)
	job := vendorJob{products: opts.Products, sampled: sample}

	before := st.stats(b)
	crawl := srv.awaitEnded("/v2/crawl/", srv.post("/v2/crawl", map[string]any{"url": st.base}))
	job.crawlWall = crawl.wall
	job.listings = int(crawl.body["meta"].(map[string]any)["result"].(map[string]any)["listings_total"].(float64))
	afterCrawl := st.stats(b)
	job.crawlRequests = afterCrawl.Requests - before.Requests - 1 // less the stats request

	request := map[string]any{"vendor": base.Hostname()}
	if sample > 0 {
		request["max_products"] = sample
	}
	extract := srv.awaitEnded("/v2/extract/", srv.post("/v2/extract", request))
	job.extractWall = extract.wall
	result := extract.body["meta"].(map[string]any)["result"].(map[string]any)
	job.successful, job.failed = int(result["products_successful"].(float64)), int(result["products_failed"].(float64))
	afterExtract := st.stats(b)
	job.extractRequests = afterExtract.Requests - afterCrawl.Requests - 1
	if sample > 0 {
		return job
	}

	recrawl := srv.awaitEnded("/v2/crawl/", srv.post("/v2/crawl", map[string]any{"url": st.base}))
	job.recrawlWall = recrawl.wall
	job.recrawlRequests = st.stats(b).Requests - afterExtract.Requests - 1
	return job
}

// ended is an execution's last status and how long it ran.
type ended struct {
	body map[string]any
	wall time.Duration
}

// awaitEnded polls the execution a start answer names, under statusPath, once a second
// until it has ended; it fails the benchmark when the execution failed. The wall time runs
// from the start answer to the execution's stop_date.
func (s *server) awaitEnded(statusPath string, start map[string]any) ended {
	began := time.Now()
	id, ok := start["execution_id"].(string)
	if !ok {
		s.b.Fatalf("start: %v", start)
	}
	for {
		body := s.get(statusPath + id)
		switch body["status"] {
		case "completed":
			stop, err := time.Parse(time.RFC3339Nano, body["meta"].(map[string]any)["stop_date"].(string))
			if err != nil {
				s.b.Fatal(err)
			}
			return ended{body: body, wall: stop.Sub(began)}
		case "failed":
			s.b.Fatalf("%s%s failed: %v", statusPath, id, body["error"])
		}
		time.Sleep(time.Second)
	}
}

func envInt(b *testing.B, name string, fallback int) int {
	v := os.Getenv(name)
	if v == "" {
		return fallback
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}
