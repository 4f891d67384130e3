package tracing

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/propagation"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/stockroom/stockroom/core/adapter"
)

// receiver is an OTLP/HTTP trace receiver on loopback that keeps the spans it is sent.
func receiver(t *testing.T) (url string, spans func() map[string]*tracepb.Span) {
	t.Helper()
	var mu sync.Mutex
	got := map[string]*tracepb.Span{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var export coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &export); err != nil || r.URL.Path != "/v1/traces" {
			t.Errorf("receiver: %s: %v", r.URL.Path, err)
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		mu.Lock()
		for _, rs := range export.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				for _, s := range ss.GetSpans() {
					got[s.GetName()] = s
				}
			}
		}
		mu.Unlock()
		reply, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		_, _ = w.Write(reply)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() map[string]*tracepb.Span {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// With no endpoint configured, the exporter reads the standard OTEL_EXPORTER_OTLP_ENDPOINT;
// a job continues the trace its context carries, and its fetches and adapter calls are
// its children, with their outcome.
func TestSpansReachTheStandardEndpointAsOneTree(t *testing.T) {
	url, spans := receiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", url)
	tr, err := NewOTLP(context.Background(), Config{SampleRatio: 1, ServiceName: "test"})
	if err != nil {
		t.Fatal(err)
	}
	fetcher := tr.Fetcher(adapter.FetcherFunc(func(ctx context.Context, url string) (*adapter.Document, error) {
		return &adapter.Document{URL: url, Status: 404, Body: []byte("gone")}, nil
	}))
	handle := Job(tr, "crawl", func(ctx context.Context, id string) error {
		if _, err := fetcher.Fetch(ctx, "http://shop.example:8080/a"); err != nil {
			return err
		}
		return errors.New("the store vanished")
	})
	caller := propagation.TraceContext{}.Extract(context.Background(), propagation.MapCarrier{
		"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
	if err := handle(caller, "crawl-1"); err == nil {
		t.Fatal("the job's error was lost")
	}
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	got := spans()
	job, fetch := got["execution crawl"], got["GET"]
	if job == nil || fetch == nil {
		t.Fatalf("spans received: %v", got)
	}
	if string(job.GetParentSpanId()) != "\x00\xf0\x67\xaa\x0b\xa9\x02\xb7" {
		t.Errorf("job's parent: %x, want the caller's span", job.GetParentSpanId())
	}
	if job.GetStatus().GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("failed job's status: %v", job.GetStatus())
	}
	if string(fetch.GetParentSpanId()) != string(job.GetSpanId()) || string(fetch.GetTraceId()) != string(job.GetTraceId()) {
		t.Errorf("fetch is not the job's child")
	}
	want := map[string]any{"server.address": "shop.example", "http.response.status_code": int64(404),
		"http.response.body.size": int64(4), "stockroom.fetch.outcome": "client_error"}
	for _, kv := range fetch.GetAttributes() {
		if w, ok := want[kv.GetKey()]; ok {
			var v any = kv.GetValue().GetStringValue()
			if _, isInt := w.(int64); isInt {
				v = kv.GetValue().GetIntValue()
			}
			if v != w {
				t.Errorf("fetch's %s: %v, want %v", kv.GetKey(), v, w)
			}
			delete(want, kv.GetKey())
		}
	}
	if len(want) > 0 {
		t.Errorf("fetch span lacks %v", want)
	}
}

// oneDocument answers every URL with the same document.
type oneDocument struct{ doc *adapter.Document }

func (o oneDocument) Fetch(context.Context, string) (*adapter.Document, error) { return o.doc, nil }

// A nil Tracing traces nothing and hands back the fetcher it was given.
func TestNilTracingWrapsNothing(t *testing.T) {
	var tr *Tracing
	f := oneDocument{doc: &adapter.Document{Status: 200}}
	if got := tr.Fetcher(f); got != adapter.Fetcher(f) {
		t.Errorf("a nil Tracing wrapped the fetcher: %T", got)
	}
	if tr.Tracer() != nil || tr.Shutdown(context.Background()) != nil {
		t.Error("a nil Tracing has a tracer or fails to shut down")
	}
}
