package fetch

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// host is the politeness state of one origin: a concurrency bound, an adaptive start rate,
// a pause a Retry-After imposed, and its robots.txt.
type host struct {
	slots   chan struct{} // one token per request in flight
	limiter *rate.Limiter // spaces request starts by the pace
	pace    *pace

	ignoreCrawlDelay bool

	mu          sync.Mutex
	pausedUntil time.Time // no request starts before this (Retry-After)

	robotsLock chan struct{} // held while robots.txt is fetched, so it is fetched once
	robots     *robotsRules  // nil until fetched; guarded by robotsLock

	// waited, when set, is told of each wait for politeness (Options.PolitenessWaited).
	waited func(time.Duration)
}

func newHost(l hostLimits) *host {
	h := &host{
		slots:            make(chan struct{}, l.concurrent),
		limiter:          rate.NewLimiter(rate.Inf, 1),
		pace:             newPace(l),
		ignoreCrawlDelay: l.ignoreCrawlDelay,
		robotsLock:       make(chan struct{}, 1),
	}
	h.setInterval(h.pace.now())
	return h
}

func (h *host) setInterval(d time.Duration) {
	if d <= 0 {
		h.limiter.SetLimit(rate.Inf)
		return
	}
	h.limiter.SetLimit(rate.Every(d))
}

// applyCrawlDelay keeps the host's spacing at robots.txt's Crawl-delay (already capped) or
// longer.
func (h *host) applyCrawlDelay(crawlDelay time.Duration) {
	if h.ignoreCrawlDelay {
		return
	}
	h.pace.atLeast(crawlDelay)
	h.setInterval(h.pace.now())
}

// observe adapts the host's pace to one answer.
func (h *host) observe(a answer) {
	h.setInterval(h.pace.observe(a))
}

// acquire waits for a free slot, for the end of any Retry-After pause and for the rate
// limiter, in that order, and returns the function that frees the slot. It gives up as soon
// as ctx is done. While it waits, the fetch counts as waiting for the host in ctx's Meter.
func (h *host) acquire(ctx context.Context) (release func(), err error) {
	m := meterFrom(ctx)
	m.wait(1)
	defer m.wait(-1)
	defer m.setPace(h.pace.now())
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	release = func() { <-h.slots }
	if h.waited != nil {
		start := time.Now()
		defer func() {
			if err == nil {
				if d := time.Since(start); d >= time.Millisecond {
					h.waited(d)
				}
			}
		}()
	}
	h.mu.Lock()
	wait := time.Until(h.pausedUntil)
	h.mu.Unlock()
	if err := sleep(ctx, wait); err != nil {
		release()
		return nil, err
	}
	if err := h.limiter.Wait(ctx); err != nil {
		release()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		// The wait would outlast the caller's own deadline: fail now rather than sleep
		// towards it.
		return nil, timeoutError(ctx)
	}
	return release, nil
}

// pause keeps requests to the host from starting for d (a Retry-After).
func (h *host) pause(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if until := time.Now().Add(d); until.After(h.pausedUntil) {
		h.pausedUntil = until
	}
}

// sleep waits for d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return context.Cause(ctx)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// hosts maps origins to their politeness state.
type hosts struct {
	opts *Options
	mu   sync.Mutex
	m    map[string]*host
}

// get returns the state of origin ("scheme://host:port"), creating it on first use.
// hostPort is the origin without its scheme, used to look up Options.Hosts.
func (hs *hosts) get(origin, hostPort string) *host {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if h, ok := hs.m[origin]; ok {
		return h
	}
	h := newHost(hs.opts.limitsFor(hostPort))
	if f := hs.opts.PolitenessWaited; f != nil {
		h.waited = func(d time.Duration) { f(hostPort, d) }
	}
	hs.m[origin] = h
	return h
}
