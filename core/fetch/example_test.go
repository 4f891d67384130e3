package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/stockroom/stockroom/core/fetch"
)

// A Fetcher for a demo store on loopback: the allowlist opens loopback, and the host
// override switches politeness delays off for it. Robots.txt still applies.
func Example() {
	store := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /admin\n")
		case "/old":
			http.Redirect(w, r, "/products/shoe", http.StatusMovedPermanently)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<h1>Blue shoe</h1>")
		}
	}))
	defer store.Close()

	f, err := fetch.New(fetch.Options{
		Allow:  []string{"127.0.0.0/8"},
		Hosts:  map[string]fetch.HostLimits{"127.0.0.1": {Delay: -1, IgnoreCrawlDelay: true}},
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		panic(err)
	}
	defer f.CloseIdleConnections()

	resp, err := f.Fetch(context.Background(), &fetch.Request{URL: store.URL + "/old"})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Status, len(resp.Redirects), resp.ContentType, resp.Charset, string(resp.Body))

	_, err = f.Fetch(context.Background(), &fetch.Request{URL: store.URL + "/admin"})
	fmt.Println(errors.Is(err, fetch.ErrDisallowedByRobots), fetch.IsTransient(err))
	// Output:
	// 200 1 text/html utf-8 <h1>Blue shoe</h1>
	// true false
}

// Without an allowlist, addresses that are not on the public internet are refused before
// any connection, in whatever spelling.
func Example_addressGuard() {
	f, _ := fetch.New(fetch.Options{Logger: slog.New(slog.DiscardHandler)})
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://0x7f.1/", "http://[::ffff:10.0.0.1]/"} {
		_, err := f.Fetch(context.Background(), &fetch.Request{URL: u})
		var blocked *fetch.BlockedAddressError
		if errors.As(err, &blocked) {
			fmt.Println(blocked.Reason)
		}
	}
	// Output:
	// link-local (169.254.0.0/16)
	// loopback (127.0.0.0/8)
	// IPv4-mapped private (10.0.0.0/8)
}

// Bot walls are recognised from status, headers and body, here a Cloudflare challenge.
func ExampleDetectBotWall() {
	h := http.Header{"Cf-Mitigated": {"challenge"}}
	service, ok := fetch.DetectBotWall(http.StatusForbidden, h, []byte("<title>Just a moment...</title>"))
	fmt.Println(service, ok)
	// Output: Cloudflare true
}
