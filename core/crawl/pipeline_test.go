package crawl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/execution"
)

// pagedStore is a generic adapter listing collections of fixed page counts, a page per
// listTime; collections in stating say on each page how many products they hold, and
// told a collection's size, its first page names the later ones (Ahead). It records
// which collection each call listed, in order, and the most calls at once.
type pagedStore struct {
	pages    map[string]int
	stating  map[string]bool
	listTime time.Duration
	// probing: collections whose full pages name the next probe pages ahead, as an adapter
	// does that does not know a collection's size; pages past the end list nothing.
	probing map[string]bool
	probe   int
	// lastPartial: the last page of a probing collection holds 5 listings, which says it is
	// the last. failPast: pages past a collection's end take five times listTime and then
	// fail, as a store may answer a page number beyond its catalog with an error.
	lastPartial, failPast bool
	// gonePast: pages past a collection's end answer at once that they are not there
	// (404), as an HTML store does; hole: a page of every collection that is not there.
	gonePast bool
	hole     int

	mu                    sync.Mutex
	calls                 []string
	pagesCalled           []int
	inFlight, maxInFlight int
	// together: pages listed while another page was being listed.
	together map[string]bool
}

func (s *pagedStore) Info() adapter.Info {
	return adapter.Info{Name: "paged", Capabilities: []adapter.Op{adapter.OpList}}
}

