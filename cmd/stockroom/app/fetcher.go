package app

import (
	"log/slog"
	"time"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/fetch"
)

// newFetcher is the polite, guarded fetcher of the fetch settings, through which the
// adapters get their documents (fetch.Fetcher.FetchDocument). pages keeps the pages that
// carry validators, so that recrawls ask only whether they changed. waited, when set, is
// told of each politeness wait (metrics).
func newFetcher(cfg configs.Fetch, resolver fetch.Resolver, pages fetch.PageStore, waited func(string, time.Duration), logger *slog.Logger) (*fetch.Fetcher, error) {
	// Zero in our configuration means no delay; zero in fetch.Options means the default.
	none := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	hosts := map[string]fetch.HostLimits{}
	for _, h := range cfg.Hosts {
		hosts[h.Host] = fetch.HostLimits{Delay: h.Delay, MinDelay: h.MinDelay, MaxDelay: h.MaxDelay, MaxConcurrent: h.MaxConcurrent}
	}
	for _, h := range cfg.NoDelayHosts {
		hosts[h] = fetch.HostLimits{Delay: -1, IgnoreCrawlDelay: true}
	}
	delay := none(cfg.Delay)
	return fetch.New(fetch.Options{
		UserAgent:            cfg.UserAgent,
		Delay:                delay,
		MinDelay:             cfg.MinDelay,
		MaxDelay:             cfg.MaxDelay,
		MaxConcurrentPerHost: cfg.MaxConcurrentPerHost,
		Hosts:                hosts,
		MaxAttempts:          cfg.MaxAttempts,
		RequestTimeout:       cfg.RequestTimeout,
		TotalTimeout:         cfg.TotalTimeout,
		MaxBodyBytes:         cfg.MaxBodyBytes,
		Allow:                cfg.Allow,
		Resolver:             resolver,
		PolitenessWaited:     waited,
		Pages:                pages,
		Logger:               logger,
	})
}
