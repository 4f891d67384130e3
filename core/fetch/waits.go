package fetch

import (
	"context"
	"time"
)

type waitObserverKey struct{}

// WithWaitObserver returns ctx with observe attached: each request of a fetch under ctx
// that waited for its turn at the host (a free slot, a Retry-After pause, the host's pace)
// tells observe how long it waited, so that the caller can note the wait on that fetch (a
// tracing span). Waits under a millisecond are not reported.
func WithWaitObserver(ctx context.Context, observe func(waited time.Duration)) context.Context {
	return context.WithValue(ctx, waitObserverKey{}, observe)
}

// acquireObserved is h.acquire, telling ctx's wait observer, when there is one, how long
// the request waited.
func acquireObserved(ctx context.Context, h *host) (release func(), err error) {
	observe, _ := ctx.Value(waitObserverKey{}).(func(time.Duration))
	if observe == nil {
		return h.acquire(ctx)
	}
	start := time.Now()
	release, err = h.acquire(ctx)
	if d := time.Since(start); err == nil && d >= time.Millisecond {
		observe(d)
	}
	return release, err
}