func (s *pagedStore) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	s.mu.Lock()
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	if s.inFlight > 1 {
		if s.together == nil {
			s.together = map[string]bool{}
		}
		s.together[req.URL+"#"+req.Cursor] = true
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	name := strings.TrimPrefix(req.URL, "https://shop.example/")
	page := 1
	if req.Cursor != "" {
		page, _ = strconv.Atoi(req.Cursor)
	}
	if s.gonePast && page > s.pages[name] || page == s.hole {
		return nil, fmt.Errorf("%s page %d: %w", name, page, adapter.ErrGone)
	}
	wait := s.listTime
	if s.failPast && page > s.pages[name] {
		wait *= 5
	}
	select {
	case <-time.After(wait):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if s.failPast && page > s.pages[name] {
		return nil, fmt.Errorf("%s page %d: the store answered 500", name, page)
	}
	s.mu.Lock()
	s.calls = append(s.calls, name)
	s.pagesCalled = append(s.pagesCalled, page)
	s.mu.Unlock()
	const perPage = 10
	resp := &adapter.Response{}
	if page > s.pages[name] {
		return resp, nil
	}
	for i := range perPage {
		resp.Listings = append(resp.Listings, adapter.Listing{URL: fmt.Sprintf("%s/p%d-%d", req.URL, page, i)})
	}
	if s.lastPartial && page == s.pages[name] {
		resp.Listings = resp.Listings[:5]
	} else if s.probing[name] {
		resp.Next = strconv.Itoa(page + 1)
		for p := page + 1; p <= page+s.probe; p++ {
			resp.Ahead = append(resp.Ahead, strconv.Itoa(p))
		}
	} else if page < s.pages[name] {
		resp.Next = strconv.Itoa(page + 1)
		if s.stating[name] {
			resp.Total = s.pages[name] * perPage
		}
		if page == 1 {
			for p := 2; p <= (req.Total+perPage-1)/perPage; p++ {
				resp.Ahead = append(resp.Ahead, strconv.Itoa(p))
			}
		}
	}
	return resp, nil
}

// A collection whose first page names its later pages has them listed at once, as many
// as there are slots; the listing goes on from the last one named when the collection is
// longer than its count said, and every listing is found once.
func TestListAllListsThePagesNamedAheadAtOnce(t *testing.T) {
	store := &pagedStore{pages: map[string]int{"all": 8}, listTime: 20 * time.Millisecond}
	set := &adapter.Set{Source: modules{store}}
	p := NewPipeline(set, &recordingStore{}, nil, PipelineOptions{Collections: 3})
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	counted := 60 // the store's count at discovery, two pages short
	collections := []collection{{Collection: adapter.Collection{URL: "https://shop.example/all", ProductsCount: &counted}, key: "https://shop.example/all"}}
	if err := p.listAll(context.Background(), st, collections); err != nil {
		t.Fatal(err)
	}
	if st.progress.ListingsFound != 80 || len(store.calls) != 8 {
		t.Errorf("%d listings found in %d pages, want 80 in 8", st.progress.ListingsFound, len(store.calls))
	}
	if store.maxInFlight != 3 {
		t.Errorf("%d pages listed at once at most, want the 3 slots", store.maxInFlight)
	}
}

// Every collection of unknown size gets its first page listed before any collection gets a
// second, because a first page may state the collection's size. A collection whose pages
// state a large size then gets slots ahead of collections that state nothing, instead of
// waiting its turn behind each of them; otherwise it would page on alone at the end of
// the crawl.
func TestListAllListsFirstPagesFirstThenTheCollectionWithMostLeft(t *testing.T) {
	store := &pagedStore{
		pages:    map[string]int{"short-a": 3, "short-b": 3, "long": 6},
		stating:  map[string]bool{"long": true},
		listTime: 50 * time.Millisecond, // far longer than a lister takes to queue again
	}
	set := &adapter.Set{Source: modules{store}}
	p := NewPipeline(set, &recordingStore{}, nil, PipelineOptions{Collections: 1})
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	var collections []collection
	for _, name := range []string{"short-a", "short-b", "long"} {
		u := "https://shop.example/" + name
		collections = append(collections, collection{Collection: adapter.Collection{URL: u}, key: u})
	}
	if err := p.listAll(context.Background(), st, collections); err != nil {
		t.Fatal(err)
	}
	if st.progress.ListingsFound != 120 {
		t.Errorf("%d listings found, want 120", st.progress.ListingsFound)
	}
	calls := store.calls
	if len(calls) != 12 {
		t.Fatalf("%d pages listed, want 12: %q", len(calls), calls)
	}
	if firsts := slices.Sorted(slices.Values(calls[:3])); !slices.Equal(firsts, []string{"long", "short-a", "short-b"}) {
		t.Errorf("first pages listed %q, want one of each collection", calls[:3])
	}
	// From then to long's last page, no two other pages are listed in a row.
	neverWaitsTwice(t, calls, "long", 3)
}

// When an adapter does not know a collection's size, it names a few pages ahead at a time.
// Those pages are listed at once, and the last of them names the next few. Once a page
// ends the collection, no further page is requested, and every listing is found once.
func TestListAllProbesAheadOfACollectionOfUnknownSize(t *testing.T) {
	store := &pagedStore{pages: map[string]int{"all": 6}, probing: map[string]bool{"all": true}, probe: 4, listTime: 20 * time.Millisecond}
	set := &adapter.Set{Source: modules{store}}
	p := NewPipeline(set, &recordingStore{}, nil, PipelineOptions{Collections: 2})
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	collections := []collection{{Collection: adapter.Collection{URL: "https://shop.example/all"}, key: "https://shop.example/all"}}
	if err := p.listAll(context.Background(), st, collections); err != nil {
		t.Fatal(err)
	}
	if st.progress.ListingsFound != 60 {
		t.Errorf("%d listings found, want 60", st.progress.ListingsFound)
	}
	// Page 5 names 6 to 9; 6, the last with listings, and 7 take the two slots, and their
	// answers end the collection before 8 or 9 is listed.
	called := slices.Sorted(slices.Values(store.pagesCalled))
	if want := []int{1, 2, 3, 4, 5, 6, 7}; !slices.Equal(called, want) {
		t.Errorf("pages listed %v, want %v", called, want)
	}
	if !store.together["https://shop.example/all#6"] && !store.together["https://shop.example/all#7"] {
		t.Errorf("pages 6 and 7 were listed one after the other, want them at once (pages named by page 5)")
	}
}

// A page named past a collection's end does not fail the listing when the store fails to
// give it: the page that ends the collection says there is nothing after it.
func TestListAllIgnoresPagesPastTheEnd(t *testing.T) {
	store := &pagedStore{pages: map[string]int{"all": 6}, probing: map[string]bool{"all": true}, probe: 4, listTime: 20 * time.Millisecond,
		lastPartial: true, failPast: true}
	set := &adapter.Set{Source: modules{store}}
	p := NewPipeline(set, &recordingStore{}, nil, PipelineOptions{Collections: 4})
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	collections := []collection{{Collection: adapter.Collection{URL: "https://shop.example/all"}, key: "https://shop.example/all"}}
	if err := p.listAll(context.Background(), st, collections); err != nil {
		t.Fatalf("listing failed on a page past the end: %v", err)
	}
	if st.progress.ListingsFound != 55 {
		t.Errorf("%d listings found, want 55", st.progress.ListingsFound)
	}
}

// When a collection's count at discovery was too high, the adapter names pages past its
// end, and an HTML store may answer 404 for them before the last real page is listed. The
// listing still ends at the last page. A missing page before pages that exist is a gap in
// the collection, though, and fails the listing.
func TestListAllIgnoresMissingPagesOnlyPastTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		hole int
		err  bool
	}{{"past the end", 0, false}, {"a hole", 4, true}} {
		t.Run(tc.name, func(t *testing.T) {
			store := &pagedStore{pages: map[string]int{"all": 6}, stating: map[string]bool{}, listTime: 20 * time.Millisecond, gonePast: true, hole: tc.hole}
			set := &adapter.Set{Source: modules{store}}
			p := NewPipeline(set, &recordingStore{}, nil, PipelineOptions{Collections: 4})
			st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
			counted := 90 // 9 pages of 10, where the store has 6
			collections := []collection{{Collection: adapter.Collection{URL: "https://shop.example/all", ProductsCount: &counted}, key: "https://shop.example/all"}}
			err := p.listAll(context.Background(), st, collections)
			switch {
			case tc.err && !errors.Is(err, adapter.ErrGone):
				t.Fatalf("listing with page %d not there: %v, want it named", tc.hole, err)
			case !tc.err && err != nil:
				t.Fatalf("listing failed on pages past the end: %v", err)
			case !tc.err && st.progress.ListingsFound != 60:
				t.Errorf("%d listings found, want 60", st.progress.ListingsFound)
			}
		})
	}
}

