package html

import (
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// resolver resolves a page's links against the page's URL.
//
// Most links on a store's pages are paths from the root, or absolute URLs on the store's
// own site, written in plain characters. For those, resolving through net/url only puts
// the page's origin in front of the link, so the resolver does that itself (plainLink).
// Every other link goes through net/url.
type resolver struct {
	// page is the page's URL as net/url writes it.
	page string
	// parsed is page, parsed. A plain page URL (see resolverOf) is parsed only when a link
	// needs net/url (see base).
	parsed *url.URL
	// origin is the page's scheme and host as net/url writes them. It is "" when the
	// page's URL has parts that a resolved link would keep (user info, an opaque form):
	// then every link goes through net/url.
	origin string
	// isHTTP reports whether the page's URL is an http or https one.
	isHTTP bool
}

// docResolver returns the resolver of a document's links. They are resolved against the
// document's final URL after redirects, else the URL it was requested at. It returns
// false when that is not a URL with a host.
func docResolver(d *sdk.Doc) (*resolver, bool) {
	raw := d.URL
	if d.FinalURL != "" {
		raw = d.FinalURL
	}
	return resolverOf(raw)
}

// resolverOf returns the resolver of the page at raw, or false when raw is not a URL with
// a host. A URL of plain characters (see plainPage) is parsed only when a link needs it,
// because parsing is slow in the guest. FuzzResolverOf checks that this resolver answers
// as newResolver's does.
func resolverOf(raw string) (*resolver, bool) {
	if origin, ok := plainPage(raw); ok {
		return &resolver{page: raw, origin: origin, isHTTP: true}, true
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, false
	}
	return newResolver(u), true
}

// newResolver returns the resolver of the page at base.
func newResolver(base *url.URL) *resolver {
	s := &resolver{page: base.String(), parsed: base, isHTTP: base.Scheme == "http" || base.Scheme == "https"}
	if base.User == nil && base.Opaque == "" && base.Host != "" {
		s.origin = (&url.URL{Scheme: base.Scheme, Host: base.Host}).String()
	}
	return s
}

// base is the page's URL, parsed.
func (s *resolver) base() *url.URL {
	if s.parsed == nil {
		// Only a plain page URL is left unparsed, and it always parses (see plainPage).
		s.parsed, _ = url.Parse(s.page)
	}
	return s.parsed
}

// siteLink is a URL on the page's own site, without its fragment, and the URL's path.
type siteLink struct {
	url, path string
}

// link resolves href, and returns it when it is an http or https URL on the page's host.
func (s *resolver) link(href string) (siteLink, bool) { return s.linkSegments(href, nil) }

// linkSegments is link that also appends the segments of the link's path to *segs, as
// pathSegments reads them, when segs is not nil. For a plain link, the segments are read
// in the same pass over its bytes that resolves it.
func (s *resolver) linkSegments(href string, segs *[]string) (siteLink, bool) {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "#") {
		return siteLink{}, false
	}
	kept := 0
	if segs != nil {
		kept = len(*segs)
	}
	if l, ok := s.plainLinkSegments(href, segs); ok {
		return l, s.isHTTP
	}
	if segs != nil {
		// Drop what plainLinkSegments appended before it gave up.
		*segs = (*segs)[:kept]
	}
	r, err := url.Parse(href)
	if err != nil {
		return siteLink{}, false
	}
	u := s.base().ResolveReference(r)
	if (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, s.base().Host) {
		return siteLink{}, false
	}
	u.Fragment = ""
	if segs != nil {
		*segs = pathSegments(u.Path, *segs)
	}
	return siteLink{url: u.String(), path: u.Path}, true
}

