package html

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// viaNetURL resolves href against base through net/url: parse, resolve and format. The
// plain fast path must agree with it wherever it answers.
func viaNetURL(base *url.URL, href string) (siteLink, bool) {
	r, err := url.Parse(href)
	if err != nil {
		return siteLink{}, false
	}
	u := base.ResolveReference(r)
	u.Fragment = ""
	return siteLink{url: u.String(), path: u.Path}, true
}

var testBases = []string{
	"https://corner.example/shop/sale?page=2",
	"http://127.0.0.4:18089/shop/sale",
	"https://Corner.Example:8443/",
	"https://user:pw@corner.example/a/b",
	"https://[::1]:8080/x",
	"https://bücher.example/kategorie",
}

func TestResolverPlain(t *testing.T) {
	for _, raw := range testBases {
		base, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		s := newResolver(base)
		hrefs := []string{
			"/item/rake-42", "/shop/sale?page=2", "/a/b/", "/", "/a?", "/a?x=1&y=%20z",
			"/a/./b", "/a/../b", "/./", "/..", "//other.example/x", "/a//b", "/a.b/c..d",
			"/a b", "/a%20b", "/a#top", "/ü", "/a?b#c", "/a?b?c", "/a?q=x y",
			s.origin + "/item/x", s.origin + "/item/x?y=1", s.origin, s.origin + "//x",
			strings.ToUpper(s.origin) + "/x", "item/relative", "?page=3", "#frag",
		}
		for _, href := range hrefs {
			got, ok := s.plainLink(href)
			if !ok {
				continue
			}
			want, _ := viaNetURL(base, href)
			if got != want {
				t.Errorf("base %s, href %q: plain %+v, net/url %+v", raw, href, got, want)
			}
		}
	}
	// The plain path must take the links stores write most, or it saves nothing.
	s := newResolver(mustParse(t, "https://corner.example/shop/sale"))
	for _, href := range []string{"/item/rake-42", "/shop/sale?page=2", "https://corner.example/products/a_b.html"} {
		if _, ok := s.plainLink(href); !ok {
			t.Errorf("%q not taken by the plain path", href)
		}
	}
	// A base with user info resolves every link through net/url, which keeps it.
	if _, ok := newResolver(mustParse(t, "https://u@corner.example/")).plainLink("/x"); ok {
		t.Error("plain path taken for a base with user info")
	}
}

// testResolver is the resolver of one of testBases, chosen by a fuzzer's which.
func testResolver(t *testing.T, which int) (*url.URL, *resolver) {
	base, err := url.Parse(testBases[uint(which)%uint(len(testBases))])
	if err != nil {
		t.Fatal(err)
	}
	return base, newResolver(base)
}

func FuzzResolverPlain(f *testing.F) {
	for _, seed := range []string{"/item/a-1", "/a/../b", "/a?x=1", "/.", "/a//b", "/~x/_y.z?a=b&c=%41"} {
		f.Add(0, seed)
	}
	f.Fuzz(func(t *testing.T, which int, href string) {
		base, s := testResolver(t, which)
		for _, h := range []string{href, s.origin + href} {
			got, ok := s.plainLink(h)
			if !ok {
				continue
			}
			if want, _ := viaNetURL(base, h); got != want {
				t.Errorf("base %s, href %q: plain %+v, net/url %+v", base, h, got, want)
			}
		}
	})
}

// FuzzLinkSegments checks that linkSegments answers as link does, with the segments that
// pathSegments reads from the link's path, whichever way the link is read.
func FuzzLinkSegments(f *testing.F) {
	for _, seed := range []string{"/item/a-1", "/Item/A-1?x=1", "/a/../b", "/a?x=1", "/.", "/a//b/", "/~x/_y.z?a=b&c=%41",
		"/ü/x", "HTTPS://corner.example/x", "?page=3", "rel/Ative", "  /a  ", "#top", "/a%2Fb", "/a?b/c"} {
		f.Add(0, seed)
	}
	f.Fuzz(func(t *testing.T, which int, href string) {
		base, s := testResolver(t, which)
		for _, h := range []string{href, s.origin + href} {
			want, wantOK := s.link(h)
			segs := []string{"kept"}
			got, ok := s.linkSegments(h, &segs)
			if got != want || ok != wantOK {
				t.Fatalf("base %s, href %q: linkSegments %+v %v, link %+v %v", base, h, got, ok, want, wantOK)
			}
			if !ok {
				continue
			}
			if wantSegs := pathSegments(want.path, []string{"kept"}); !slices.Equal(segs, wantSegs) {
				t.Errorf("base %s, href %q: segments %q, want %q", base, h, segs, wantSegs)
			}
		}
	})
}

// FuzzResolverOf checks that the resolver of a page URL read without net/url answers
// every link as the resolver of the parsed URL does, and names the page as net/url
// writes it.
func FuzzResolverOf(f *testing.F) {
	for _, raw := range append([]string{"https://corner.example", "http://h/c?", "http://h/c?a=b&c=%41", "http://h:x/",
		"HTTPS://corner.example/x", "https://corner.example/a/../b", "https://corner.example/c#top", "ftp://h/x", "/relative"}, testBases...) {
		f.Add(raw, "/item/a-1")
		f.Add(raw, "?page=3")
	}
	f.Fuzz(func(t *testing.T, raw, href string) {
		lazy, ok := resolverOf(raw)
		u, err := url.Parse(raw)
		if wantOK := err == nil && u.Host != ""; ok != wantOK {
			t.Fatalf("%q: resolverOf %v, net/url reads a URL with a host: %v", raw, ok, wantOK)
		}
		if !ok {
			return
		}
		eager := newResolver(u)
		if lazy.page != eager.page || lazy.origin != eager.origin || lazy.isHTTP != eager.isHTTP {
			t.Fatalf("%q: page %q origin %q web %v, parsed: %q %q %v", raw, lazy.page, lazy.origin, lazy.isHTTP, eager.page, eager.origin, eager.isHTTP)
		}
		for _, h := range []string{href, lazy.origin + href} {
			if got, want := lazy.resolve(h), eager.resolve(h); got != want {
				t.Errorf("%q, href %q: resolves to %q, parsed page to %q", raw, h, got, want)
			}
			got, ok := lazy.link(h)
			if want, wantOK := eager.link(h); got != want || ok != wantOK {
				t.Errorf("%q, href %q: link %+v %v, parsed page %+v %v", raw, h, got, ok, want, wantOK)
			}
		}
	})
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
