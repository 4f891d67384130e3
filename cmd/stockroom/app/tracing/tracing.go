// Package tracing is Stockroom's optional OpenTelemetry tracing: the tracer provider that
// exports spans over OTLP/HTTP, and the wrappers the composition root (cmd/stockroom/app)
// puts around the adapters, the fetcher and the job handlers. The API's span is the
// server's (server.Deps.Tracer); the trace reaches the execution's job through the job's
// metadata (storage/jobs).
//
// A nil *Tracing records nothing and its wrappers return what they are given, so that a
// service without tracing pays for a nil check only. docs/OBSERVABILITY.md lists the spans.
package tracing

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// scope names the instrumentation in the exported spans.
const scope = "github.com/stockroom/stockroom"

// Config is what New needs of the tracing settings (configs.Tracing).
type Config struct {
	// Endpoint is the OTLP/HTTP URL of the receiver; empty leaves it to the exporter's
	// environment variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT).
	Endpoint string
	// SampleRatio is the share of new traces recorded; a trace started by a caller
	// follows the caller's decision.
	SampleRatio float64
	// ServiceName and ServiceVersion describe the service in every span.
	ServiceName    string
	ServiceVersion string
}

// Tracing holds the service's tracer provider. Its methods are safe for concurrent use.
type Tracing struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
}

// NewOTLP returns a Tracing that sends its spans, in batches, to the OTLP/HTTP receiver
// of cfg.
func NewOTLP(ctx context.Context, cfg Config) (*Tracing, error) {
	var opts []otlptracehttp.Option
	if cfg.Endpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(cfg.Endpoint))
	}
	exporter, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	return New(exporter, cfg), nil
}

// New returns a Tracing that hands its spans, in batches, to exporter.
func New(exporter sdktrace.SpanExporter, cfg Config) *Tracing {
	res := resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName(cfg.ServiceName), semconv.ServiceVersion(cfg.ServiceVersion))
	provider := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.SampleRatio))),
	)
	return &Tracing{provider: provider, tracer: provider.Tracer(scope)}
}

// Tracer is the service's tracer, or nil when t is nil.
func (t *Tracing) Tracer() trace.Tracer {
	if t == nil {
		return nil
	}
	return t.tracer
}

// Shutdown sends the spans not yet exported and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}
