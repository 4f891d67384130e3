package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/fetch"
)

// documentFetcher serves adapters' documents through the polite, guarded fetcher.
type documentFetcher struct{ f *fetch.Fetcher }

func newDocumentFetcher(cfg *configs.Config, resolver fetch.Resolver, logger *slog.Logger) (*documentFetcher, error) {
	hosts := map[string]fetch.HostLimits{}
	for _, h := range cfg.Fetch.NoDelayHosts {
		hosts[h] = fetch.HostLimits{Delay: -1, IgnoreCrawlDelay: true}
	}
	delay := cfg.Fetch.Delay
	if delay == 0 {
		delay = -1 // zero in our configuration means none; zero in fetch.Options means 1s
	}
	f, err := fetch.New(fetch.Options{
		UserAgent:            cfg.Fetch.UserAgent,
		Delay:                delay,
		MaxConcurrentPerHost: cfg.Fetch.MaxConcurrentPerHost,
		Hosts:                hosts,
		MaxAttempts:          cfg.Fetch.MaxAttempts,
		RequestTimeout:       cfg.Fetch.RequestTimeout,
		TotalTimeout:         cfg.Fetch.TotalTimeout,
		MaxBodyBytes:         cfg.Fetch.MaxBodyBytes,
		Allow:                cfg.Fetch.Allow,
		Resolver:             resolver,
		Logger:               logger,
	})
	if err != nil {
		return nil, err
	}
	return &documentFetcher{f: f}, nil
}

// Fetch answers a failed fetch with a Document that says why (Status 0), as adapters
// expect; only the caller's cancellation is an error. A bot wall is reported as a 403
// whatever status it came with, so that it reads as automated access not permitted.
func (d *documentFetcher) Fetch(ctx context.Context, url string) (*adapter.Document, error) {
	resp, err := d.f.Fetch(ctx, &fetch.Request{URL: url})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var wall *fetch.BotWallError
		if errors.As(err, &wall) {
			return &adapter.Document{URL: url, Status: http.StatusForbidden, Header: http.Header{}, Err: err.Error(), Blocked: true}, nil
		}
		// Disallowed by the site's rules, not because its robots.txt could not be read:
		// that may pass, and is a failure meanwhile.
		var robots *fetch.RobotsError
		disallowed := errors.As(err, &robots) && !robots.Unavailable
		return &adapter.Document{URL: url, Err: err.Error(), Header: http.Header{}, Disallowed: disallowed}, nil
	}
	doc := &adapter.Document{URL: url, Status: resp.Status, Header: resp.Header, Body: resp.Body}
	if resp.FinalURL != "" && resp.FinalURL != url {
		doc.FinalURL = resp.FinalURL
	}
	return doc, nil
}
