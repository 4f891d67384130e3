package stockroom

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"
)

// The pauses grow by half from the first interval to the largest, which then repeats.
func TestWaitingPausesGrowToTheLargest(t *testing.T) {
	w := Waiting{}.withDefaults()
	var pauses []time.Duration
	for interval := w.FirstInterval; len(pauses) < 6; interval = w.next(interval) {
		pauses = append(pauses, interval)
	}
	want := []time.Duration{10 * time.Second, 15 * time.Second, 22500 * time.Millisecond, 30 * time.Second, 30 * time.Second, 30 * time.Second}
	if !slices.Equal(pauses, want) {
		t.Fatalf("pauses %v, want %v", pauses, want)
	}
	if w.Timeout != time.Hour {
		t.Errorf("default timeout %s", w.Timeout)
	}
}

// statuses is a read function that answers the given statuses in turn, then the last
// one forever, and records when it was called.
type statuses struct {
	answers []Progress
	errs    []error // the error of each call, when set
	calls   []time.Time
}

func (s *statuses) read(context.Context) (Progress, Progress, error) {
	i := len(s.calls)
	s.calls = append(s.calls, time.Now())
	if i < len(s.errs) && s.errs[i] != nil {
		return Progress{}, Progress{}, s.errs[i]
	}
	p := s.answers[min(i, len(s.answers)-1)]
	return p, p, nil
}

var fast = Waiting{FirstInterval: 20 * time.Millisecond, MaxInterval: 40 * time.Millisecond, Timeout: 5 * time.Second}

func TestWaitPollsAtOnceThenUntilTheExecutionEnds(t *testing.T) {
	s := &statuses{answers: []Progress{
		{Status: ExecutionStatusPending},
		{Status: ExecutionStatusRunning, Done: 3},
		{Status: ExecutionStatusCompleted, Done: 7},
	}}
	var seen []Progress
	w := fast
	w.Progress = func(p Progress) { seen = append(seen, p) }
	last, err := waitFor(context.Background(), "x", w, s.read)
	if err != nil {
		t.Fatal(err)
	}
	if last.Status != ExecutionStatusCompleted || last.Done != 7 || len(seen) != 3 {
		t.Fatalf("last %+v after %d reads reported", last, len(seen))
	}
	if gap := s.calls[1].Sub(s.calls[0]); gap < fast.FirstInterval {
		t.Errorf("second poll %s after the first, want at least %s", gap, fast.FirstInterval)
	}
	if gap := s.calls[2].Sub(s.calls[1]); gap < 30*time.Millisecond {
		t.Errorf("third poll %s after the second, want the pause grown to 30ms", gap)
	}
}

func TestWaitPollsFirstAtOnce(t *testing.T) {
	s := &statuses{answers: []Progress{{Status: ExecutionStatusCompleted}}}
	start := time.Now()
	if _, err := waitFor(context.Background(), "x", Waiting{FirstInterval: 10 * time.Second}, s.read); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited >= 5*time.Second {
		t.Errorf("the wait took %s: it paused before its first poll", waited)
	}
}

func TestWaitReportsAFailedExecution(t *testing.T) {
	s := &statuses{answers: []Progress{{Status: ExecutionStatusFailed, Error: "canceled"}}}
	_, err := waitFor(context.Background(), "crawl-x", fast, s.read)
	var failed *ExecutionError
	if !errors.As(err, &failed) || failed.ExecutionID != "crawl-x" || failed.Message != "canceled" {
		t.Fatalf("got %v, want the execution's failure", err)
	}
}

func TestWaitEndsAtItsDeadline(t *testing.T) {
	s := &statuses{answers: []Progress{{Status: ExecutionStatusRunning, Done: 1}}}
	w := fast
	w.Timeout = 100 * time.Millisecond
	last, err := waitFor(context.Background(), "x", w, s.read)
	if !errors.Is(err, ErrWaitTimeout) {
		t.Fatalf("got %v, want ErrWaitTimeout", err)
	}
	if last.Done != 1 {
		t.Errorf("the last status read is not returned: %+v", last)
	}
}

func TestWaitEndsWithTheCallersContext(t *testing.T) {
	s := &statuses{answers: []Progress{{Status: ExecutionStatusRunning}}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	_, err := waitFor(ctx, "x", fast, s.read)
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrWaitTimeout) {
		t.Fatalf("got %v, want the caller's deadline", err)
	}
}

func TestWaitPollsAgainAfterATemporaryError(t *testing.T) {
	s := &statuses{
		answers: []Progress{{Status: ExecutionStatusCompleted}},
		errs:    []error{&APIError{Status: http.StatusServiceUnavailable}, &APIError{Status: http.StatusTooManyRequests, RetryAfter: 50 * time.Millisecond}},
	}
	if _, err := waitFor(context.Background(), "x", fast, s.read); err != nil {
		t.Fatal(err)
	}
	if len(s.calls) != 3 {
		t.Fatalf("%d polls, want 3", len(s.calls))
	}
	if gap := s.calls[2].Sub(s.calls[1]); gap < 50*time.Millisecond {
		t.Errorf("poll %s after a 429, want at least its Retry-After", gap)
	}
}

func TestWaitStopsAtAnErrorThatWillNotPass(t *testing.T) {
	notFound := &APIError{Status: http.StatusNotFound, Code: ErrorCodeNOTFOUND}
	s := &statuses{answers: []Progress{{Status: ExecutionStatusCompleted}}, errs: []error{notFound}}
	if _, err := waitFor(context.Background(), "x", fast, s.read); !errors.Is(err, notFound) {
		t.Fatalf("got %v, want the 404", err)
	}
	if len(s.calls) != 1 {
		t.Errorf("%d polls after a 404, want 1", len(s.calls))
	}
}
