package app

import (
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A page that never answers in time is a transient failure: outcome other, retry true,
// after the execution's own attempts, while the rest of the request succeeds.
func TestExtractionReportsATimeoutAsOther(t *testing.T) {
	s := newStackWith(t, []string{
		"STOCKROOM_FETCH__REQUEST_TIMEOUT=300ms",
		"STOCKROOM_FETCH__TOTAL_TIMEOUT=1s",
		"STOCKROOM_FETCH__MAX_ATTEMPTS=1",
		"STOCKROOM_EXTRACT__ATTEMPTS=2",
	}, demostore.Options{Kind: demostore.Shopify, Products: 10, Faults: demostore.Faults{SlowDelay: 10 * time.Second}})
	shop := s.fleet.Stores[0]
	slow, fine := shop.URL("/products/"+demostore.HandleSlow), shop.URL(shop.ProductPath(2))

	r := s.do("POST", "/v1/products", map[string]any{"urls": []string{slow, fine}})
	if r.status != 200 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	body := s.waitEnded("/v1/products/"+r.body["execution_id"].(string), time.Minute)
	items, _ := field(body, "results", "products").([]any)
	if len(items) != 2 {
		t.Fatalf("results: %s", body)
	}
	timedOut, ok := items[0].(map[string]any), items[1].(map[string]any)
	if timedOut["outcome"] != "other" || timedOut["retry"] != true || timedOut["success"] != false || timedOut["message"] == "" {
		t.Errorf("slow page reported as %v", timedOut)
	}
	if ok["outcome"] != "success" {
		t.Errorf("the other URL: %v", ok)
	}
	meta := field(body, "results", "meta").(map[string]any)
	if num(meta["total_failed"]) != 1 || num(field(meta, "total_failed_by_reason", "other")) != 1 || num(meta["total_successful"]) != 1 {
		t.Errorf("meta %v", meta)
	}
}

// Cancel stops a running extraction: status failed with error "canceled", the work done is
// kept, a second cancel is 409, and no URL is fetched after the cancel has been seen.
func TestCancelStopsARunningExtraction(t *testing.T) {
	s := newStackWith(t, []string{"STOCKROOM_EXTRACT__CONCURRENCY=2"},
		demostore.Options{Kind: demostore.Shopify, Products: 200, Faults: demostore.Faults{Latency: 100 * time.Millisecond}})
	shop := s.fleet.Stores[0]
	urls := make([]string, 200)
	for i := range urls {
		urls[i] = shop.URL(shop.ProductPath(i))
	}
	r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	id := r.body["execution_id"].(string)
	deadline := time.Now().Add(time.Minute)
	for {
		st := s.do("GET", "/v2/extract/"+id, nil)
		if st.body["status"] == "running" && num(field(st.body, "meta", "progress", "products_processed")) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never running with progress: %s", st.raw)
		}
		time.Sleep(50 * time.Millisecond)
	}

	c := s.do("DELETE", "/v2/extract/"+id, nil)
	if c.status != 200 || c.body["status"] != "canceled" || c.body["execution_id"] != id || c.body["stop_date"] == nil {
		t.Fatalf("cancel: %d %s", c.status, c.raw)
	}
	if again := s.do("DELETE", "/v2/extract/"+id, nil); again.status != 409 || !strings.Contains(string(again.raw), "EXECUTION_NOT_RUNNING") {
		t.Errorf("second cancel: %d %s", again.status, again.raw)
	}
	body := s.waitEnded("/v2/extract/"+id, 10*time.Second)
	if body["status"] != "failed" || body["error"] != "canceled" {
		t.Fatalf("after cancel: %v", body)
	}
	result := field(body, "meta", "result").(map[string]any)
	done := num(result["products_successful"])
	if done == 0 || done == len(urls) || num(result["products_pending"]) == 0 {
		t.Errorf("work kept after cancel: %v", result)
	}

	// Within a couple of report intervals the runner has stopped: the store sees no more
	// product requests.
	time.Sleep(3 * time.Second)
	before := shop.Stats().Requests
	time.Sleep(2 * time.Second)
	if after := shop.Stats().Requests; after != before {
		t.Errorf("%d requests reached the store after the cancel had settled", after-before)
	}
}
