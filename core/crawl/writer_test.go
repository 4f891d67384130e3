package crawl

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/execution"
)

// recordingStore keeps the listing and collection writes in order. The other catalog
// methods are not used by the writer.
type recordingStore struct {
	catalog.Store
	mu     sync.Mutex
	events []string // "listing URL", "linked URL", "collection URL" or "total URL N"
	writes int      // calls of UpsertListings
	fail   error
}

func (s *recordingStore) UpsertListings(_ context.Context, _ string, listings []catalog.ListingInput, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	s.writes++
	for _, l := range listings {
		if l.Unchanged {
			s.events = append(s.events, "linked "+l.URL)
		} else {
			s.events = append(s.events, "listing "+l.URL)
		}
	}
	return nil
}

func (s *recordingStore) UpsertCollections(_ context.Context, _ string, cs []catalog.CollectionInput, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range cs {
		if c.ProductsTotal == nil {
			s.events = append(s.events, "collection "+c.URL)
		} else {
			s.events = append(s.events, "total "+c.URL+" "+strconv.Itoa(*c.ProductsTotal))
		}
	}
	return nil
}

// listings counts the listing writes recorded so far.
func (s *recordingStore) listings() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.events {
		if strings.HasPrefix(e, "listing ") {
			n++
		}
	}
	return n
}

func pageOf(collection string, urls ...string) writeRequest {
	l := writeRequest{}
	for _, u := range urls {
		l.listings = append(l.listings, catalog.ListingInput{URL: u, CollectionURLs: []string{collection}})
	}
	return l
}

// A collection is marked done, which makes a resumed crawl skip it, only once every listing
// queued before its end is written. A listing found in two collections counts once.
func TestWriterMarksACollectionDoneAfterItsListingsAreWritten(t *testing.T) {
	store := &recordingStore{}
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(store, st, 2)
	ran := make(chan error, 1)
	go func() { ran <- w.run(context.Background()) }()

	ctx := context.Background()
	for _, l := range []writeRequest{
		pageOf("shoes", "boot", "clog"),
		pageOf("sale", "boot"),
		{finishedCollection: "shoes", finishedTotal: 2},
		pageOf("sale", "sandal"),
		{finishedCollection: "sale", finishedTotal: 2},
	} {
		if err := w.send(ctx, l); err != nil {
			t.Fatal(err)
		}
	}
	w.close()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}

	position := func(event string) int {
		i := slices.Index(store.events, event)
		if i < 0 {
			t.Fatalf("%q never written: %q", event, store.events)
		}
		return i
	}
	for _, c := range []struct {
		total    string
		listings []string
	}{
		{"total shoes 2", []string{"listing boot", "listing clog"}},
		{"total sale 2", []string{"listing sandal"}},
	} {
		for _, l := range c.listings {
			if position(l) > position(c.total) {
				t.Errorf("%s written before %s: %q", c.total, l, store.events)
			}
		}
	}
	if got := st.progress.Done; !slices.Equal(got, []string{"shoes", "sale"}) {
		t.Errorf("done = %q, want shoes then sale", got)
	}
	if st.progress.ListingsFound != 3 {
		t.Errorf("listings found = %d, want 3 distinct", st.progress.ListingsFound)
	}
}

// bootAt is a page of one listing, a boot at price, in collection.
func bootAt(collection string, price float64) writeRequest {
	return writeRequest{listings: []catalog.ListingInput{{URL: "boot", Name: "Boot",
		Price: &catalog.Price{Currency: "EUR", Current: price}, CollectionURLs: []string{collection}}}}
}

// A listing met again unchanged in another collection is only linked to it; a listing
// whose price changed in the meantime is written again.
func TestWriterOnlyLinksAListingMetAgainUnchanged(t *testing.T) {
	store := &recordingStore{}
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(store, st, 1)
	for _, l := range []writeRequest{bootAt("shoes", 10), bootAt("sale", 10), bootAt("clearance", 8)} {
		if err := w.write(context.Background(), store, []writeRequest{l}); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"listing boot", "linked boot", "listing boot"}; !slices.Equal(store.events, want) {
		t.Errorf("writes = %q, want %q", store.events, want)
	}
	if st.progress.ListingsFound != 1 {
		t.Errorf("listings found = %d, want 1", st.progress.ListingsFound)
	}
}

