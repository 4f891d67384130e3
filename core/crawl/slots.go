package crawl

import (
	"context"
	"math"
	"slices"
	"sync"
)

// listSlots bounds how many collection pages a crawl lists at once, and decides which
// waiting page goes next: the one of highest priority (see pagePriority), and among pages
// of equal priority the one that has waited longest, so that similar collections take
// turns.
type listSlots struct {
	mu      sync.Mutex
	free    int
	waiting []*slotWaiter // in order of arrival
}

// slotWaiter is a page waiting for a slot; granted is closed when it gets one.
type slotWaiter struct {
	priority int
	granted  chan struct{}
}

// pagePriority is how urgently a collection's page should get a slot; higher goes first.
// first is set for the collection's first page, and ahead for a page its adapter named
// ahead. size is the number of products the store says the collection holds (0 when it
// does not say), and found is the number of listings found in it so far.
//
// Usually each page of a collection names the next one, so the pages must be read one
// after another, like links in a chain. A crawl cannot end before its longest chain does,
// so pages that others wait on go first, longest chain first. The order is:
//
//  1. The first page of a collection of unknown size, since it may state the size.
//  2. The next page of the collection with the most listings known to remain (from the
//     counts the store gives at discovery or on its pages).
//  3. Further pages of a collection of unknown size, whether named ahead or not: an
//     adapter that does not know the size names a few pages at a time, and the next few
//     wait on them. These collections take turns.
//  4. Pages named ahead in a collection of known size. No other page waits on them,
//     because all of that collection's later pages have been requested already.
//
// This way a long collection discovered last is listed alongside the others rather than
// alone at the end. So is a collection of unknown size, such as Shopify's collection of
// every product, next to collections whose pages are named ahead.
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
	next := 0 // the highest priority; among equals, the one that has waited longest
	for i, w := range s.waiting {
		if w.priority > s.waiting[next].priority {
			next = i
		}
	}
	w := s.waiting[next]
	s.waiting = slices.Delete(s.waiting, next, next+1)
	close(w.granted)
}
