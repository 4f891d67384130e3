package crawl

import (
	"context"
	"math"
	"slices"
	"sync"
)

// listSlots bounds the collection pages a crawl lists at once and decides which collection
// lists next. A collection's pages come one after another (each page names the next), so
// a crawl ends no sooner than its longest collection: a free slot goes to the waiting
// collection with the most listings known to remain (from the counts the store gives at
// discovery or on a collection's pages, largest first), and among collections with no
// known count to the one that has waited longest, so that they take turns. A collection
// of unknown size not listed yet goes before all: its first page may state its size. A
// long collection discovered last is then listed alongside the others instead of alone at
// the end, as it was when each lister kept one collection to its end.
type listSlots struct {
	mu      sync.Mutex
	free    int
	waiting []*slotWaiter // in order of arrival
}

type slotWaiter struct {
	remaining int // listings known to remain; 0 when unknown, unexplored
	granted   chan struct{}
}

// unexplored is the remaining of a collection of unknown size whose first page is not
// listed yet.
const unexplored = -1

// rank orders waiters: the higher lists first.
func (w *slotWaiter) rank() int {
	if w.remaining == unexplored {
		return math.MaxInt
	}
	return w.remaining
}

func newListSlots(n int) *listSlots { return &listSlots{free: n} }

// acquire waits for a slot. remaining is the listings the caller's collection is known to
// still hold: 0 when unknown, unexplored before its first page when unknown.
func (s *listSlots) acquire(ctx context.Context, remaining int) error {
	s.mu.Lock()
	if s.free > 0 && len(s.waiting) == 0 {
		s.free--
		s.mu.Unlock()
		return nil
	}
	w := &slotWaiter{remaining: remaining, granted: make(chan struct{})}
	s.waiting = append(s.waiting, w)
	s.mu.Unlock()

	select {
	case <-w.granted:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		if i := slices.Index(s.waiting, w); i >= 0 {
			s.waiting = slices.Delete(s.waiting, i, i+1)
			s.mu.Unlock()
		} else {
			// Granted as the context ended: pass the slot on.
			s.mu.Unlock()
			s.release()
		}
		return context.Cause(ctx)
	}
}

// release gives a slot back, to the waiter that should list next.
func (s *listSlots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waiting) == 0 {
		s.free++
		return
	}
	next := 0 // the highest rank, the longest waiting among equals
	for i, w := range s.waiting {
		if w.rank() > s.waiting[next].rank() {
			next = i
		}
	}
	w := s.waiting[next]
	s.waiting = slices.Delete(s.waiting, next, next+1)
	close(w.granted)
}
