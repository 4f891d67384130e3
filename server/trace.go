package server

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// traceContext reads a caller's trace from its request (W3C Trace Context: traceparent,
// tracestate), so that the request's span continues the caller's trace.
var traceContext = propagation.TraceContext{}

// trace records a server span for each request, named by its method and route template,
// a child of the caller's span when the request carries one. Handlers get the span in
// their context (c.UserContext), so the executions they start continue the trace. Only
// installed when Deps.Tracer is set.
func (s *Server) trace(c *fiber.Ctx) error {
	ctx := traceContext.Extract(c.UserContext(), requestHeaders{&c.Request().Header})
	// The request's strings are reused once it is answered, and spans are exported later.
	method := strings.Clone(c.Method())
	ctx, span := s.tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(semconv.HTTPRequestMethodKey.String(method), semconv.URLPath(strings.Clone(c.Path()))))
	defer span.End()
	c.SetUserContext(ctx)
	err := c.Next()
	route, status := s.routeTemplate(c), c.Response().StatusCode()
	span.SetName(method + " " + route)
	span.SetAttributes(semconv.HTTPRoute(route), semconv.HTTPResponseStatusCode(status))
	if err != nil {
		span.RecordError(err)
	}
	if status >= 500 {
		span.SetStatus(codes.Error, "")
	}
	return err
}

// requestHeaders reads a request's headers for the trace context propagator.
type requestHeaders struct{ h *fasthttp.RequestHeader }

func (r requestHeaders) Get(key string) string { return string(r.h.Peek(key)) }

func (r requestHeaders) Set(key, value string) { r.h.Set(key, value) }

func (r requestHeaders) Keys() []string {
	var keys []string
	r.h.VisitAll(func(key, _ []byte) { keys = append(keys, string(key)) })
	return keys
}
