package html

import (
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// resolver resolves a page's links against the page's URL.
//
// Most links of a store's page are paths from the root or absolute URLs of the store
// itself, in plain characters; for those, net/url's parse, resolve and format come to
// the origin followed by the link, and resolver writes that without them: in the guest they
// were a fifth of listing a page. Every other link goes through net/url.
type resolver struct {
	// page is the page's URL as net/url writes it.
	page string
	// parsed is page parsed; for a plain page URL (see resolverOf), not until a link
	// needs net/url (see base).
	parsed *url.URL
	// origin is the page's scheme and host as net/url writes them; "" when the page's URL
	// has parts (user info, an opaque form) that a resolved link would carry, so that every
	// link goes through net/url.
	origin string
	// isHTTP reports whether the page's URL is an http(s) one.
	isHTTP bool
}

// docResolver is the resolver of a document's relative links: against the final URL after
// redirects, else the requested one; false when that is not a URL with a host.
func docResolver(d *sdk.Doc) (*resolver, bool) {
	raw := d.URL
	if d.FinalURL != "" {
		raw = d.FinalURL
	}
	return resolverOf(raw)
}

// resolverOf is the resolver of the page at raw, false when raw is not a URL with a
// host. A URL of plain characters (see plainPage) is not parsed until a link needs it: in
// a guest a parse cost as much as resolving thirty links, and a listing call made two in
// each of its two rounds. FuzzResolverOf holds it to newResolver's answers.
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

// newResolver is the resolver of the page at base.
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
		// A plain page URL, which parses (see plainPage).
		s.parsed, _ = url.Parse(s.page)
	}
	return s.parsed
}

// siteLink is a URL of the page's own site: in full, without its fragment, and its path.
type siteLink struct {
	url, path string
}

// link resolves href and returns it when it is an http(s) URL on the page's host.
func (s *resolver) link(href string) (siteLink, bool) { return s.linkSegments(href, nil) }

// linkSegments is link that also appends, when segs is not nil, the segments of the
// link's path to *segs as segments does. A plain link's come from the pass that reads it:
// segments' own pass over each of a page's links was 7 % of the guest's work listing a
// later demo category page, and reading them in plain's pass saves 3 %.
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
		// What plainSegments appended before it gave up.
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

// resolve returns ref, a URL on any site, resolved against the page's URL; "" when ref is
// no URL.
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

// plainLink resolves href without net/url when href is a path from the root or a URL of the
// origin, whose path holds only letters, digits, "-._~" and slashes, without "." or ".."
// segments, and whose query, if any, holds only those and "=&+,;:@%"; no fragment. For
// such a link net/url answers the origin followed by the link, unchanged (TestResolverPlain
// and FuzzResolverPlain hold it to that).
func (s *resolver) plainLink(href string) (siteLink, bool) { return s.plainLinkSegments(href, nil) }

// plainLinkSegments is plain that also appends, when segs is not nil, the segments of the
// link's path to *segs as segments does; when it answers false, it may have appended some.
func (s *resolver) plainLinkSegments(href string, segs *[]string) (siteLink, bool) {
	if s.origin == "" {
		return siteLink{}, false
	}
	rest, absolute := strings.CutPrefix(href, s.origin)
	if len(rest) < 1 || rest[0] != '/' || len(rest) > 1 && rest[1] == '/' {
		return siteLink{}, false
	}
	// One pass: the path's bytes and segments up to a '?', then the query's bytes. A byte
	// of a segment is looked up and nothing else: in a guest every branch taken costs.
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

// plainPage reports whether raw is an http(s) URL that net/url parses and writes back as
// it is, with a host and without user info: a plainSite followed, perhaps, by a query of
// plain's characters and no fragment. It returns raw's origin, its scheme and host.
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

// plainSite reports whether u is "http://" or "https://" followed by a host and a path of
// plainWord's characters and slashes, perhaps a port between, and no "." or ".." segment:
// a URL that net/url parses and writes back unchanged. It returns u's origin, its scheme
// and host.
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

// allDigits reports whether s is one or more ASCII allDigits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// plainWord reports whether s holds only letters, digits and "-._~", which URLs and
// their queries carry as they are.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if plainBytes[s[i]]&plainInPath == 0 {
			return false
		}
	}
	return true
}

// plainBytes classes the bytes plain accepts: in a path segment, letters, digits and
// "-._~", the characters a path keeps as they are through net/url's parse and format; in
// a query, those, "/" and "=&+,;:@%". A table: every byte of a page's every link meets it,
// and a lookup is one load where the comparisons branched up to seven times.
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

const (
	plainInPath uint8 = 1 << iota
	plainInQuery
	// plainLowerInPath is plainInPath but for capital letters, which a path's segments are
	// lower-cased from.
	plainLowerInPath
)
