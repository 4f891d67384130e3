package app

import (
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A 1,000-URL extraction spread over 50 hosts keeps the politeness bound of each host
// (fetch.max_concurrent_per_host) and the extraction's own bound (extract.concurrency),
// as the stores themselves count the requests they answer at once; and the hosts are
// served side by side, not one after another.
func TestManyHostsKeepPerHostAndOverallConcurrencyBounds(t *testing.T) {
	const (
		hosts, perHost = 50, 20
		maxPerHost     = 2
		concurrency    = 8
	)
	opts := make([]demostore.Options, hosts)
	for i := range opts {
		// Latency keeps requests in flight long enough for the bounds to be reached.
		opts[i] = demostore.Options{Kind: demostore.JSONLD, Products: perHost, Seed: uint64(i),
			Faults: demostore.Faults{Latency: 20 * time.Millisecond}}
	}
	s := newStackWith(t, []string{"STOCKROOM_FETCH__MAX_CONCURRENT_PER_HOST=2", "STOCKROOM_EXTRACT__CONCURRENCY=8"}, opts...)
	fleet := s.fleet
	seen := map[string]bool{}
	var urls []string
	for k := range perHost {
		for _, st := range fleet.Stores {
			host := st.BaseURL[:strings.LastIndexByte(st.BaseURL, ':')]
			seen[host] = true
			urls = append(urls, st.URL(st.ProductPath(k)))
		}
	}
	if len(seen) != hosts || len(urls) != 1000 {
		t.Fatalf("%d distinct hosts, %d URLs; want 50 and 1000", len(seen), len(urls))
	}

	r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	status := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=1", 5*time.Minute)
	if n := field(status, "meta", "result", "products_successful"); n != 1000.0 {
		t.Fatalf("%v of 1000 extracted: %v", n, field(status, "meta", "result"))
	}
	for _, st := range fleet.Stores {
		s := st.Stats()
		if s.MaxInFlight > maxPerHost {
			t.Errorf("%s answered %d requests at once, over fetch.max_concurrent_per_host %d", st.BaseURL, s.MaxInFlight, maxPerHost)
		}
		if pages := s.ByRoute[demostore.RouteProductPage]; pages != perHost {
			t.Errorf("%s served %d product pages, want each of its %d once", st.BaseURL, pages, perHost)
		}
	}
	overall := fleet.MaxInFlight()
	if overall > concurrency {
		t.Errorf("the stores answered %d requests at once, over extract.concurrency %d", overall, concurrency)
	}
	if overall <= maxPerHost {
		t.Errorf("at most %d requests at once over 50 hosts: the hosts were not served side by side", overall)
	}
	t.Logf("most requests at once: %d overall (bound %d)", overall, concurrency)
}

// Progress is live: polled while an extraction runs, the processed count climbs through
// intermediate values, never goes back, and ends at the total.
func TestExtractionProgressIsLiveWhileRunning(t *testing.T) {
	const products = 60
	// 100 ms per page at two requests at once: at least 3 s of work.
	s := newStack(t, demostore.Options{Kind: demostore.JSONLD, Products: products, Faults: demostore.Faults{Latency: 100 * time.Millisecond}})
	st := s.fleet.Get(demostore.JSONLD)
	var urls []string
	for i := range products {
		urls = append(urls, st.URL(st.ProductPath(i)))
	}
	r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	path := "/v2/extract/" + r.body["execution_id"].(string) + "?page_size=1"
	last, between := 0, 0
	deadline := time.Now().Add(2 * time.Minute)
	for {
		b := s.do("GET", path, nil).body
		n := num(field(b, "meta", "progress", "products_processed"))
		if n < last {
			t.Fatalf("progress went back from %d to %d", last, n)
		}
		last = n
		if b["status"] == "completed" {
			break
		}
		if b["status"] == "running" && n > 0 && n < products {
			between++
		}
		if time.Now().After(deadline) {
			t.Fatalf("not completed after 2 minutes: %v", b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if last != products {
		t.Errorf("completed with %d of %d processed", last, products)
	}
	if between == 0 {
		t.Error("no poll saw the extraction part way: progress is not reported while it runs")
	}
}
