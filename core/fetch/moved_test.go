package fetch

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A site that has moved for good to its www. name is asked there once a permanent
// redirect has said so: its bare domain answers that one redirect, not one per page.
// A temporary redirect teaches nothing.
func TestAPermanentMoveOfASiteIsRemembered(t *testing.T) {
	var mu sync.Mutex
	var bareHits, wwwHits []string
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(r.Host, "www.") {
			wwwHits = append(wwwHits, r.URL.RequestURI())
			_, _ = w.Write([]byte("page " + r.URL.RequestURI()))
			return
		}
		bareHits = append(bareHits, r.URL.RequestURI())
		status := http.StatusMovedPermanently
		if r.URL.Path == "/sale" {
			status = http.StatusFound
		}
		http.Redirect(w, r, "http://www."+r.Host+r.URL.RequestURI(), status)
	})
	opts := testOptions()
	loopback := []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	opts.Resolver = mapResolver{"shop.test": loopback, "www.shop.test": loopback}
	f := newFetcher(t, opts)
	bare, www := "http://shop.test:"+s.port(), "http://www.shop.test:"+s.port()

	for _, c := range []struct {
		path      string
		redirects []string
	}{
		{"/sale", []string{bare + "/sale"}}, // temporary: followed only
		{"/a", []string{bare + "/a"}},       // permanent: followed, and the move learned
		{"/b", nil},
		{"/c?x=1", nil},
	} {
		resp, err := get(context.Background(), f, bare+c.path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(resp.Redirects, c.redirects) || resp.FinalURL != www+c.path || string(resp.Body) != "page "+c.path {
			t.Errorf("%s: redirects %q, final %s, body %q; want redirects %q, final %s", c.path, resp.Redirects, resp.FinalURL, resp.Body, c.redirects, www+c.path)
		}
	}
	if want := []string{"/sale", "/a"}; !slices.Equal(bareHits, want) {
		t.Errorf("the bare domain was asked for %q, want %q", bareHits, want)
	}
	if want := []string{"/sale", "/a", "/b", "/c?x=1"}; !slices.Equal(wwwHits, want) {
		t.Errorf("www. was asked for %q, want %q", wwwHits, want)
	}
}

// Only a permanent redirect of a URL to itself on https, or on the other of www.{name}
// and {name}, moves its site; any other redirect says nothing about the site's other pages.
func TestSiteMovedOnlyByPermanentRedirectsToTheSameResource(t *testing.T) {
	for _, c := range []struct {
		status   int
		from, to string
		moved    bool
	}{
		{301, "https://shop.example/a?b=1", "https://www.shop.example/a?b=1", true},
		{308, "https://www.shop.example/a", "https://shop.example/a", true},
		{301, "http://shop.example/a", "https://shop.example/a", true},
		{301, "http://shop.example/a", "https://www.shop.example/a", true},
		{301, "http://shop.example:8080/a", "http://www.shop.example:8080/a", true},
		{302, "https://shop.example/a", "https://www.shop.example/a", false},
		{307, "https://shop.example/a", "https://www.shop.example/a", false},
		{301, "https://shop.example/a", "https://www.shop.example/b", false},
		{301, "https://shop.example/a?b=1", "https://www.shop.example/a", false},
		{301, "https://shop.example/a", "http://shop.example/a", false},
		{301, "https://shop.example/a", "https://shop.example/a", false},
		{301, "https://shop.example/a", "https://shop.example:8443/a", false},
		{301, "https://shop.example/a", "https://store.shop.example/a", false},
		{301, "https://shop.example/a", "https://other.example/a", false},
		{301, "https://shop.example/a", "https://www.www.shop.example/a", false},
	} {
		from, _ := url.Parse(c.from)
		to, _ := url.Parse(c.to)
		if got := siteMoved(c.status, from, to); got != c.moved {
			t.Errorf("%d %s -> %s: moved %v, want %v", c.status, c.from, c.to, got, c.moved)
		}
	}
}

// A move is trusted for a day; then the old origin is asked again.
func TestAMoveIsForgottenAfterADay(t *testing.T) {
	m := newMovedOrigins()
	from, _ := url.Parse("https://shop.example/a")
	to, _ := url.Parse("https://www.shop.example/a")
	now := time.Now()
	m.learn(http.StatusMovedPermanently, from, to, now)
	u, _ := url.Parse("https://shop.example/b?c=1")
	if got := m.rewrite(u, now.Add(movedTTL-time.Minute)).String(); got != "https://www.shop.example/b?c=1" {
		t.Errorf("within the day: %s", got)
	}
	if got := m.rewrite(u, now.Add(movedTTL+time.Minute)); got != u {
		t.Errorf("after the day: %s, want %s", got, u)
	}
}
