package fetch

import (
	"sync"
	"time"
)

// pace is one host's adaptive spacing between request starts, after Scrapy's AutoThrottle:
// it starts at the configured delay, slows down when the host refuses (429, 503, any
// Retry-After), fails or answers markedly slower than it usually does, and speeds up again
// while the host answers quickly and cleanly. It never goes faster than fastest (the
// configured ceiling, or robots.txt's Crawl-delay when longer) nor slower than slowest.
// RATIONALE.md explains the factors.
type pace struct {
	mu       sync.Mutex
	interval time.Duration // the spacing now
	fastest  time.Duration // the shortest spacing allowed
	slowest  time.Duration // the longest spacing pacing slows down to
	// typical is the host's usual time to answer, a moving average of clean answers.
	typical time.Duration
	// fixed is set for a host configured without any delay: it is never paced.
	fixed bool
}

// Answers are judged against the host's typical latency: one more than twice as slow, and
// slower by more than latencySlack, is a sign of load; one at most half again as slow is
// quick. The slack keeps the jitter of a host that answers in an instant from reading as
// load.
const (
	slowFactor   = 2.0
	quickFactor  = 1.5
	latencySlack = 100 * time.Millisecond
)

func newPace(l hostLimits) *pace {
	return &pace{interval: l.delay, fastest: l.fastest, slowest: max(l.slowest, l.delay), fixed: l.delay <= 0}
}

// now is the current spacing.
func (p *pace) now() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.interval
}

// atLeast keeps the spacing at d or longer from now on (robots.txt's Crawl-delay).
func (p *pace) atLeast(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fastest = max(p.fastest, d)
	p.slowest = max(p.slowest, d)
	p.interval = max(p.interval, d)
	if d > 0 {
		p.fixed = false
	}
}

// answer is what one request taught about the host.
type answer struct {
	latency time.Duration // time to the response's headers
	status  int           // zero when no answer came
	// retryAfter is the server's Retry-After, zero when it sent none.
	retryAfter time.Duration
}

// observe adapts the spacing to one answer and returns the new spacing.
func (p *pace) observe(a answer) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fixed {
		return p.interval
	}
	switch {
	case a.status == 0 || a.retryAfter > 0 || retryableStatus(a.status):
		// Refused or failing: back off hard, as the host asked.
		p.interval = p.clamp(max(2*p.interval, p.fastest, time.Millisecond))
	case p.typical > 0 && float64(a.latency) > slowFactor*float64(p.typical) && a.latency-p.typical > latencySlack:
		// Markedly slower than usual: the host is busier, so give it more room.
		p.interval = p.clamp(p.interval * 3 / 2)
		p.learn(a.latency)
	case p.typical == 0 || float64(a.latency) <= quickFactor*float64(p.typical):
		// Quick and clean: creep back towards the fastest pace.
		p.interval = p.clamp(p.interval * 9 / 10)
		p.learn(a.latency)
	default:
		p.learn(a.latency)
	}
	return p.interval
}

// learn folds a latency into the typical one (an exponential moving average).
func (p *pace) learn(latency time.Duration) {
	if p.typical == 0 {
		p.typical = latency
		return
	}
	p.typical = (p.typical*7 + latency) / 8
}

func (p *pace) clamp(d time.Duration) time.Duration {
	return min(max(d, p.fastest), p.slowest)
}
