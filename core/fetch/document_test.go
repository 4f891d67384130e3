package fetch

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The documents of refused fetches say which refusal they are, so that the crawl can tell
// a site that does not want a page fetched (robots.txt) from one that is failing for now
// (its robots.txt unreadable), and a bot wall from both.
func TestDocumentsSayWhyAFetchWasRefused(t *testing.T) {
	var rulesUnreadable atomic.Bool
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt" && rulesUnreadable.Load():
			http.Error(w, "down", http.StatusServiceUnavailable)
		case r.URL.Path == "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		case r.URL.Path == "/wall":
			w.Header().Set("Cf-Mitigated", "challenge")
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte("<html><head><title>Just a moment...</title></head></html>"))
		default:
			w.Write([]byte("<html></html>"))
		}
	}))
	defer site.Close()
	host := strings.TrimPrefix(site.URL, "http://")

	// A fresh fetcher each time: a fetcher keeps the robots.txt it read.
	fetcherFor := func(t *testing.T) *Fetcher {
		return newFetcher(t, Options{
			Allow:       []string{host},
			Hosts:       map[string]HostLimits{host: {Delay: -1, IgnoreCrawlDelay: true}},
			MaxAttempts: 1,
			Logger:      slog.New(slog.DiscardHandler),
		})
	}
	f := fetcherFor(t)
	for _, tc := range []struct {
		path                string
		blocked, disallowed bool
	}{
		{path: "/shop"},
		{path: "/private", disallowed: true},
		{path: "/wall", blocked: true},
	} {
		d, err := f.FetchDocument(t.Context(), site.URL+tc.path)
		if err != nil || d.Blocked != tc.blocked || d.Disallowed != tc.disallowed {
			t.Errorf("%s: %+v %v, want blocked %v, disallowed %v", tc.path, d, err, tc.blocked, tc.disallowed)
		}
	}

	rulesUnreadable.Store(true)
	d, err := fetcherFor(t).FetchDocument(t.Context(), site.URL+"/private")
	if err != nil || d.Disallowed || d.Status != 0 || !strings.Contains(d.Err, "robots.txt unavailable") {
		t.Errorf("with robots.txt unreadable: %+v %v, want a failure, not a disallowed page", d, err)
	}
}
