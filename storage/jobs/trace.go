package jobs

import (
	"context"
	"encoding/json"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// traceContext carries a trace from the start of an execution to its job, in the W3C
// Trace Context format (traceparent, tracestate), so that the job's span continues the
// trace of the request that started it, in whichever process works the job.
var traceContext = propagation.TraceContext{}

// jobMetadata is what a job keeps in River's metadata beside its arguments.
type jobMetadata struct {
	Trace map[string]string `json:"trace,omitempty"`
}

// metadataOf is the metadata of a job inserted under ctx: its trace context when ctx
// carries a span (tracing is on), else nil, River's default.
func metadataOf(ctx context.Context) ([]byte, error) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return nil, nil
	}
	carrier := propagation.MapCarrier{}
	traceContext.Inject(ctx, carrier)
	return json.Marshal(jobMetadata{Trace: carrier})
}

// withTraceOf returns ctx carrying the trace context kept in a job's metadata, if any, as
// the parent of the spans the job records.
func withTraceOf(ctx context.Context, metadata []byte) context.Context {
	if len(metadata) <= len("{}") {
		return ctx
	}
	var m jobMetadata
	if err := json.Unmarshal(metadata, &m); err != nil || len(m.Trace) == 0 {
		return ctx
	}
	return traceContext.Extract(ctx, propagation.MapCarrier(m.Trace))
}
