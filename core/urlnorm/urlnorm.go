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

var hostProfile = idna.New(idna.MapForLookup(), idna.StrictDomainName(false), idna.Transitional(false))

// Host returns the vendor hostname of a URL or bare domain: lower case, ASCII (punycode for
// internationalized names), without scheme, port, "www.", path or trailing dot.
func Host(input string) (string, error) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrInvalid)
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
	ascii = strings.TrimPrefix(ascii, "www.")
	if !strings.Contains(ascii, ".") && ascii != "localhost" {
		return "", fmt.Errorf("%w: %q is not a domain name", ErrInvalid, input)
	}
	return ascii, nil
}

// trackingParams never change what a page shows, so they are dropped from page URLs.
var trackingParams = map[string]bool{"fbclid": true, "gclid": true, "msclkid": true, "ref": true, "_pos": true, "_sid": true, "_ss": true}

// Page returns the canonical form of a page URL (a collection or product page): https unless
// http was given, canonical host, no fragment, no default port, no trailing slash on the path,
// tracking parameters removed and the rest sorted.
func Page(input string) (string, error) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", fmt.Errorf("%w: empty", ErrInvalid)
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
