package app

import (
	"log/slog"
	"time"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/fetch"
)

// newFetcher is the polite, guarded fetcher of the fetch settings, through which the
// adapters get their documents (fetch.Fetcher.FetchDocument). waited, when set, is told of
// each politeness wait (metrics).
func newFetcher(cfg configs.Fetch, resolver fetch.Resolver, waited func(string, time.Duration), logger *slog.Logger) (*fetch.Fetcher, error) {
	hosts := map[string]fetch.HostLimits{}
	for _, h := range cfg.NoDelayHosts {
		hosts[h] = fetch.HostLimits{Delay: -1, IgnoreCrawlDelay: true}
	}
	delay := cfg.Delay
	if delay == 0 {
		delay = -1 // zero in our configuration means none; zero in fetch.Options means 1s
	}
	return fetch.New(fetch.Options{
		UserAgent:            cfg.UserAgent,
		Delay:                delay,
		MaxConcurrentPerHost: cfg.MaxConcurrentPerHost,
		Hosts:                hosts,
		MaxAttempts:          cfg.MaxAttempts,
		RequestTimeout:       cfg.RequestTimeout,
		TotalTimeout:         cfg.TotalTimeout,
		MaxBodyBytes:         cfg.MaxBodyBytes,
		Allow:                cfg.Allow,
		Resolver:             resolver,
		PolitenessWaited:     waited,
		Logger:               logger,
	})
}
