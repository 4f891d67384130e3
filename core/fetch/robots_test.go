package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// The rules of a robots.txt, as our token reads them.
func TestRobotsRules(t *testing.T) {
	const token = "StockroomBot"
	cases := []struct {
		name   string
		robots string
		path   string
		allow  bool
	}{
		{"empty file allows all", "", "/anything", true},
		{"disallow prefix", "User-agent: *\nDisallow: /private\n", "/private/x", false},
		{"disallow leaves others", "User-agent: *\nDisallow: /private\n", "/public", true},
		{"longer allow wins over shorter disallow", "User-agent: *\nDisallow: /shop\nAllow: /shop/products\n", "/shop/products/1", true},
		{"longer disallow wins over shorter allow", "User-agent: *\nAllow: /shop\nDisallow: /shop/cart\n", "/shop/cart", false},
		{"disallow all", "User-agent: *\nDisallow: /\n", "/", false},
		{"disallow all but allow products", "User-agent: *\nDisallow: /\nAllow: /products\n", "/products/shoe", true},
		{"our group beats *", "User-agent: *\nDisallow: /\n\nUser-agent: StockroomBot\nAllow: /\n", "/x", true},
		{"our group is case-insensitive", "User-agent: *\nAllow: /\n\nUser-agent: stockroombot\nDisallow: /x\n", "/x", false},
		{"other bots' groups do not apply", "User-agent: Googlebot\nDisallow: /\n", "/x", true},
		{"wildcard and end anchor", "User-agent: *\nDisallow: /*.json$\n", "/products/a.json", false},
		{"end anchor only at the end", "User-agent: *\nDisallow: /*.json$\n", "/products/a.json?x=1", true},
		{"query is matched", "User-agent: *\nDisallow: /search?\n", "/search?q=shoes", false},
		{"a bad line does not void the file", "Disallow: /early\nUser-agent: *\nCrawl-delay: soon\nDisallow: /private\n", "/private", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := parseRobots([]byte(c.robots))
			if err != nil {
				t.Fatalf("parseRobots: %v", err)
			}
			rules := &robotsRules{group: data.FindGroup(token)}
			u, _ := url.Parse("http://shop.example" + c.path)
			if got := rules.allows(u); got != c.allow {
				t.Errorf("allows(%s) = %v; want %v", c.path, got, c.allow)
			}
		})
	}
}

// A disallowed URL is never requested; robots.txt is fetched once for many pages.
func TestFetchObeysRobotsAndFetchesItOnce(t *testing.T) {
	s := newSite(t, nil)
	s.setRobots(0, "User-agent: *\nDisallow: /private\nAllow: /private/ok\n")
	f := newFetcher(t, testOptions())
	ctx := context.Background()

	for _, p := range []string{"/a", "/b", "/private/ok/c"} {
		if _, err := get(ctx, f, s.URL+p); err != nil {
			t.Fatalf("Fetch %s: %v", p, err)
		}
	}
	_, err := get(ctx, f, s.URL+"/private/secret")
	var re *RobotsError
	if !errors.Is(err, ErrDisallowedByRobots) || !errors.As(err, &re) || re.Unavailable {
		t.Fatalf("Fetch /private/secret = %v; want a RobotsError (disallow)", err)
	}
	if IsTransient(err) {
		t.Error("a robots.txt disallow is reported as transient")
	}
	if n := s.count("/private/secret"); n != 0 {
		t.Errorf("disallowed page requested %d times", n)
	}
	if n := s.count("/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times; want 1", n)
	}
	if got := f.Stats().RobotsDenied; got != 1 {
		t.Errorf("Stats().RobotsDenied = %d; want 1", got)
	}
}

