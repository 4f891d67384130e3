package crawl

import (
	"context"
	"math"
	"slices"
	"sync"
)

// listSlots bounds the collection pages a crawl lists at once and decides which page
// lists next: the waiting one of highest priority (see pagePriority), and among equals the
// one that has waited longest, so that collections alike take turns.
type listSlots struct {
	mu      sync.Mutex
	free    int
	waiting []*slotWaiter // in order of arrival
}

type slotWaiter struct {
	priority int
	granted  chan struct{}
}

// pagePriority is the claim on a slot of a collection's page: its first page (first),
// one its adapter named ahead (ahead), or the next; size is the collection's size as far
// as the store says (0 when it says nothing), found its listings found so far.
//
// A collection's pages come one after another, each named by the one before, unless its
// adapter names them ahead; a crawl ends no sooner than its longest such chain, so chains
// go first, the longest known first. In order: the first page of a collection of unknown
// size (it may state the size); the next page of the collection with the most listings
// known to remain (from the counts the store gives at discovery or on its pages); the
// next pages of a collection of unknown size, named ahead or not (an adapter names a few
// at a time, and the next few wait on them), those collections taking turns; last, pages
// named ahead of a collection of known size, which no page waits on: its later pages are
// asked for already. A long collection discovered last is then listed alongside the
// others instead of alone at the end, and so is one of unknown size beside collections
// whose pages are named ahead, as Shopify's every-product collection, whose size no store
// states, is beside the others.
func pagePriority(first, ahead bool, size, found int) int {
	switch {
	case size == 0 && first:
		return math.MaxInt
	case size == 0:
		return 1
	case ahead:
		return 0
	}
	return 2 + max(size-found, 0)
}

func newListSlots(n int) *listSlots { return &listSlots{free: n} }

// acquire waits for a slot for a page of the given priority (see pagePriority).
func (s *listSlots) acquire(ctx context.Context, priority int) error {
	s.mu.Lock()
	if s.free > 0 && len(s.waiting) == 0 {
		s.free--
		s.mu.Unlock()
		return nil
	}
	w := &slotWaiter{priority: priority, granted: make(chan struct{})}
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
	next := 0 // the highest priority, the longest waiting among equals
	for i, w := range s.waiting {
		if w.priority > s.waiting[next].priority {
			next = i
		}
	}
	w := s.waiting[next]
	s.waiting = slices.Delete(s.waiting, next, next+1)
	close(w.granted)
}
