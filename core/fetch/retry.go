package fetch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryableStatus reports whether an answer may be different if asked again: 408, 429 and
// the 5xx family, except 501 Not Implemented, 505 HTTP Version Not Supported and 511
// Network Authentication Required, which will say the same thing next time.
func retryableStatus(status int) bool {
	switch {
	case status == http.StatusRequestTimeout, status == http.StatusTooManyRequests:
		return true
	case status == http.StatusNotImplemented, status == http.StatusHTTPVersionNotSupported,
		status == http.StatusNetworkAuthenticationRequired:
		return false
	}
	return status >= 500 && status <= 599
}

// backoff is the wait before attempt+1: exponential from RetryBaseDelay, capped at
// RetryMaxDelay, with "equal jitter" (half fixed, half random) so that many fetchers
// failing together do not come back together; never shorter than the server's Retry-After.
func (f *Fetcher) backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := f.opts.RetryMaxDelay
	if attempt-1 < 32 {
		if exp := f.opts.RetryBaseDelay << (attempt - 1); exp > 0 && exp < d {
			d = exp
		}
	}
	d = d/2 + rand.N(d/2+1)
	return max(d, retryAfter)
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP-date (RFC 9110
// §10.2.3). Zero means absent, unreadable or already past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		// Beyond ~30 years the number is nonsense; saturate instead of overflowing.
		return time.Duration(min(secs, 1<<30)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// timeoutError is returned when a wait could not finish before ctx's deadline.
func timeoutError(ctx context.Context) error {
	deadline, _ := ctx.Deadline()
	return fmt.Errorf("%w: the politeness wait would end after the deadline (%s): %w",
		ErrTimeout, deadline.Format(time.RFC3339), context.DeadlineExceeded)
}
