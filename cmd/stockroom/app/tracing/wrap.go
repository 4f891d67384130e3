package tracing

import (
	"context"
	"errors"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/stockroom/stockroom/cmd/stockroom/app/metrics"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/fetch"
)

// The attributes of Stockroom's own that the spans carry, beside the semantic conventions'.
const (
	attrAdapter       = attribute.Key("stockroom.adapter.name")
	attrAdapterOp     = attribute.Key("stockroom.adapter.op")
	attrAdapterResult = attribute.Key("stockroom.adapter.result")
	attrFetchOutcome  = attribute.Key("stockroom.fetch.outcome")
	attrWaitSeconds   = attribute.Key("stockroom.fetch.wait_seconds")
	attrExecutionID   = attribute.Key("stockroom.execution.id")
	attrExecutionKind = attribute.Key("stockroom.execution.kind")
)

// Fetcher returns a Fetcher that records a client span for each of f's fetches: the URL
// and its host, the status, the body's size and the outcome (named as the metrics name
// it), with an event for each wait for the host's politeness.
func (t *Tracing) Fetcher(f adapter.Fetcher) adapter.Fetcher {
	if t == nil {
		return f
	}
	return adapter.FetcherFunc(func(ctx context.Context, rawURL string) (*adapter.Document, error) {
		attrs := []attribute.KeyValue{semconv.HTTPRequestMethodGet, semconv.URLFull(rawURL)}
		if u, err := url.Parse(rawURL); err == nil {
			attrs = append(attrs, semconv.ServerAddress(u.Hostname()))
		}
		ctx, span := t.tracer.Start(ctx, "GET", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		defer span.End()
		if span.IsRecording() {
			ctx = fetch.WithWaitObserver(ctx, func(d time.Duration) {
				span.AddEvent("politeness wait", trace.WithAttributes(attrWaitSeconds.Float64(d.Seconds())))
			})
		}
		doc, err := f.Fetch(ctx, rawURL)
		outcome := metrics.FetchOutcome(doc, err)
		span.SetAttributes(attrFetchOutcome.String(outcome))
		if doc != nil {
			span.SetAttributes(semconv.HTTPResponseStatusCode(doc.Status), semconv.HTTPResponseBodySize(len(doc.Body)))
			if doc.Err != "" {
				span.SetStatus(codes.Error, doc.Err)
			}
		}
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		return doc, err
	})
}

// Adapters returns a Source whose modules record a span for each call. classify names
// the result of a failed call, as for the metrics (plugins/wasm.FailureOf).
func (t *Tracing) Adapters(src adapter.Source, classify func(error) string) adapter.Source {
	if t == nil {
		return src
	}
	return &tracedSource{src: src, tracer: t.tracer, classify: classify}
}

type tracedSource struct {
	src      adapter.Source
	tracer   trace.Tracer
	classify func(error) string
}

func (s *tracedSource) Modules() []adapter.Module {
	mods := s.src.Modules()
	out := make([]adapter.Module, len(mods))
	for i, mod := range mods {
		out[i] = tracedModule{Module: mod, s: s}
	}
	return out
}

// tracedModule is a module whose calls are recorded as spans.
type tracedModule struct {
	adapter.Module
	s *tracedSource
}

func (tm tracedModule) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	name, op := tm.Module.Info().Name, string(req.Op)
	ctx, span := tm.s.tracer.Start(ctx, "adapter "+name+" "+op,
		trace.WithAttributes(attrAdapter.String(name), attrAdapterOp.String(op)))
	defer span.End()
	resp, err := tm.Module.Call(ctx, req)
	switch {
	case err == nil:
		span.SetAttributes(attrAdapterResult.String("ok"))
	case ctx.Err() != nil:
		span.SetAttributes(attrAdapterResult.String("canceled"))
	default:
		span.SetAttributes(attrAdapterResult.String(tm.s.classify(err)))
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	return resp, err
}

// Unwrap returns the module traced, for callers that look for the host's own methods.
func (tm tracedModule) Unwrap() adapter.Module { return tm.Module }

// Job returns handle recording a span for each run of an execution of kind: a child of
// the trace its context carries, the one of the request that started the execution
// when the job's metadata kept it.
func Job[H ~func(context.Context, string) error](t *Tracing, kind string, handle H) H {
	if t == nil {
		return handle
	}
	return func(ctx context.Context, id string) error {
		ctx, span := t.tracer.Start(ctx, "execution "+kind, trace.WithSpanKind(trace.SpanKindConsumer),
			trace.WithAttributes(attrExecutionID.String(id), attrExecutionKind.String(kind)))
		defer span.End()
		err := handle(ctx, id)
		var wait *execution.WaitError
		switch {
		case errors.As(err, &wait):
			// Not a failure: the execution runs again later (an extraction waiting for its crawl).
			span.AddEvent("waiting", trace.WithAttributes(attribute.String("reason", wait.Reason)))
		case err != nil:
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		return err
	}
}
