package app

import (
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// scrape reads the service's /metrics in the Prometheus text format.
func scrape(t *testing.T, s *stack) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(s.svc.MetricsURL())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// sample sums the samples of family whose labels include every pair of labels ("name",
// "value", ...): a counter's or gauge's value, a histogram's count. present is false when
// the family is not exported at all.
func sample(families map[string]*dto.MetricFamily, family string, labels ...string) (value float64, present bool) {
	f, ok := families[family]
	if !ok {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			value += m.Counter.GetValue()
		case m.Gauge != nil:
			value += m.Gauge.GetValue()
		case m.Histogram != nil:
			value += float64(m.Histogram.GetSampleCount())
		}
	}
	return value, true
}

func hasLabels(m *dto.Metric, labels []string) bool {
	for i := 0; i+1 < len(labels); i += 2 {
		found := false
		for _, l := range m.GetLabel() {
			if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Every family of GET /metrics is exported, and moves when its event happens: API
// requests, a crawl's execution and job, its fetches (politely paced, so that they wait),
// its adapter calls, the usage events delivered to ClickHouse, the Postgres pool. The
// endpoint is on a listener of its own, without a key.
func TestMetricsMoveWithWhatTheServiceDoes(t *testing.T) {
	ctx := t.Context()
	fleet, err := demostore.Launch(ctx, demostore.Options{Kind: demostore.Shopify, Products: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	shop := fleet.Get(demostore.Shopify)
	host := strings.TrimPrefix(shop.BaseURL, "http://")
	// The store is fetched with the usual politeness (a short delay), so that requests wait.
	base, key, svc := serve(ctx, t, "STOCKROOM_FETCH__ALLOW="+host, "STOCKROOM_FETCH__DELAY=20ms",
		"STOCKROOM_USAGE__FLUSH_INTERVAL=100ms")
	s := &stack{t: t, base: base, key: key, fleet: fleet, svc: svc}

	// The families read at scrape time are there from the start; the others appear with
	// their first event, and are checked below.
	before := scrape(t, s)
	for _, family := range []string{
		"stockroom_queue_jobs",
		"stockroom_postgres_pool_acquired_connections", "stockroom_postgres_pool_idle_connections",
		"stockroom_postgres_pool_total_connections", "stockroom_postgres_pool_max_connections",
		"stockroom_postgres_pool_acquires_total", "stockroom_postgres_pool_empty_acquires_total",
		"stockroom_postgres_pool_acquire_wait_seconds_total",
		"stockroom_usage_events_queued", "stockroom_usage_events_spooled", "stockroom_usage_events_delivered_total",
		"stockroom_usage_events_dropped_total", "stockroom_usage_delivery_lag_seconds", "stockroom_usage_delivery_failing",
		"go_goroutines", "process_cpu_seconds_total",
	} {
		if _, ok := sample(before, family); !ok {
			t.Errorf("family %s is not exported", family)
		}
	}
	if v, _ := sample(before, "stockroom_queue_jobs", "queue", "crawl", "state", "available"); v != 0 {
		t.Errorf("crawl queue holds %v jobs before any crawl", v)
	}

	body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute)
	if body["status"] != "completed" {
		t.Fatalf("crawl: %v", body)
	}
	if r := s.do("GET", "/v2/vendors", nil); r.status != 200 {
		t.Fatalf("vendors: %d", r.status)
	}
	// Usage events reach ClickHouse within a flush or two.
	var after map[string]*dto.MetricFamily
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		after = scrape(t, s)
		delivered, _ := sample(after, "stockroom_usage_events_delivered_total")
		if delivered > 0 || time.Now().After(deadline) {
			break
		}
	}

	for _, c := range []struct {
		family string
		labels []string
	}{
		{"stockroom_http_requests_total", []string{"route", "/v2/vendors", "method", "GET", "status", "200"}},
		{"stockroom_http_requests_total", []string{"route", "/v2/crawl", "method", "POST", "status", "202"}},
		{"stockroom_http_request_duration_seconds", []string{"route", "/v2/crawl/{execution_id}", "method", "GET"}},
		{"stockroom_executions_started_total", []string{"kind", "crawl"}},
		{"stockroom_executions_finished_total", []string{"kind", "crawl", "status", "completed"}},
		{"stockroom_job_duration_seconds", []string{"kind", "crawl"}},
		{"stockroom_fetches_total", []string{"outcome", "ok", "host_class", "polite"}},
		{"stockroom_fetch_body_bytes_total", []string{"host_class", "polite"}},
		{"stockroom_fetch_duration_seconds", []string{"host_class", "polite"}},
		{"stockroom_fetch_politeness_waits_total", []string{"host_class", "polite"}},
		{"stockroom_fetch_politeness_wait_seconds_total", []string{"host_class", "polite"}},
		{"stockroom_adapter_calls_total", []string{"adapter", "shopify", "op", "list", "result", "ok"}},
		{"stockroom_adapter_call_duration_seconds", []string{"adapter", "shopify", "op", "discover"}},
		{"stockroom_usage_events_delivered_total", nil},
		{"stockroom_postgres_pool_acquires_total", nil},
	} {
		was, _ := sample(before, c.family, c.labels...)
		now, ok := sample(after, c.family, c.labels...)
		if !ok || now <= was {
			t.Errorf("%s%v: %v before, %v after (exported: %v)", c.family, c.labels, was, now, ok)
		}
	}
	if running, ok := sample(after, "stockroom_executions_running", "kind", "crawl"); !ok || running != 0 {
		t.Errorf("crawls running after the crawl ended: %v (exported: %v)", running, ok)
	}
}
