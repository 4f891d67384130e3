// Package urlnorm turns what clients write for a store or a page into one canonical form,
// so that "HTTPS://www.Shop.com/", "shop.com" and "shop.com." name the same vendor.
package urlnorm

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// ErrInvalid is wrapped by every error this package returns.
var ErrInvalid = errors.New("invalid URL")

// Limits on what is taken for a URL or a host name. They are the service's limits for
// every URL and vendor a client sends and every URL a crawl stores: docs/API.md states them.
const (
	// MaxURLLength is the longest URL, in bytes. Browsers and sitemaps keep to it, and a
	// URL this long still fits the Postgres indexes that hold URLs (an entry of at most
	// about 2.7 KB).
	MaxURLLength = 2048
	// MaxHostLength is the longest host name, in bytes, and MaxLabelLength its longest
	// label: the limits of DNS.
	MaxHostLength  = 253
	MaxLabelLength = 63
)

// CheckLength returns an error wrapping ErrInvalid when s is longer than MaxURLLength. The
// message gives the length, not s, which may be megabytes.
func CheckLength(s string) error {
	if len(s) > MaxURLLength {
		return fmt.Errorf("%w: %d bytes long, more than the %d allowed", ErrInvalid, len(s), MaxURLLength)
	}
	return nil
}

var hostProfile = idna.New(idna.MapForLookup(), idna.StrictDomainName(false), idna.Transitional(false))

// Host returns the vendor hostname of a URL or bare domain: lower case, ASCII (punycode for
// internationalized names), without scheme, port, "www.", path or trailing dot.
func Host(input string) (string, error) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrInvalid)
	}
	if err := CheckLength(s); err != nil {
		return "", err
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrInvalid, input, err)
	}
	return canonicalHost(u.Hostname(), input)
}

func canonicalHost(h, input string) (string, error) {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" {
		return "", fmt.Errorf("%w: %q has no host name", ErrInvalid, input)
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	ascii, err := hostProfile.ToASCII(h)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrInvalid, input, err)
	}
	if !withinDNSLimits(ascii) {
		return "", fmt.Errorf("%w: the host name of %q is longer than DNS allows (%d bytes, labels of %d)", ErrInvalid, input, MaxHostLength, MaxLabelLength)
	}
	ascii = strings.TrimPrefix(ascii, "www.")
	if !strings.Contains(ascii, ".") && ascii != "localhost" {
		return "", fmt.Errorf("%w: %q is not a domain name", ErrInvalid, input)
	}
	return ascii, nil
}

// withinDNSLimits reports whether the ASCII host name h is no longer than MaxHostLength,
// nor any of its labels than MaxLabelLength.
func withinDNSLimits(h string) bool {
	if len(h) > MaxHostLength {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if len(label) > MaxLabelLength {
			return false
		}
	}
	return true
}

// trackingParams never change what a page shows, so they are dropped from page URLs.
var trackingParams = map[string]bool{"fbclid": true, "gclid": true, "msclkid": true, "ref": true, "_pos": true, "_sid": true, "_ss": true}

// Page returns the canonical form of a page URL (a collection or product page): https unless
// http was given, canonical host, no fragment, no default port, no trailing slash on the path,
// tracking parameters removed and the rest sorted.
func Page(input string) (string, error) {
	// Nearly every URL a crawl meets is already canonical (an adapter's listing links).
	// Such a URL is returned as it is, without being parsed and rebuilt, because a crawl
	// normalizes every listing URL it finds.
	if canonicalPage(input) {
		return input, nil
	}
	return normalizePage(input)
}

// normalizePage is Page the long way: parsed, checked and rebuilt.
func normalizePage(input string) (string, error) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrInvalid)
	}
	if err := CheckLength(s); err != nil {
		return "", err
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrInvalid, input, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%w: %q: scheme must be http or https", ErrInvalid, input)
	}
	host, err := canonicalHost(u.Hostname(), input)
	if err != nil {
		return "", err
	}
	if p := u.Port(); p != "" && !(scheme == "https" && p == "443") && !(scheme == "http" && p == "80") {
		host = net.JoinHostPort(host, p)
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	q := u.Query()
	for k := range q {
		if trackingParams[strings.ToLower(k)] || strings.HasPrefix(strings.ToLower(k), "utm_") {
			q.Del(k)
		}
	}
	out := scheme + "://" + host + path
	if len(q) > 0 {
		out += "?" + q.Encode() // Encode sorts by key
	}
	return out, nil
}

// canonicalPage reports whether s is a URL that Page returns unchanged, for a plain subset
// of them: http or https, a lower-case ASCII domain name or dotted IPv4 address, a port
// only when not the scheme's default, and a path without escapes, trailing slash, query
// or fragment. Anything else goes the long way; FuzzPageFastPath checks that the two agree.
func canonicalPage(s string) bool {
	if len(s) > MaxURLLength {
		return false
	}
	var rest, defaultPort string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest, defaultPort = s[len("https://"):], "443"
	case strings.HasPrefix(s, "http://"):
		rest, defaultPort = s[len("http://"):], "80"
	default:
		return false
	}
	authority, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	host := authority
	if i := strings.IndexByte(authority, ':'); i >= 0 {
		host = authority[:i]
		if port := authority[i+1:]; !canonicalPort(port, defaultPort) {
			return false
		}
	}
	return canonicalHostName(host) && canonicalPath(path)
}

// canonicalPort: digits without a leading zero, not the scheme's default.
func canonicalPort(port, defaultPort string) bool {
	if port == "" || len(port) > 5 || port[0] == '0' || port == defaultPort {
		return false
	}
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return false
		}
	}
	return true
}

// canonicalHostName: what canonicalHost returns unchanged among names of lower-case
// letters, digits, dots and hyphens; punycode labels ("xn--") are left to it.
func canonicalHostName(h string) bool {
	if h == "" || len(h) > 253 || strings.HasPrefix(h, "www.") {
		return false
	}
	digitsAndDots := true
	for rest := h; ; {
		label, more, found := strings.Cut(rest, ".")
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' || strings.Contains(label, "--") {
			return false
		}
		for i := 0; i < len(label); i++ {
			switch c := label[i]; {
			case 'a' <= c && c <= 'z' || c == '-':
				digitsAndDots = false
			case '0' <= c && c <= '9':
			default:
				return false
			}
		}
		if !found {
			break
		}
		rest = more
	}
	if digitsAndDots {
		return canonicalIPv4(h)
	}
	return strings.Contains(h, ".") || h == "localhost"
}

// canonicalIPv4: four decimal numbers up to 255 without leading zeros, the form
// net.IP.String gives an IPv4 address.
func canonicalIPv4(h string) bool {
	for part := 0; part < 4; part++ {
		n, digits := 0, 0
		for digits < len(h) && '0' <= h[digits] && h[digits] <= '9' {
			n = n*10 + int(h[digits]-'0')
			digits++
		}
		if digits == 0 || digits > 3 || n > 255 || digits > 1 && h[0] == '0' {
			return false
		}
		h = h[digits:]
		if part < 3 {
			if h == "" || h[0] != '.' {
				return false
			}
			h = h[1:]
		}
	}
	return h == ""
}

// canonicalPath: empty, or a path of characters url.URL.EscapedPath leaves as they are,
// without a trailing slash.
func canonicalPath(p string) bool {
	if p == "" {
		return true
	}
	if p[0] != '/' || p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			continue
		}
		switch c {
		case '-', '_', '.', '~', '/', '$', '&', '+', ',', ':', ';', '=', '@':
		default:
			return false
		}
	}
	return true
}