// A listing that appears twice in one write, first changed and then as first written, is
// remembered as it appeared last, because the catalog keeps the last entry for a URL.
// When the listing then turns up with the changed fields again, it is written again, not
// only linked.
func TestWriterRemembersTheLastVersionOfAListingWrittenTwice(t *testing.T) {
	store := &recordingStore{}
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(store, st, 1)
	for _, batch := range [][]writeRequest{{bootAt("shoes", 10)}, {bootAt("sale", 8), bootAt("clearance", 10)}, {bootAt("outlet", 8)}} {
		if err := w.write(context.Background(), store, batch); err != nil {
			t.Fatal(err)
		}
	}
	if got := store.events[len(store.events)-1]; got != "listing boot" {
		t.Errorf("writes = %q: the boot at 8 was last written at 10, so it is written again", store.events)
	}
}

// A failed write stops the writer with the error, and the collection is not marked done.
func TestWriterStopsOnAFailedWrite(t *testing.T) {
	broken := errors.New("connection reset")
	store := &recordingStore{fail: broken}
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(store, st, 2)
	ctx := context.Background()
	if err := w.send(ctx, pageOf("shoes", "boot")); err != nil {
		t.Fatal(err)
	}
	if err := w.send(ctx, writeRequest{finishedCollection: "shoes", finishedTotal: 1}); err != nil {
		t.Fatal(err)
	}
	w.close()
	if err := w.run(ctx); !errors.Is(err, broken) {
		t.Fatalf("run = %v, want the store's error", err)
	}
	if len(st.progress.Done) != 0 {
		t.Errorf("done = %q after a failed write", st.progress.Done)
	}
}

// A lister blocked on a full queue gives up when the crawl is cancelled.
func TestSendGivesUpWhenCancelled(t *testing.T) {
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(&recordingStore{}, st, 1)
	ctx, cancel := context.WithCancel(context.Background())
	if err := w.send(ctx, pageOf("shoes", "boot")); err != nil {
		t.Fatal(err)
	}
	sent := make(chan error, 1)
	go func() { sent <- w.send(ctx, pageOf("shoes", "clog")) }()
	cancel()
	if err := <-sent; !errors.Is(err, context.Canceled) {
		t.Fatalf("send = %v, want context.Canceled", err)
	}
}

// Pages that arrive one by one, each with fewer listings than a write is worth, are
// gathered into one write rather than one write per page. Nothing waits once the queue
// closes.
func TestWriterGathersSmallPagesIntoOneWrite(t *testing.T) {
	store := &recordingStore{}
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(store, st, 4)
	w.minListings, w.linger = 100, time.Hour
	ran := make(chan error, 1)
	go func() { ran <- w.run(context.Background()) }()
	ctx := context.Background()
	if err := w.send(ctx, pageOf("shoes", "boot", "clog")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the writer holds the first page by now
	if err := w.send(ctx, pageOf("shoes", "sandal")); err != nil {
		t.Fatal(err)
	}
	w.close()
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the writer still waits after the queue closed")
	}
	if store.writes != 1 || len(store.events) != 3 {
		t.Errorf("%d writes of %q, want one of the three listings", store.writes, store.events)
	}
}

// A batch of at least minListings is written at once, without waiting for more.
func TestWriterWritesAFullBatchAtOnce(t *testing.T) {
	store := &recordingStore{}
	w, ctx, cancel, ran := startWriter(store, 2, nil)
	defer cancel()
	if err := w.send(ctx, pageOf("shoes", "boot", "clog")); err != nil {
		t.Fatal(err)
	}
	waitForWrites(t, store, 1, "a full batch was held back")
	// A writer lingering for more stops when the crawl is cancelled.
	if err := w.send(ctx, pageOf("shoes", "sandal")); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Errorf("run = %v, want the cancellation", err)
	}
}

// startWriter runs a writer to store whose batches are worth minListings, lingering for
// them as long as the test runs, and told what is left by left (nil: nothing); ran
// receives what its run returns once cancel is called.
func startWriter(store *recordingStore, minListings int, remaining *backlog) (w *listingWriter, ctx context.Context, cancel context.CancelFunc, ran chan error) {
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w = newListingWriter(store, st, 4)
	w.minListings, w.linger, w.backlog = minListings, time.Hour, remaining
	ctx, cancel = context.WithCancel(context.Background())
	ran = make(chan error, 1)
	go func() { ran <- w.run(ctx) }()
	return w, ctx, cancel, ran
}

