package main

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stockroom/stockroom/configs"
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

	fetcherFor := func(t *testing.T) *documentFetcher {
		cfg, err := configs.Load("", []string{"STOCKROOM_FETCH__ALLOW=" + host, "STOCKROOM_FETCH__NO_DELAY_HOSTS=" + host, "STOCKROOM_FETCH__MAX_ATTEMPTS=1"})
		if err != nil {
			t.Fatal(err)
		}
		f, err := newDocumentFetcher(cfg, nil, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		return f
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
		d, err := f.Fetch(t.Context(), site.URL+tc.path)
		if err != nil || d.Blocked != tc.blocked || d.Disallowed != tc.disallowed {
			t.Errorf("%s: %+v %v, want blocked %v, disallowed %v", tc.path, d, err, tc.blocked, tc.disallowed)
		}
	}

	rulesUnreadable.Store(true)
	d, err := fetcherFor(t).Fetch(t.Context(), site.URL+"/private")
	if err != nil || d.Disallowed || d.Status != 0 || !strings.Contains(d.Err, "robots.txt unavailable") {
		t.Errorf("with robots.txt unreadable: %+v %v, want a failure, not a disallowed page", d, err)
	}
}
