package app

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stockroom/stockroom/cmd/stockroom/app/metrics"
)

// newMetrics registers the service's metric families in a registry of the service's own,
// or returns nils when metrics.listen is empty: nothing is then measured.
func newMetrics(listen string) (*metrics.Metrics, *prometheus.Registry, error) {
	if listen == "" {
		return nil, nil, nil
	}
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		return nil, nil, err
	}
	return m, reg, nil
}

// serveMetrics serves GET /metrics from reg on address until ctx ends, and returns the
// address it listens on. Like the profiling endpoints, it has a listener of its own: the
// API's keys do not guard it.
func serveMetrics(ctx context.Context, address string, reg *prometheus.Registry, logger *slog.Logger) (string, error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics.Handler(reg))
	return serveAside(ctx, address, mux, "metrics", logger)
}

// hostClasses names the class of each fetched URL's host in the fetch metrics: no_delay
// for the hosts of fetch.no_delay_hosts (the operator's own, demo stores, benchmarks),
// polite for every other.
type hostClasses map[string]bool

func newHostClasses(noDelayHosts []string) hostClasses {
	c := hostClasses{}
	for _, h := range noDelayHosts {
		c[strings.ToLower(h)] = true
	}
	return c
}

// ofHost is the class of a host ("host:port" or "host").
func (c hostClasses) ofHost(hostPort string) string {
	if c[hostPort] {
		return "no_delay"
	}
	if host, _, err := net.SplitHostPort(hostPort); err == nil && c[host] {
		return "no_delay"
	}
	return "polite"
}

// ofURL is the class of rawURL's host.
func (c hostClasses) ofURL(rawURL string) string {
	_, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return "polite"
	}
	end := strings.IndexAny(rest, "/?#")
	if end >= 0 {
		rest = rest[:end]
	}
	return c.ofHost(strings.ToLower(rest))
}