// waitForWrites waits until store has seen n writes, failing with why after 10 s.
func waitForWrites(t *testing.T, store *recordingStore, n int, why string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		store.mu.Lock()
		written := store.writes
		store.mu.Unlock()
		if written >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(why)
		}
	}
}

// sharedAnswer returns urls as strings that share one buffer, as the strings of an
// adapter's decoded answer share its bytes, and a weak pointer to that buffer: nil once
// nothing keeps it.
func sharedAnswer(urls ...string) ([]string, weak.Pointer[byte]) {
	// Padded past the size at which the runtime packs small allocations together.
	answer := strings.Join(urls, "") + strings.Repeat(" ", 1024)
	out := make([]string, len(urls))
	at := 0
	for i, u := range urls {
		out[i] = answer[at : at+len(u)]
		at += len(u)
	}
	return out, weak.Make(unsafe.StringData(answer))
}

// keptAnswers returns, after a garbage collection, which answers (numbered from 1) are
// still kept.
func keptAnswers(answers []weak.Pointer[byte]) []int {
	runtime.GC()
	var kept []int
	for i, a := range answers {
		if a.Value() != nil {
			kept = append(kept, i+1)
		}
	}
	return kept
}

// The writer keeps no page it has written. It remembers the listings it wrote by copies of
// their URLs, not by strings that share the adapter's whole answer, which would keep every
// page of the crawl in memory until the crawl ends. That holds for a listing met again
// unchanged and for one written again with changes, since a map assignment stores its
// key anew.
func TestWriterReleasesPagesOnceTheirListingsAreWritten(t *testing.T) {
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	w := newListingWriter(&recordingStore{}, st, 1)
	answers := writeSharedAnswers(t, w, []pricedPage{
		{"shoes", 10, []string{"https://shop.example/products/boot", "https://shop.example/products/clog"}},
		{"sale", 10, []string{"https://shop.example/products/boot", "https://shop.example/products/clog"}},
		{"clearance", 8, []string{"https://shop.example/products/boot"}},
	})
	if kept := keptAnswers(answers); len(kept) > 0 {
		t.Errorf("answers %v kept after their listings were written", kept)
	}
	if st.progress.ListingsFound != 2 || len(st.written) != 2 {
		t.Errorf("%d listings found, %d remembered, want 2", st.progress.ListingsFound, len(st.written))
	}
}

// pricedPage is one page of listings of a collection, all at one price.
type pricedPage struct {
	collection string
	price      float64
	urls       []string
}

// writeSharedAnswers writes each page, its listings' strings sharing one answer, and
// returns the answers; nothing of them is left on its stack.
func writeSharedAnswers(t *testing.T, w *listingWriter, pages []pricedPage) []weak.Pointer[byte] {
	t.Helper()
	var answers []weak.Pointer[byte]
	for _, p := range pages {
		urls, answer := sharedAnswer(p.urls...)
		answers = append(answers, answer)
		var l writeRequest
		for _, u := range urls {
			l.listings = append(l.listings, catalog.ListingInput{URL: u, Price: &catalog.Price{Currency: "EUR", Current: p.price},
				CollectionURLs: []string{p.collection}})
		}
		if err := w.write(context.Background(), w.catalog, []writeRequest{l}); err != nil {
			t.Fatal(err)
		}
	}
	return answers
}

// Near the end of the listing, as the collections' sizes tell, the writer writes what has
// queued without waiting for a full batch. The last write is then small, and the end of
// the crawl does not wait for minListings listings to be written at once.
func TestWriterWritesAtOnceNearTheEnd(t *testing.T) {
	store := &recordingStore{}
	left := newBacklog()
	left.set("shoes", 4, 2) // two listings to come after the page below
	w, ctx, cancel, ran := startWriter(store, 100, left)
	defer cancel()
	if err := w.send(ctx, pageOf("shoes", "boot", "clog")); err != nil {
		t.Fatal(err)
	}
	waitForWrites(t, store, 1, "the page was held back for a full batch with two listings left to come")
	cancel()
	<-ran
}