// RFC 9309 §2.3.1: a 4xx robots.txt allows everything; a 5xx (or 429, or no answer)
// disallows everything until robots.txt is tried again.
func TestRobotsStatusDecidesWhenThereAreNoRules(t *testing.T) {
	cases := []struct {
		status          int
		wantUnavailable bool
	}{
		{http.StatusNotFound, false},
		{http.StatusUnauthorized, false},
		{http.StatusForbidden, false},
		{http.StatusGone, false},
		{http.StatusTooManyRequests, true},
		{http.StatusInternalServerError, true},
		{http.StatusServiceUnavailable, true},
	}
	for _, c := range cases {
		t.Run(http.StatusText(c.status), func(t *testing.T) {
			s := newSite(t, nil)
			s.setRobots(c.status, "")
			f := newFetcher(t, testOptions())
			_, err := get(context.Background(), f, s.URL+"/p")
			if !c.wantUnavailable {
				if err != nil {
					t.Fatalf("Fetch = %v; want allowed", err)
				}
				return
			}
			var re *RobotsError
			if !errors.As(err, &re) || !re.Unavailable {
				t.Fatalf("Fetch = %v; want RobotsError{Unavailable}", err)
			}
			if !IsTransient(err) {
				t.Error("an unavailable robots.txt is not reported as transient")
			}
			if n := s.count("/p"); n != 0 {
				t.Errorf("page requested %d times while robots.txt was unavailable", n)
			}
		})
	}
}

// An unavailable robots.txt is retried after RobotsErrorTTL, and a fetched one after
// RobotsTTL.
func TestRobotsIsFetchedAgainAfterItsTTL(t *testing.T) {
	s := newSite(t, nil)
	s.setRobots(http.StatusServiceUnavailable, "")
	opts := testOptions()
	opts.RobotsErrorTTL = 50 * time.Millisecond
	opts.RobotsTTL = 50 * time.Millisecond
	f := newFetcher(t, opts)
	ctx := context.Background()

	if _, err := get(ctx, f, s.URL+"/p"); !errors.Is(err, ErrDisallowedByRobots) {
		t.Fatalf("first Fetch = %v; want disallowed (robots.txt unavailable)", err)
	}
	s.setRobots(0, "User-agent: *\nDisallow: /private\n")
	time.Sleep(100 * time.Millisecond)
	if _, err := get(ctx, f, s.URL+"/p"); err != nil {
		t.Fatalf("Fetch after RobotsErrorTTL = %v; want success", err)
	}
	s.setRobots(0, "User-agent: *\nDisallow: /\n")
	time.Sleep(100 * time.Millisecond)
	if _, err := get(ctx, f, s.URL+"/p"); !errors.Is(err, ErrDisallowedByRobots) {
		t.Fatalf("Fetch after RobotsTTL = %v; want the new robots.txt to disallow", err)
	}
	// Once read, a robots.txt that becomes unavailable is not a reason to stop: the last
	// good copy stays in force (RFC 9309 §2.4).
	s.setRobots(0, "User-agent: *\nDisallow: /private\n")
	time.Sleep(100 * time.Millisecond)
	if _, err := get(ctx, f, s.URL+"/p"); err != nil {
		t.Fatal(err)
	}
	s.setRobots(http.StatusInternalServerError, "")
	time.Sleep(100 * time.Millisecond)
	if _, err := get(ctx, f, s.URL+"/p"); err != nil {
		t.Fatalf("Fetch with robots.txt failing after a good read = %v; want the cached rules", err)
	}
	if n := s.count("/robots.txt"); n != 5 {
		t.Errorf("robots.txt fetched %d times; want 5", n)
	}
}

// Crawl-delay spaces the starts of requests to the host. Only lower bounds are asserted: a loaded machine makes gaps longer, never shorter.
func TestCrawlDelaySpacesRequests(t *testing.T) {
	var mu sync.Mutex
	var starts []time.Time
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
	})
	s.setRobots(0, "User-agent: *\nCrawl-delay: 0.3\n")
	f := newFetcher(t, testOptions())

	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if _, err := get(context.Background(), f, s.URL+"/p"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(starts) != 3 {
		t.Fatalf("server saw %d page requests; want 3", len(starts))
	}
	for i := 1; i < len(starts); i++ {
		// The limiter spaces departures by 300ms; arrivals may bunch by a little network
		// jitter, never by most of the delay.
		if gap := starts[i].Sub(starts[i-1]); gap < 250*time.Millisecond {
			t.Errorf("request %d came %s after the previous one; want at least the Crawl-delay (300ms)", i, gap)
		}
	}
}

