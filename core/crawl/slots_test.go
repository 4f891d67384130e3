package crawl

import (
	"context"
	"errors"
	"math"
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

// A free slot goes to the waiting page of highest priority, and among pages of equal
// priority to the one that has waited longest.
func TestSlotsGoToTheHighestPriorityThenTheLongestWaiting(t *testing.T) {
	s := newListSlots(1)
	if err := s.acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	granted := make(chan string, 5)
	waitFor(t, s, "low-a", 1, granted)
	waitFor(t, s, "middle", 300, granted)
	waitFor(t, s, "low-b", 1, granted)
	waitFor(t, s, "high", 3000, granted)
	waitFor(t, s, "highest", math.MaxInt, granted)

	var order []string
	for range 5 {
		s.release()
		order = append(order, <-granted)
	}
	if want := []string{"highest", "high", "middle", "low-a", "low-b"}; !slices.Equal(order, want) {
		t.Errorf("granted %q, want %q", order, want)
	}
}

// Pages are ranked in this order: the first page of a collection of unknown size; the
// next page of the collection with the most listings known to remain; further pages of a
// collection of unknown size, named ahead or not; pages named ahead in a collection of
// known size.
func TestPagePriorityPutsPagesOthersWaitOnFirst(t *testing.T) {
	ranked := []struct {
		name         string
		first, ahead bool
		size, found  int
	}{
		{"first page, size unknown", true, false, 0, 0},
		{"first page, 1,000 known", true, false, 1000, 0},
		{"next page, 700 of 1,000 to go", false, false, 1000, 300},
		{"next page, 20 of 100 to go", false, false, 100, 80},
		{"next page past the count", false, false, 100, 120},
		{"next page, size unknown", false, false, 0, 5000},
		{"named ahead, size known", false, true, 1000, 250},
	}
	if ahead, next := pagePriority(false, true, 0, 250), pagePriority(false, false, 0, 250); ahead != next {
		t.Errorf("a page named ahead of a collection of unknown size ranks %d, its next page %d: want them equal", ahead, next)
	}
	for i := 1; i < len(ranked); i++ {
		a, b := ranked[i-1], ranked[i]
		if pa, pb := pagePriority(a.first, a.ahead, a.size, a.found), pagePriority(b.first, b.ahead, b.size, b.found); pa <= pb {
			t.Errorf("%s (%d) does not rank above %s (%d)", a.name, pa, b.name, pb)
		}
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