// A collection of unknown size is listed alongside collections whose pages are named
// ahead, not after them. Its pages must be read one after another, each named by the one
// before, so the crawl cannot end before that chain does; pages named ahead can be listed
// at any time. Shopify's collection of every product is such a collection: no store
// states its size.
func TestListAllListsACollectionOfUnknownSizeBeforePagesNamedAhead(t *testing.T) {
	store := &pagedStore{
		pages:    map[string]int{"all": 4, "a": 3, "b": 3},
		listTime: 50 * time.Millisecond, // far longer than a lister takes to queue again
	}
	set := &adapter.Set{Source: modules{store}}
	p := NewPipeline(set, &recordingStore{}, nil, PipelineOptions{Collections: 1})
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	counted := 30 // a and b's counts at discovery: their first pages name the two others
	var collections []collection
	for _, name := range []string{"a", "b", "all"} {
		u := "https://shop.example/" + name
		c := collection{Collection: adapter.Collection{URL: u}, key: u}
		if name != "all" {
			c.ProductsCount = &counted
		}
		collections = append(collections, c)
	}
	if err := p.listAll(context.Background(), st, collections); err != nil {
		t.Fatal(err)
	}
	calls := store.calls
	if st.progress.ListingsFound != 100 || len(calls) != 10 {
		t.Fatalf("%d listings found in %d pages, want 100 in 10: %q", st.progress.ListingsFound, len(calls), calls)
	}
	// The first pages come first (they name the pages after them); from then to all's last
	// page, no two other pages are listed in a row.
	if firsts := slices.Sorted(slices.Values(calls[:3])); !slices.Equal(firsts, []string{"a", "all", "b"}) {
		t.Errorf("first pages listed %q, want one of each collection", calls[:3])
	}
	neverWaitsTwice(t, calls, "all", 3)
}