// HostLimits.IgnoreCrawlDelay lets benchmarks against loopback run at full speed: a
// Crawl-delay of 30s would make these fetches outlast TotalTimeout.
func TestHostOverrideIgnoresCrawlDelay(t *testing.T) {
	s := newSite(t, nil)
	s.setRobots(0, "User-agent: *\nCrawl-delay: 30\nDisallow: /private\n")
	opts := testOptions()
	opts.TotalTimeout = 10 * time.Second
	opts.Hosts = map[string]HostLimits{"127.0.0.1": {IgnoreCrawlDelay: true}}
	f := newFetcher(t, opts)
	for i := range 3 {
		if _, err := get(context.Background(), f, s.URL+"/p"); err != nil {
			t.Fatalf("Fetch %d: %v", i, err)
		}
	}
	if _, err := get(context.Background(), f, s.URL+"/private"); !errors.Is(err, ErrDisallowedByRobots) {
		t.Fatalf("Fetch /private = %v; robots.txt rules must still apply", err)
	}
}

// A site that does not answer at all is said to be out of reach, not to have an
// unavailable robots.txt: the crawl of a mistyped or stopped site fails saying so. It is
// still refused as robots.txt's complete disallow is (RFC 9309 §2.3.1.4), and transient.
func TestASiteThatDoesNotAnswerIsSaidToBeOutOfReach(t *testing.T) {
	s := newSite(t, nil)
	closed := s.URL
	s.Close()
	_, err := get(context.Background(), newFetcher(t, testOptions()), closed+"/")
	if err == nil || !strings.Contains(err.Error(), "the site cannot be reached: dial tcp "+strings.TrimPrefix(closed, "http://")+": connect: connection refused (robots.txt could not be read, so nothing is fetched)") {
		t.Fatalf("Fetch = %v; want the site said to be out of reach", err)
	}
	if !errors.Is(err, ErrDisallowedByRobots) || !IsTransient(err) {
		t.Errorf("Fetch = %v; want a transient refusal, as for any unavailable robots.txt", err)
	}
}

// A robots.txt that carries an ETag is asked for conditionally once its TTL has passed,
// and answered 304 its rules stay in force. A fetch of robots.txt itself (a sitemap
// reader's) is given the copy the fetcher obeys, without another request.
func TestRobotsIsAskedConditionallyAndServedFromTheCopyInForce(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /private\nSitemap: /sitemap.xml\n"
	var mu sync.Mutex
	asked := map[string]int{} // robots.txt requests by If-None-Match ("" when none)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			_, _ = w.Write([]byte("ok"))
			return
		}
		mu.Lock()
		asked[r.Header.Get("If-None-Match")]++
		mu.Unlock()
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write([]byte(robots))
	}))
	t.Cleanup(srv.Close)
	opts := testOptions()
	opts.RobotsTTL = 50 * time.Millisecond
	f := newFetcher(t, opts)
	ctx := context.Background()

	if _, err := get(ctx, f, srv.URL+"/p"); err != nil {
		t.Fatal(err)
	}
	resp, err := get(ctx, f, srv.URL+"/robots.txt")
	if err != nil || resp.Status != http.StatusOK || string(resp.Body) != robots {
		t.Fatalf("Fetch robots.txt = %v, %+v; want the copy in force", err, resp)
	}
	time.Sleep(100 * time.Millisecond)
	meter := &Meter{}
	if _, err := get(WithMeter(ctx, meter), f, srv.URL+"/private/x"); !errors.Is(err, ErrDisallowedByRobots) {
		t.Fatalf("Fetch /private/x after a 304 for robots.txt = %v; want its rules still in force", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if asked[""] != 1 || asked[`"v1"`] != 1 || len(asked) != 2 {
		t.Errorf("robots.txt requests by If-None-Match: %v; want one plain, then one conditional", asked)
	}
	if r := meter.Requests(); r.Total != 1 || r.Robots != 1 || r.Conditional != 1 || r.NotModified != 1 {
		t.Errorf("meter %+v; want the one conditional robots.txt request, answered 304", r)
	}
}
