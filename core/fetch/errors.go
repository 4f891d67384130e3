package fetch

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"time"
)

// Sentinels for errors.Is. Every error Fetch returns wraps one of them, the caller's context
// error, or (for refusals by the address guard, robots.txt and bot walls) a typed error below.
var (
	// ErrInvalidURL is a URL the fetcher will not try: unparsable, not http or https,
	// without a host, or carrying user:password@ credentials.
	ErrInvalidURL = errors.New("invalid URL")
	// ErrForbiddenAddress is a destination that is not on the public internet (loopback,
	// private, link-local, ...) and not in Options.Allow. Wrapped by *BlockedAddressError.
	ErrForbiddenAddress = errors.New("forbidden address")
	// ErrDisallowedByRobots is a URL the site's robots.txt does not let us fetch, or a site
	// whose robots.txt could not be read (RFC 9309: then assume complete disallow).
	// Wrapped by *RobotsError.
	ErrDisallowedByRobots = errors.New("disallowed by robots.txt")
	// ErrAutomatedAccessNotPermitted is a bot wall: a challenge or block page of a
	// protection service. Wrapped by *BotWallError.
	ErrAutomatedAccessNotPermitted = errors.New("automated access not permitted")
	// ErrTooManyRedirects is a redirect chain longer than Options.MaxRedirects.
	ErrTooManyRedirects = errors.New("too many redirects")
	// ErrBodyTooLarge is a body over Options.MaxBodyBytes (before or after decompression).
	ErrBodyTooLarge = errors.New("body too large")
	// ErrUnsupportedEncoding is a Content-Encoding the fetcher cannot decode.
	ErrUnsupportedEncoding = errors.New("unsupported content encoding")
	// ErrTimeout is Options.TotalTimeout running out. Such errors also match
	// context.DeadlineExceeded.
	ErrTimeout = errors.New("time limit exceeded")
)

// BlockedAddressError is a refusal by the address guard. The request was never sent.
type BlockedAddressError struct {
	// Host is the host name or address as the URL or the dialer spelled it.
	Host string
	// Addr is the offending address; invalid when the host name itself was refused
	// (e.g. "localhost", or an ambiguous numeric spelling that does not parse).
	Addr netip.Addr
	// Reason names the range or rule, e.g. "loopback (127.0.0.0/8)".
	Reason string
}

func (e *BlockedAddressError) Error() string {
	if e.Addr.IsValid() && e.Addr.String() != e.Host {
		return fmt.Sprintf("%s: %s resolves to %s, %s", ErrForbiddenAddress, e.Host, e.Addr, e.Reason)
	}
	return fmt.Sprintf("%s: %s is %s", ErrForbiddenAddress, e.Host, e.Reason)
}

func (e *BlockedAddressError) Unwrap() error { return ErrForbiddenAddress }

// RobotsError is a URL that robots.txt keeps us from fetching.
type RobotsError struct {
	URL string
	// Unavailable is set when robots.txt itself could not be read (5xx, 429, network
	// error): the host is treated as disallowed for Options.RobotsErrorTTL, and trying
	// later may succeed.
	Unavailable bool
	// Cause is why robots.txt was unavailable, when it was.
	Cause error
}

func (e *RobotsError) Error() string {
	var noAnswer *url.Error
	switch {
	case !e.Unavailable:
		return ErrDisallowedByRobots.Error()
	case errors.As(e.Cause, &noAnswer):
		// The site did not answer at all (no such host, connection refused): that, not
		// its robots.txt, is what whoever named it needs to hear.
		return fmt.Sprintf("the site cannot be reached: %v (robots.txt could not be read, so nothing is fetched)", noAnswer.Err)
	}
	return fmt.Sprintf("robots.txt unavailable (%v), assuming complete disallow", e.Cause)
}

func (e *RobotsError) Unwrap() []error {
	if e.Cause != nil {
		return []error{ErrDisallowedByRobots, e.Cause}
	}
	return []error{ErrDisallowedByRobots}
}

// BotWallError is a response recognised as a protection service's challenge or block page.
// It is not content: the caller reports automated_access_not_permitted.
type BotWallError struct {
	URL     string
	Status  int
	Service string // e.g. "Cloudflare", "DataDome", "captcha" for generic walls
}

func (e *BotWallError) Error() string {
	return fmt.Sprintf("%s: %s answered %d", ErrAutomatedAccessNotPermitted, e.Service, e.Status)
}

func (e *BotWallError) Unwrap() error { return ErrAutomatedAccessNotPermitted }

// StatusError is a retryable status (429, 5xx) that was still the answer after the last
// attempt, or whose Retry-After asked for longer than Options.MaxRetryAfter.
type StatusError struct {
	URL      string
	Status   int
	Attempts int
	// RetryAfter is the server's Retry-After, zero when it sent none.
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("status %d after %d attempt(s)", e.Status, e.Attempts)
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (Retry-After %s)", e.RetryAfter)
	}
	return s
}

// NetworkError is a failure below HTTP (refused or reset connection, DNS, TLS, a per-attempt
// timeout) that was still failing after the last attempt, or that retrying cannot fix.
type NetworkError struct {
	URL      string
	Attempts int
	Err      error
}

func (e *NetworkError) Error() string {
	return fmt.Sprintf("%v (after %d attempt(s))", e.Err, e.Attempts)
}

func (e *NetworkError) Unwrap() error { return e.Err }

// IsTransient reports whether err may go away if the same fetch is tried later, so that the
// caller can mark the item for retry. Transient: exhausted retries on 429/5xx (*StatusError),
// network failures other than an unknown host or a bad certificate, an unavailable
// robots.txt, ErrTimeout. Permanent: everything else — invalid or forbidden URLs, robots.txt
// disallow, bot walls, too many redirects, oversized bodies — and the caller's own
// cancellation, which is not a property of the fetch.
func IsTransient(err error) bool {
	if err == nil || errors.Is(err, ErrForbiddenAddress) {
		return false
	}
	var re *RobotsError
	if errors.As(err, &re) {
		return re.Unavailable
	}
	var se *StatusError
	if errors.As(err, &se) {
		return true
	}
	if errors.Is(err, ErrTimeout) {
		return true
	}
	var ne *NetworkError
	if errors.As(err, &ne) {
		return transientNetwork(ne.Err)
	}
	return false
}

// transientNetwork classifies an error from sending one request.
func transientNetwork(err error) bool {
	if errors.Is(err, ErrForbiddenAddress) || errors.Is(err, ErrBodyTooLarge) || errors.Is(err, ErrUnsupportedEncoding) {
		return false
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return false
	}
	var cert *tls.CertificateVerificationError
	return !errors.As(err, &cert)
}
