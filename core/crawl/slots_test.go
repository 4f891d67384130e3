package crawl

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// waitFor queues an acquire for name and returns a channel that receives name once the
// slot is granted. It returns once the acquire is waiting.
func waitFor(t *testing.T, s *listSlots, name string, remaining int, granted chan<- string) {
	t.Helper()
	before := waiters(s)
	go func() {
		if err := s.acquire(context.Background(), remaining); err == nil {
			granted <- name
		}
	}()
	for deadline := time.Now().Add(5 * time.Second); waiters(s) == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s never queued", name)
		}
	}
}

func waiters(s *listSlots) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiting)
}

// A free slot goes to a collection of unknown size not listed yet, then to the one with
// the most listings known to remain, then, among those with no count, to the one that has
// waited longest.
func TestSlotsGoUnexploredThenLargestRemainingThenInTurn(t *testing.T) {
	s := newListSlots(1)
	if err := s.acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	granted := make(chan string, 4)
	waitFor(t, s, "unknown-a", 0, granted)
	waitFor(t, s, "small", 300, granted)
	waitFor(t, s, "unknown-b", 0, granted)
	waitFor(t, s, "large", 3000, granted)
	waitFor(t, s, "unexplored", unexplored, granted)

	var order []string
	for range 5 {
		s.release()
		order = append(order, <-granted)
	}
	if want := []string{"unexplored", "large", "small", "unknown-a", "unknown-b"}; !slices.Equal(order, want) {
		t.Errorf("granted %q, want %q", order, want)
	}
}

// No more than n callers hold a slot; a caller that gives up waiting takes none with it.
func TestSlotsBoundListingAndSurviveCancelledWaiters(t *testing.T) {
	s := newListSlots(2)
	ctx := context.Background()
	for range 2 {
		if err := s.acquire(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	gaveUp := make(chan error, 1)
	go func() { gaveUp <- s.acquire(cancelled, 0) }()
	for waiters(s) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("acquire = %v, want context.Canceled", err)
	}

	s.release()
	s.release()
	for range 2 {
		if err := s.acquire(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	third := make(chan error, 1)
	go func() { third <- s.acquire(ctx, 0) }()
	select {
	case err := <-third:
		t.Fatalf("a third caller got a slot (%v) while two are held", err)
	case <-time.After(50 * time.Millisecond):
	}
	s.release()
	if err := <-third; err != nil {
		t.Fatal(err)
	}
}
