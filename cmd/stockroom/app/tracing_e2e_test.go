package app

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// otlpReceiver is an OTLP/HTTP trace receiver on loopback that keeps the spans it is sent.
type otlpReceiver struct {
	*httptest.Server
	mu       sync.Mutex
	exports  int
	services map[string]bool
	spans    []*tracepb.Span
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{services: map[string]bool{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		var export coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &export)
		}
		if req.URL.Path != "/v1/traces" || err != nil {
			t.Errorf("receiver: %s %s: %v", req.Method, req.URL.Path, err)
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.exports++
		for _, rs := range export.GetResourceSpans() {
			if name, ok := attributeOf(rs.GetResource().GetAttributes(), "service.name"); ok {
				r.services[name.GetStringValue()] = true
			}
			for _, ss := range rs.GetScopeSpans() {
				r.spans = append(r.spans, ss.GetSpans()...)
			}
		}
		r.mu.Unlock()
		reply, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(reply)
	}))
	t.Cleanup(r.Close)
	return r
}

// received returns the spans received so far and the number of exports.
func (r *otlpReceiver) received() ([]*tracepb.Span, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...), r.exports
}

func attributeOf(attrs []*commonpb.KeyValue, key string) (*commonpb.AnyValue, bool) {
	for _, kv := range attrs {
		if kv.GetKey() == key {
			return kv.GetValue(), true
		}
	}
	return nil, false
}

// startCrawlTraced starts a v2 crawl of url with a traceparent header and returns its id.
func (s *stack) startCrawlTraced(url, traceparent string) string {
	s.t.Helper()
	req, err := http.NewRequest("POST", s.base+"/v2/crawl", strings.NewReader(`{"url":"`+url+`"}`))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", s.key)
	req.Header.Set("traceparent", traceparent)
	resp, err := conformingClient(s.t).Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode}
	r.raw, _ = io.ReadAll(resp.Body)
	if r.status != 202 {
		s.t.Fatalf("start crawl of %s: %d %s", url, r.status, r.raw)
	}
	var started struct {
		ExecutionID string `json:"execution_id"`
	}
	if err := json.Unmarshal(r.raw, &started); err != nil || started.ExecutionID == "" {
		s.t.Fatalf("start crawl of %s: %s", url, r.raw)
	}
	return started.ExecutionID
}

// jobMetadata is the River metadata of the job of execution id.
func (s *stack) jobMetadata(id string) string {
	s.t.Helper()
	var metadata string
	err := s.svc.pool.QueryRow(s.t.Context(),
		`SELECT metadata::text FROM river_job WHERE args->>'execution_id' = $1 ORDER BY id LIMIT 1`, id).Scan(&metadata)
	if err != nil {
		s.t.Fatalf("job of %s: %v", id, err)
	}
	return metadata
}

const (
	callerTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpanID  = "00f067aa0ba902b7"
)

