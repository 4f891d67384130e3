package fetch

import (
	"fmt"
	"net"
	"net/http"
	"time"
)

// Guard is the fetcher's address guard for other outbound HTTP, such as webhook deliveries:
// the same policy and allowlist, so that a receiver URL cannot reach what a crawl cannot.
type Guard struct{ g *guard }

// NewGuard returns a guard that lets through the addresses of allow (as Options.Allow) and
// looks names up with resolver (nil means net.DefaultResolver).
func NewGuard(allow []string, resolver Resolver) (*Guard, error) {
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	g, err := newGuard(allow, resolver)
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	return &Guard{g: g}, nil
}

// CheckURL refuses, without looking the host up, a URL the guard would never fetch: not
// http or https, with credentials, or naming a forbidden address (a literal IP or
// localhost). The error wraps ErrInvalidURL or is a *BlockedAddressError.
func (g *Guard) CheckURL(raw string) error {
	_, err := g.g.checkURL(raw)
	return err
}

// Client returns an HTTP client that dials only the addresses the guard allows, checked
// when connecting, uses no proxy, follows no redirect and gives up after timeout.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:               nil, // a proxy would be dialed instead, and judged instead
			DialContext:         g.g.dial,
			ForceAttemptHTTP2:   true,
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