// neverWaitsTwice fails t when, from calls[from] to collection's last page, two pages of
// other collections were listed in a row: with one slot, the collection's next page
// waited while another was listed after it was queued.
func neverWaitsTwice(t *testing.T, calls []string, collection string, from int) {
	t.Helper()
	last := 0
	for i, c := range calls {
		if c == collection {
			last = i
		}
	}
	for i := from; i < last; i++ {
		if calls[i] != collection && calls[i+1] != collection {
			t.Fatalf("%s and %s listed in a row while %s waited: %q", calls[i], calls[i+1], collection, calls)
		}
	}
}

// modules is a fixed adapter.Source.
type modules []adapter.Module

func (m modules) Modules() []adapter.Module { return m }

// sharedAnswers is an adapter listing one collection of pages pages of ten listings, the
// strings of each page sharing one answer (see sharedAnswer); its first page, told the
// collection's size, names the others ahead, and the last page waits for hold to close.
type sharedAnswers struct {
	pages int
	hold  chan struct{}

	mu      sync.Mutex
	answers []weak.Pointer[byte] // by page, from the first
}

func (s *sharedAnswers) Info() adapter.Info {
	return adapter.Info{Name: "shared", Capabilities: []adapter.Op{adapter.OpList}}
}

func (s *sharedAnswers) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	page := 1
	if req.Cursor != "" {
		page, _ = strconv.Atoi(req.Cursor)
	}
	if page == s.pages {
		select {
		case <-s.hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	urls := make([]string, 10)
	for i := range urls {
		urls[i] = fmt.Sprintf("%s/p%d-%d", req.URL, page, i)
	}
	urls, answer := sharedAnswer(urls...)
	s.mu.Lock()
	s.answers[page-1] = answer
	s.mu.Unlock()
	resp := &adapter.Response{}
	for _, u := range urls {
		resp.Listings = append(resp.Listings, adapter.Listing{URL: u})
	}
	if page < s.pages {
		resp.Next = strconv.Itoa(page + 1)
	}
	if page == 1 && req.Total > 0 {
		for p := 2; p <= s.pages; p++ {
			resp.Ahead = append(resp.Ahead, strconv.Itoa(p))
		}
	}
	return resp, nil
}

// Pages listed together in one round are released as soon as their listings are written,
// not kept until the round's last page is listed. For a collection of known size a round
// holds all of its pages, so keeping them would grow the heap with the size of the store.
func TestListAllReleasesPagesOnceTheirListingsAreWritten(t *testing.T) {
	store := &sharedAnswers{pages: 6, hold: make(chan struct{}), answers: make([]weak.Pointer[byte], 6)}
	written := &recordingStore{}
	p := NewPipeline(&adapter.Set{Source: modules{store}}, written, nil, PipelineOptions{Collections: 2})
	st := newCrawlState(&execution.Job{Execution: execution.Execution{Vendor: "shop.example"}})
	counted := 60
	collections := []collection{{Collection: adapter.Collection{URL: "https://shop.example/all", ProductsCount: &counted}, key: "https://shop.example/all"}}
	listed := make(chan error, 1)
	go func() { listed <- p.listAll(context.Background(), st, collections) }()
	defer func() {
		close(store.hold)
		if err := <-listed; err != nil {
			t.Fatal(err)
		}
		if st.progress.ListingsFound != 60 {
			t.Errorf("%d listings found, want 60", st.progress.ListingsFound)
		}
	}()

	// Pages 1 to 5 written, the last page still being listed.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		n := written.listings()
		if n == 50 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d listings written, want the first five pages' 50", n)
		}
	}
	store.mu.Lock()
	answers := slices.Clone(store.answers[:5])
	store.mu.Unlock()
	if kept := keptAnswers(answers); len(kept) > 0 {
		t.Errorf("pages %v kept after their listings were written, while the round lists page 6", kept)
	}
}