// resolve returns ref resolved against the page's URL, whatever its site; "" when ref is
// not a URL.
func (s *resolver) resolve(ref string) string {
	if l, ok := s.plainLink(ref); ok {
		return l.url
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	return s.base().ResolveReference(r).String()
}

// The functions below read plain URLs without net/url: a fast path for the guest, where
// net/url is slow. Each answers only for URLs on which it agrees with net/url, and a fuzz
// test checks each against net/url: FuzzResolverPlain, FuzzLinkSegments, FuzzResolverOf,
// and FuzzPlainQueryNumbering for plainSite.

// plainLink resolves href without net/url when href is plain: a path from the root, or a
// URL on the page's origin, with no fragment. Its path may hold only letters, digits,
// "-._~" and slashes, and no "." or ".." segment; its query, if any, only those and
// "=&+,;:@%". For such a link net/url answers the origin followed by the link, unchanged.
// It returns false for any other link.
func (s *resolver) plainLink(href string) (siteLink, bool) { return s.plainLinkSegments(href, nil) }

// plainLinkSegments is plainLink that also appends the segments of the link's path to
// *segs, as pathSegments reads them, when segs is not nil. When it returns false, it may
// have appended some segments already.
func (s *resolver) plainLinkSegments(href string, segs *[]string) (siteLink, bool) {
	if s.origin == "" {
		return siteLink{}, false
	}
	rest, absolute := strings.CutPrefix(href, s.origin)
	if len(rest) < 1 || rest[0] != '/' || len(rest) > 1 && rest[1] == '/' {
		return siteLink{}, false
	}
	// One pass reads the path's bytes and segments up to a '?', then the query's bytes.
	// Most bytes cost one table lookup and nothing more: branches are slow in the guest.
	pathEnd := len(rest)
	segmentStart, lower := 0, true
	for i := 0; i < len(rest); i++ {
		if b := plainBytes[rest[i]]; b&plainLowerInPath == 0 {
			if b&plainInPath != 0 {
				lower = false // a capital letter
				continue
			}
			c := rest[i]
			if c != '/' && c != '?' {
				return siteLink{}, false
			}
			seg := rest[segmentStart:i]
			if seg == "." || seg == ".." {
				return siteLink{}, false
			}
			if segs != nil {
				*segs = appendSegment(*segs, seg, lower)
			}
			if c == '?' {
				pathEnd = i
				break
			}
			segmentStart, lower = i+1, true
		}
	}
	if pathEnd == len(rest) {
		seg := rest[segmentStart:]
		if seg == "." || seg == ".." {
			return siteLink{}, false
		}
		if segs != nil {
			*segs = appendSegment(*segs, seg, lower)
		}
	}
	for i := pathEnd + 1; i < len(rest); i++ {
		if plainBytes[rest[i]]&plainInQuery == 0 {
			return siteLink{}, false
		}
	}
	path := rest[:pathEnd]
	if absolute {
		return siteLink{url: href, path: path}, true
	}
	return siteLink{url: s.origin + href, path: path}, true
}

// plainPage reports whether raw is an http or https URL with a host and no user info that
// net/url parses and writes back unchanged: a plainSite, perhaps followed by a query of
// the characters plainLink accepts, and no fragment. It returns raw's origin, its scheme
// and host.
func plainPage(raw string) (origin string, ok bool) {
	site, query, _ := strings.Cut(raw, "?")
	if origin, ok = plainSite(site); !ok {
		return "", false
	}
	for i := 0; i < len(query); i++ {
		if plainBytes[query[i]]&plainInQuery == 0 {
			return "", false
		}
	}
	return origin, true
}

// plainSite reports whether u is "http://" or "https://", a host, perhaps a port, and a
// path of plainWord's characters and slashes with no "." or ".." segment: a URL that
// net/url parses and writes back unchanged. It returns u's origin, its scheme and host.
func plainSite(u string) (origin string, ok bool) {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(u, "https://"); !ok {
			return "", false
		}
	}
	host, path, _ := strings.Cut(rest, "/")
	name, port, hasPort := strings.Cut(host, ":")
	if name == "" || !plainWord(name) || hasPort && !allDigits(port) {
		return "", false
	}
	for _, segment := range strings.Split(path, "/") {
		if segment == "." || segment == ".." || segment != "" && !plainWord(segment) {
			return "", false
		}
	}
	return u[:len(u)-len(rest)+len(host)], true
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// plainWord reports whether s holds only ASCII letters, digits and "-._~", which URLs
// and their queries carry as they are.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if plainBytes[s[i]]&plainInPath == 0 {
			return false
		}
	}
	return true
}

// plainBytes sorts the bytes that plainLink accepts. A path segment may hold letters,
// digits and "-._~", which net/url's parse and format keep as they are; a query may hold
// those, "/" and "=&+,;:@%". It is a table because every byte of every link meets it, and
// a lookup is cheaper in the guest than a chain of comparisons.
var plainBytes = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.ContainsRune("-._~", rune(c)) {
			t[c] = plainLowerInPath | plainInPath | plainInQuery
		} else if 'A' <= c && c <= 'Z' {
			t[c] = plainInPath | plainInQuery
		} else if strings.ContainsRune("/=&+,;:@%", rune(c)) {
			t[c] = plainInQuery
		}
	}
	return t
}()

// The classes of plainBytes.
const (
	// plainInPath marks the bytes a plain path segment may hold.
	plainInPath uint8 = 1 << iota
	// plainInQuery marks the bytes a plain query may hold.
	plainInQuery
	// plainLowerInPath marks plainInPath's bytes but the capital letters, which path
	// segments are lower-cased from.
	plainLowerInPath
)