// With tracing on, a crawl started with a traceparent header is one trace at the OTLP
// receiver: the API request's server span, a child of the caller's span; the execution's
// job, a child of the request's span through the trace context kept with the job; each
// fetch a client span under the job, with its host, status and size, and the waits for
// the store's politeness as events; the adapter calls under the job too.
func TestTracingFollowsACrawlFromTheRequestToItsFetches(t *testing.T) {
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100") // export every 100 ms rather than every 5 s
	receiver := newOTLPReceiver(t)
	ctx := t.Context()
	fleet, err := demostore.Launch(ctx, demostore.Options{Kind: demostore.Shopify, Products: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	shop := fleet.Get(demostore.Shopify)
	// The store is fetched with the usual politeness (a short delay), so that requests wait.
	base, key, svc := serve(ctx, t, "STOCKROOM_FETCH__ALLOW="+strings.TrimPrefix(shop.BaseURL, "http://"), "STOCKROOM_FETCH__DELAY=20ms",
		"STOCKROOM_TRACING__ENABLED=true", "STOCKROOM_TRACING__ENDPOINT="+receiver.URL+"/v1/traces",
		"STOCKROOM_TRACING__SERVICE_NAME=stockroom-e2e")
	s := &stack{t: t, base: base, key: key, fleet: fleet, svc: svc}

	id := s.startCrawlTraced(shop.BaseURL, "00-"+callerTraceID+"-"+callerSpanID+"-01")
	if body := s.waitEnded("/v2/crawl/"+id, time.Minute); body["status"] != "completed" {
		t.Fatalf("crawl: %v", body)
	}
	if metadata := s.jobMetadata(id); !strings.Contains(metadata, callerTraceID) {
		t.Errorf("the job's metadata keeps no trace context of the request: %s", metadata)
	}

	// The job's span ends with the job, a little after the execution's status says so.
	var request, job *tracepb.Span
	var fetches, adapterCalls []*tracepb.Span
	var all []*tracepb.Span
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		all, _ = receiver.received()
		request, job, fetches, adapterCalls = nil, nil, nil, nil
		for _, span := range all {
			if hex.EncodeToString(span.GetTraceId()) != callerTraceID {
				continue
			}
			switch {
			case span.GetName() == "POST /v2/crawl":
				request = span
			case span.GetName() == "execution crawl":
				job = span
			case span.GetKind() == tracepb.Span_SPAN_KIND_CLIENT:
				fetches = append(fetches, span)
			case strings.HasPrefix(span.GetName(), "adapter "):
				adapterCalls = append(adapterCalls, span)
			}
		}
		if request != nil && job != nil && len(fetches) > 0 {
			break
		}
	}
	if request == nil || job == nil || len(fetches) == 0 {
		t.Fatalf("in the caller's trace: request span %v, job span %v, %d fetch spans (of %d spans received)", request != nil, job != nil, len(fetches), len(all))
	}
	if receiver.services["stockroom-e2e"] != true {
		t.Errorf("service names received: %v", receiver.services)
	}

	if got := hex.EncodeToString(request.GetParentSpanId()); got != callerSpanID {
		t.Errorf("request span's parent: %s, want the caller's %s", got, callerSpanID)
	}
	if request.GetKind() != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("request span's kind: %v", request.GetKind())
	}
	for key, want := range map[string]string{"http.route": "/v2/crawl", "http.request.method": "POST"} {
		if v, _ := attributeOf(request.GetAttributes(), key); v.GetStringValue() != want {
			t.Errorf("request span's %s: %v, want %s", key, v, want)
		}
	}
	if v, _ := attributeOf(request.GetAttributes(), "http.response.status_code"); v.GetIntValue() != 202 {
		t.Errorf("request span's status: %v", v)
	}

	if !bytes.Equal(job.GetParentSpanId(), request.GetSpanId()) {
		t.Errorf("job span's parent: %x, want the request's span %x", job.GetParentSpanId(), request.GetSpanId())
	}
	if v, _ := attributeOf(job.GetAttributes(), "stockroom.execution.id"); v.GetStringValue() != id {
		t.Errorf("job span's execution: %v, want %s", v, id)
	}

	waited, fetchedPages := 0, 0
	storeHost := hostOf(shop.BaseURL)
	for _, f := range fetches {
		if !bytes.Equal(f.GetParentSpanId(), job.GetSpanId()) {
			t.Errorf("fetch span %s is not a child of the job's", f.GetName())
		}
		if v, _ := attributeOf(f.GetAttributes(), "server.address"); v.GetStringValue() != storeHost {
			t.Errorf("fetch span's host: %v, want %s", v, storeHost)
		}
		status, _ := attributeOf(f.GetAttributes(), "http.response.status_code")
		size, _ := attributeOf(f.GetAttributes(), "http.response.body.size")
		outcome, _ := attributeOf(f.GetAttributes(), "stockroom.fetch.outcome")
		if status.GetIntValue() == 200 && size.GetIntValue() > 0 && outcome.GetStringValue() == "ok" {
			fetchedPages++
		}
		for _, e := range f.GetEvents() {
			if e.GetName() == "politeness wait" {
				waited++
			}
		}
	}
	if fetchedPages == 0 {
		t.Errorf("no fetch span of %d says 200, ok, with a body", len(fetches))
	}
	if waited == 0 {
		t.Errorf("no fetch span of %d notes a politeness wait", len(fetches))
	}
	if len(adapterCalls) == 0 {
		t.Errorf("no adapter call spans in the trace")
	}
	for _, a := range adapterCalls {
		if !bytes.Equal(a.GetParentSpanId(), job.GetSpanId()) {
			t.Errorf("adapter span %s is not a child of the job's", a.GetName())
		}
	}
}

// With tracing off (the default), nothing is exported, even when the exporter's standard
// variable names a receiver and the caller sends a traceparent, and the job keeps no
// trace context.
func TestTracingOffExportsNothing(t *testing.T) {
	receiver := newOTLPReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.URL)
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	s := newStackWith(t, []string{"STOCKROOM_TRACING__ENDPOINT=" + receiver.URL + "/v1/traces"},
		demostore.Options{Kind: demostore.Shopify, Products: 40})
	if s.svc.tracing != nil {
		t.Fatal("tracing is set up while tracing.enabled is false")
	}
	id := s.startCrawlTraced(s.fleet.Get(demostore.Shopify).BaseURL, "00-"+callerTraceID+"-"+callerSpanID+"-01")
	if body := s.waitEnded("/v2/crawl/"+id, time.Minute); body["status"] != "completed" {
		t.Fatalf("crawl: %v", body)
	}
	if metadata := s.jobMetadata(id); strings.Contains(metadata, "trace") {
		t.Errorf("the job keeps a trace context with tracing off: %s", metadata)
	}
	// Several export intervals pass.
	time.Sleep(time.Second)
	if spans, exports := receiver.received(); exports != 0 || len(spans) != 0 {
		t.Errorf("with tracing off the receiver got %d exports, %d spans", exports, len(spans))
	}
}
