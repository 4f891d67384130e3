package stockroom

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Waiting is how the helpers wait for an execution, as the interface advises: poll at
// once, then at growing intervals from FirstInterval to MaxInterval, until Timeout. The
// zero value is the advice itself.
type Waiting struct {
	// FirstInterval is the pause after the first poll, which is made at once. Each pause
	// after it is half as long again as the one before. Zero means 10 seconds.
	FirstInterval time.Duration
	// MaxInterval is the longest pause between two polls. Zero means 30 seconds.
	MaxInterval time.Duration
	// Timeout is the longest wait, from the first poll; past it the helper returns
	// ErrWaitTimeout and the execution goes on. Zero means one hour.
	Timeout time.Duration
	// Progress, when set, is called with every status read, the last one included.
	Progress func(Progress)
}

// Progress is one status read of an execution, the same for every kind.
type Progress struct {
	ExecutionID string
	Status      ExecutionStatus
	// Steps are the execution's named steps in order (crawls and searches); nil for
	// extractions, which have none.
	Steps []Step
	// Done counts the units of work done so far, and Total those to do (zero when not
	// known in advance, as for a crawl); Unit names them ("listings", "products").
	Done, Total int
	Unit        string
	// Error is the execution's error message when it failed.
	Error string
}

// ErrWaitTimeout is returned, wrapped, when an execution is still running at the end of
// Waiting.Timeout.
var ErrWaitTimeout = errors.New("stockroom: execution still running at the deadline")

func (w Waiting) withDefaults() Waiting {
	if w.FirstInterval <= 0 {
		w.FirstInterval = 10 * time.Second
	}
	if w.MaxInterval <= 0 {
		w.MaxInterval = 30 * time.Second
	}
	if w.MaxInterval < w.FirstInterval {
		w.MaxInterval = w.FirstInterval
	}
	if w.Timeout <= 0 {
		w.Timeout = time.Hour
	}
	return w
}

// next is the pause after one of interval.
func (w Waiting) next(interval time.Duration) time.Duration {
	return min(interval+interval/2, w.MaxInterval)
}

// waitFor polls read until the execution has ended: it returns the last status, with an
// *ExecutionError when the execution failed. A poll that the service answers with a
// temporary error (429, 5xx) is made again at the next interval; any other error ends
// the wait.
func waitFor[T any](ctx context.Context, id string, w Waiting, read func(context.Context) (T, Progress, error)) (T, error) {
	w = w.withDefaults()
	ctx, cancel := context.WithTimeoutCause(ctx, w.Timeout, ErrWaitTimeout)
	defer cancel()
	var last T
	interval := w.FirstInterval
	for {
		status, progress, err := read(ctx)
		var apiErr *APIError
		switch {
		case err == nil:
			last = status
			if w.Progress != nil {
				w.Progress(progress)
			}
			switch progress.Status {
			case ExecutionStatusCompleted:
				return status, nil
			case ExecutionStatusFailed:
				return status, &ExecutionError{ExecutionID: id, Message: progress.Error}
			}
		case errors.As(err, &apiErr) && apiErr.temporary():
		case ctx.Err() != nil:
			return last, waitEnded(ctx, id, w)
		default:
			return last, err
		}
		pause := interval
		if apiErr != nil && apiErr.RetryAfter > pause {
			pause = apiErr.RetryAfter
		}
		timer := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			timer.Stop()
			return last, waitEnded(ctx, id, w)
		case <-timer.C:
		}
		interval = w.next(interval)
	}
}

// waitEnded is why a wait ended early: the deadline of Waiting, or the caller's context.
func waitEnded(ctx context.Context, id string, w Waiting) error {
	if errors.Is(context.Cause(ctx), ErrWaitTimeout) {
		return fmt.Errorf("%w: %s after %s", ErrWaitTimeout, id, w.Timeout)
	}
	return ctx.Err()
}
