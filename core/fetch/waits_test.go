package fetch

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A fetch whose request waited for the host's delay tells the wait observer of its
// context how long; a fetch without an observer tells nobody.
func TestWaitObserverHearsOfPolitenessWaits(t *testing.T) {
	s := newSite(t, nil)
	opts := testOptions()
	opts.Delay = 50 * time.Millisecond
	opts.MinDelay = opts.Delay
	f := newFetcher(t, opts)

	var mu sync.Mutex
	var waits []time.Duration
	heard := func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Duration(nil), waits...)
	}
	observed := WithWaitObserver(context.Background(), func(d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
	})
	// robots.txt and a first page, unobserved: the page waits for the delay after robots.txt.
	if _, err := f.Fetch(context.Background(), &Request{URL: s.URL + "/first"}); err != nil {
		t.Fatal(err)
	}
	if w := heard(); len(w) != 0 {
		t.Errorf("a fetch without the observer reached it: %v", w)
	}
	if _, err := f.Fetch(observed, &Request{URL: s.URL + "/second"}); err != nil {
		t.Fatal(err)
	}
	if w := heard(); len(w) != 1 || w[0] < opts.Delay/2 || w[0] > 10*opts.Delay {
		t.Errorf("waits of the second page: %v, want one near %s", w, opts.Delay)
	}
}
