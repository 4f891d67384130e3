package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
)

// Adapters returns a Source whose modules count their calls in m. classify names the
// result of a failed call ("trap", "timeout", or "error" for a failure the adapter
// reported itself); it is the adapter host's (plugins/wasm.FailureOf).
func (m *Metrics) Adapters(src adapter.Source, classify func(error) string) adapter.Source {
	if m == nil {
		return src
	}
	return &measuredSource{src: src, m: m, classify: classify}
}

type measuredSource struct {
	src      adapter.Source
	m        *Metrics
	classify func(error) string
}

func (s *measuredSource) Modules() []adapter.Module {
	mods := s.src.Modules()
	out := make([]adapter.Module, len(mods))
	for i, mod := range mods {
		out[i] = measuredModule{Module: mod, s: s}
	}
	return out
}

// measuredModule is a module whose calls are counted and timed.
type measuredModule struct {
	adapter.Module
	s *measuredSource
}

func (mm measuredModule) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	start := time.Now()
	resp, err := mm.Module.Call(ctx, req)
	name, op := mm.Module.Info().Name, string(req.Op)
	result := "ok"
	switch {
	case err == nil:
	case ctx.Err() != nil:
		result = "canceled"
	default:
		result = mm.s.classify(err)
	}
	mm.s.m.adapterCalls.WithLabelValues(name, op, result).Inc()
	mm.s.m.adapterDuration.WithLabelValues(name, op).Observe(time.Since(start).Seconds())
	return resp, err
}

// Unwrap returns the module measured, for callers that look for the host's own methods.
func (mm measuredModule) Unwrap() adapter.Module { return mm.Module }

// Fetcher returns a Fetcher that counts f's fetches in m, by outcome and by the host
// class hostClass gives each URL.
func (m *Metrics) Fetcher(f adapter.Fetcher, hostClass func(url string) string) adapter.Fetcher {
	if m == nil {
		return f
	}
	return adapter.FetcherFunc(func(ctx context.Context, url string) (*adapter.Document, error) {
		start := time.Now()
		doc, err := f.Fetch(ctx, url)
		class := hostClass(url)
		m.fetchDuration.WithLabelValues(class).Observe(time.Since(start).Seconds())
		m.fetches.WithLabelValues(FetchOutcome(doc, err), class).Inc()
		if doc != nil {
			m.fetchBytes.WithLabelValues(class).Add(float64(len(doc.Body)))
		}
		return doc, err
	})
}

// FetchOutcome names how a fetch ended: ok, client_error, server_error, failed or
// canceled. Tracing names its fetches' outcomes the same way.
func FetchOutcome(doc *adapter.Document, err error) string {
	switch {
	case err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return "canceled"
	case err != nil || doc == nil || doc.Status == 0:
		return "failed"
	case doc.Status >= 500:
		return "server_error"
	case doc.Status >= 400:
		return "client_error"
	}
	return "ok"
}

// PolitenessWaited counts a request that waited d for a host's politeness (the fetcher's
// fetch.Options.PolitenessWaited), in the host's class.
func (m *Metrics) PolitenessWaited(class string, d time.Duration) {
	if m == nil {
		return
	}
	m.politenessWaits.WithLabelValues(class).Inc()
	m.politenessWait.WithLabelValues(class).Add(d.Seconds())
}

// Job returns handle timed as a queue job of kind.
func Job[H ~func(context.Context, string) error](m *Metrics, kind string, handle H) H {
	if m == nil {
		return handle
	}
	return func(ctx context.Context, id string) error {
		start := time.Now()
		err := handle(ctx, id)
		m.jobDuration.WithLabelValues(kind).Observe(time.Since(start).Seconds())
		return err
	}
}
