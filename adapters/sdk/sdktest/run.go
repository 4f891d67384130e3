package sdktest

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// Load builds the guest in dir and loads it into a fresh wasm Runtime closed with the
// test. cfg.CacheDir defaults to CacheDir() and cfg.Logger to a discarding logger.
func Load(tb testing.TB, dir string, cfg wasm.Config) *wasm.Module {
	tb.Helper()
	bin := Build(tb, dir)
	if cfg.CacheDir == "" {
		cfg.CacheDir = CacheDir()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx := context.Background()
	rt, err := wasm.New(ctx, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { rt.Close(ctx) })
	m, err := rt.Load(ctx, dir, bin)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// Modules is a fixed adapter.Source, in priority order.
type Modules []adapter.Module

func (m Modules) Modules() []adapter.Module { return m }

// Pages is an adapter.Fetcher over saved documents by URL; any other URL answers 404.
type Pages map[string]*adapter.Document

func (p Pages) Fetch(_ context.Context, url string) (*adapter.Document, error) {
	if d, ok := p[url]; ok {
		return d, nil
	}
	return &adapter.Document{URL: url, Status: 404}, nil
}
