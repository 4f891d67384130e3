package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// PipelineOptions tune a Pipeline. The zero value is usable.
type PipelineOptions struct {
	// Collections is how many collection pages are listed at once (of different
	// collections, or of one whose pages its adapter named ahead; see listSlots for which).
	// Per-host politeness still applies underneath. Default 4.
	Collections int
	// MaxPages bounds the pages listed per collection, against endless paging: a
	// collection that has more is not listed whole, which fails the crawl (after the other
	// collections), naming it. Default 10,000.
	MaxPages int
	Logger   *slog.Logger
}

// Pipeline runs crawls.
type Pipeline struct {
	adapters *adapter.Set
	catalog  catalog.Store
	runner   *execution.Runner
	opts     PipelineOptions
}

// NewPipeline returns a Pipeline that reads sites through adapters and writes catalog.
func NewPipeline(adapters *adapter.Set, store catalog.Store, runner *execution.Runner, opts PipelineOptions) *Pipeline {
	if opts.Collections <= 0 {
		opts.Collections = 4
	}
	if opts.MaxPages <= 0 {
		opts.MaxPages = 10_000
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Pipeline{adapters: adapters, catalog: store, runner: runner, opts: opts}
}

// Run runs the crawl execution id to its end; it is the queue's handler for crawls.
func (p *Pipeline) Run(ctx context.Context, id string) error {
	return p.runner.Run(ctx, id, p.crawl)
}

// crawlState is what the steps share while a crawl runs.
type crawlState struct {
	job      *execution.Job
	vendor   string
	platform string
	// resumed says the crawl goes on from what an earlier run of it saved.
	resumed bool

	mu       sync.Mutex
	progress Progress
	// written holds a fingerprint of each listing this crawl has written (see
	// fingerprint): a listing met again in another collection, unchanged, is only linked
	// to it. Only the crawl's one writer touches it; its keys are copies (see write).
	written map[string]uint64
	seed    maphash.Seed
	// unsaved are the collections discovery found, until listing saves them (see
	// listOnce).
	unsaved []catalog.CollectionInput
}

func newCrawlState(job *execution.Job) *crawlState {
	return &crawlState{job: job, vendor: job.Vendor, written: map[string]uint64{}, seed: maphash.MakeSeed()}
}

func (st *crawlState) publish() {
	st.mu.Lock()
	p := st.progress
	p.Done = slices.Clone(p.Done)
	st.mu.Unlock()
	st.job.SetProgress(p)
}

func (p *Pipeline) crawl(ctx context.Context, job *execution.Job) (any, error) {
	var params Parameters
	if err := json.Unmarshal(job.Parameters, &params); err != nil {
		return nil, fmt.Errorf("read crawl parameters: %w", err)
	}
	st := newCrawlState(job)
	// A resumed crawl starts from what its predecessor saved.
	if len(job.Progress) > 0 {
		_ = json.Unmarshal(job.Progress, &st.progress)
	}
	st.resumed = st.progress.ListingsFound > 0 || len(st.progress.Done) > 0
	st.publish()
	log := p.opts.Logger.With("execution_id", job.ID, "vendor", st.vendor)
	started := time.Now()

	job.Step(stepMethodIdx, execution.Running)
	home, method, err := p.determineMethod(ctx, params.StartURL, st.vendor)
	if err != nil {
		return nil, err
	}
	st.platform = method.Platform
	log.Info("crawl method determined", "platform", method.Platform, "confidence", method.Confidence, "elapsed", time.Since(started))

	// The vendor is saved beside discovery and listing rather than before them: nothing
	// they do waits for it (the first write of collections creates the vendor if it is not
	// there yet), and a fresh server's first vendor write took 4 to 5 ms, which the crawl's
	// first pages waited for. It is saved whatever they meet, as it was before them, and
	// fails the crawl all the same.
	vendorSaved := make(chan error, 1)
	go func() { vendorSaved <- p.catalog.UpsertVendor(ctx, st.vendor, st.platform, time.Now()) }()
	result, err := p.discoverAndList(ctx, st, home, log, started)
	if vendorErr := <-vendorSaved; err == nil {
		err = vendorErr
	}
	if err != nil {
		return nil, err
	}
	result.Method = &method
	log.Info("crawl completed", "collections", result.CollectionsTotal, "listings", result.ListingsTotal, "elapsed", time.Since(started))
	return result, nil
}

// discoverAndList is the crawl's steps after its method: discovering the collections,
// counting them and listing them.
func (p *Pipeline) discoverAndList(ctx context.Context, st *crawlState, home *adapter.Document, log *slog.Logger, started time.Time) (Result, error) {
	job := st.job
	job.Step(stepDiscoverIdx, execution.Running)
	collections, err := p.discover(ctx, st, home)
	if err != nil {
		return Result{}, err
	}

	log.Info("collections discovered", "collections", len(collections), "elapsed", time.Since(started))
	job.Step(stepAnalyzeIdx, execution.Running)
	// Largest first: the catalog's biggest collections are ready soonest.
	slices.SortStableFunc(collections, func(a, b collection) int { return count(b.Collection) - count(a.Collection) })
	st.mu.Lock()
	st.progress.CollectionsFound = len(collections)
	st.mu.Unlock()
	st.publish()

	job.Step(stepListingsIdx, execution.Running)
	if err := p.listAll(ctx, st, collections); err != nil {
		return Result{}, err
	}
	total, err := p.listingsTotal(ctx, st, collections)
	if err != nil {
		return Result{}, err
	}
	if total == 0 {
		// Stores have products: collections that show none say that their pages could not
		// be read, which a crawl that completed empty would not.
		return Result{}, fmt.Errorf("list collections: none of the %d found shows a listing the adapters can read (its pages may be drawn by JavaScript, which they do not run, or the store has no products yet)", len(collections))
	}
	job.Step(stepListingsIdx, execution.Completed)
	log.Info("collections listed", "elapsed", time.Since(started))
	return Result{CollectionsTotal: len(collections), ListingsTotal: total}, nil
}

// listingsTotal is the number of distinct listings the crawl found in its collections.
// An uninterrupted crawl has written each of them, and counts what it wrote: asking the
// catalog took 24 to 73 ms after the last page of a 10,000-listing crawl, up to 6 % of it. A
// resumed crawl does not know what its predecessor wrote, and asks the catalog, whose
// count also holds the listings an earlier crawl linked to those collections.
func (p *Pipeline) listingsTotal(ctx context.Context, st *crawlState, collections []collection) (int, error) {
	if !st.resumed {
		// The writer has stopped: st.written is no longer changing.
		return len(st.written), nil
	}
	// Never an empty filter, which would count the vendor's every listing: discovery
	// fails a crawl that found no collection.
	urls := make([]string, len(collections))
	for i, c := range collections {
		urls[i] = c.key
	}
	_, n, err := p.catalog.Listings(ctx, catalog.ListingQuery{Vendor: st.vendor, CollectionURLs: urls, Page: pageOne})
	return n, err
}

// determineMethod fetches the home page and asks the adapters which platform runs it. The
// page returned is the site's home as siteHome gives it.
func (p *Pipeline) determineMethod(ctx context.Context, startURL, vendor string) (*adapter.Document, Method, error) {
	home, err := p.adapters.Fetcher.Fetch(ctx, startURL)
	if err != nil {
		return nil, Method{}, err
	}
	if home.Err != "" {
		// Err names the URL already.
		return nil, Method{}, errors.New(home.Err)
	}
	if home.Status >= 400 {
		return nil, Method{}, fmt.Errorf("fetch %s: the site answered %d", startURL, home.Status)
	}
	if home, err = siteHome(home, vendor); err != nil {
		return nil, Method{}, err
	}
	dets, err := p.adapters.Detect(ctx, home)
	if err != nil {
		return nil, Method{}, err
	}
	if len(dets) == 0 {
		return home, Method{Platform: "", Confidence: 0, Evidence: []string{"no platform detected: generic adapters"}}, nil
	}
	d := dets[0]
	return home, Method{Platform: d.Platform, Confidence: d.Confidence, Evidence: d.Evidence}, nil
}

// collection is a collection the crawl lists. Its URL is the one its adapter found, the
// site's own (its host, www. or not; its trailing slash), which the crawl reads it from:
// the canonical form would make a site that keeps to its own answer every page with a
// redirect, a request more each. key is the canonical form (urlnorm.Page), the catalog's
// and the saved progress's name for it.
type collection struct {
	adapter.Collection
	key string
}

// siteHome is the home page the site is read from: where the request for it ended, when
// a redirect kept to the vendor (to https, to or from www.), so that adapters build their
// URLs on the origin the site answers on. A redirect to another site is an error that
// names it: the crawl would read that host's pages as the vendor's, through a redirect
// each and beside any crawl of that host, or find none of its links the vendor's and end
// with an empty catalog.
func siteHome(home *adapter.Document, vendor string) (*adapter.Document, error) {
	if home.FinalURL == "" || home.FinalURL == home.URL {
		return home, nil
	}
	u, err := urlnorm.Page(home.FinalURL)
	if err != nil {
		return nil, fmt.Errorf("%s redirects to %q: %w", home.URL, home.FinalURL, err)
	}
	if !sameVendor(u, vendor) {
		host, _ := urlnorm.Host(u)
		return nil, fmt.Errorf("%s redirects to %s, another site: crawl %s to index it", home.URL, home.FinalURL, host)
	}
	return &adapter.Document{URL: home.FinalURL, Status: home.Status, Header: home.Header, Body: home.Body}, nil
}

// discover finds the vendor's collections, which listing saves.
func (p *Pipeline) discover(ctx context.Context, st *crawlState, home *adapter.Document) ([]collection, error) {
	found, err := p.adapters.Discover(ctx, st.platform, home)
	if err != nil {
		return nil, fmt.Errorf("discover collections: %w", err)
	}
	var out []collection
	var inputs []catalog.CollectionInput
	seen := map[string]bool{}
	for _, c := range found {
		u, err := urlnorm.Page(c.URL)
		if err != nil || !sameVendor(u, st.vendor) || seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, collection{Collection: c, key: u})
		inputs = append(inputs, catalog.CollectionInput{URL: u, Title: c.Title, Handle: c.Handle, ProductsTotal: c.ProductsCount})
	}
	// A crawl that completed with nothing would leave whoever started it to guess why.
	switch {
	case len(out) == 0 && len(found) > 0:
		return nil, fmt.Errorf("discover collections: the %d found from %s are on other sites, such as %s", len(found), home.URL, found[0].URL)
	case len(out) == 0:
		return nil, fmt.Errorf("discover collections: none found from %s (no collection or category pages the adapters recognise)", home.URL)
	}
	st.unsaved = inputs
	return out, nil
}

// sameVendor reports whether pageURL, in urlnorm.Page's form, is on the vendor's host.
// Page has already made the host canonical (as urlnorm.Host does), so only a port is left
// to drop: no second parse for every listing.
func sameVendor(pageURL, vendor string) bool {
	_, rest, ok := strings.Cut(pageURL, "://")
	if !ok {
		return false
	}
	authority, _, _ := strings.Cut(rest, "/")
	authority, _, _ = strings.Cut(authority, "?")
	if host, _, err := net.SplitHostPort(authority); err == nil {
		authority = host
	}
	return authority == vendor
}

func count(c adapter.Collection) int {
	if c.ProductsCount == nil {
		return 0
	}
	return *c.ProductsCount
}

var pageOne = page.Request{Number: 1, Size: 1}

// openPerSlot is how many collections are open per listing slot: enough for every
// collection of most stores to take turns, a bound on the goroutines of one that has
// thousands.
const openPerSlot = 16

// listAll lists every collection not done yet, a few pages at a time, while one writer
// saves what they find. A collection a page of which the store would not give, its
// retries spent, is listed again once the others are, as such faults often pass; one that
// fails again fails the crawl, named.
func (p *Pipeline) listAll(ctx context.Context, st *crawlState, collections []collection) error {
	unlisted, err := p.listOnce(ctx, st, collections)
	if err != nil {
		return err
	}
	var errs []error
	var again []collection
	for _, u := range unlisted {
		if errors.Is(u.err, errPageCap) {
			errs = append(errs, u.err) // listed again, it would stop at the same cap
		} else {
			again = append(again, u.c)
		}
	}
	if len(again) > 0 {
		p.opts.Logger.Info("listing again the collections not listed whole", "execution_id", st.job.ID, "collections", len(again))
		if unlisted, err = p.listOnce(ctx, st, again); err != nil {
			return err
		}
		for _, u := range unlisted {
			errs = append(errs, u.err)
		}
	}
	return notListedWhole(errs, len(collections))
}

// errPageCap is a collection that still had pages when crawl.max_pages were listed.
var errPageCap = errors.New("crawl.max_pages")

// unlistedCollection is a collection that could not be listed whole, and why.
type unlistedCollection struct {
	c   collection
	err error
}

// listOnce lists the collections not done yet and returns those it could not list whole.
// An error is one that stops the crawl: a bot wall, a failed write, the crawl's end.
func (p *Pipeline) listOnce(ctx context.Context, st *crawlState, collections []collection) ([]unlistedCollection, error) {
	st.mu.Lock()
	done := map[string]bool{}
	for _, u := range st.progress.Done {
		done[u] = true
	}
	st.mu.Unlock()
	g, gctx := errgroup.WithContext(ctx)
	w := newListingWriter(p.catalog, st, pagesQueuedPerLister*p.opts.Collections)
	w.left = newBacklog()
	for _, c := range collections {
		if !done[c.key] {
			w.left.set(c.key, count(c.Collection), 0)
		}
	}
	unsaved := st.unsaved
	st.unsaved = nil
	slots := newListSlots(p.opts.Collections)
	var mu sync.Mutex
	var unlisted []unlistedCollection
	g.Go(func() error {
		// The collections are saved while their first pages are fetched, and before any
		// listing is written (a listing is linked to its collections as it is written):
		// saving them first took a fresh server's connections 6 to 11 ms, which the first
		// pages waited for. Under ctx, not gctx: saved even when listing fails at once.
		if len(unsaved) > 0 {
			if err := p.catalog.UpsertCollections(ctx, st.vendor, unsaved, time.Now()); err != nil {
				return err
			}
		}
		return w.run(gctx)
	})
	g.Go(func() error {
		defer w.close()
		// A bot wall stops the listing at once: every further page would meet it.
		wallCtx, stop := context.WithCancelCause(gctx)
		defer stop(nil)
		listers, lctx := errgroup.WithContext(wallCtx)
		listers.SetLimit(openPerSlot * p.opts.Collections)
		for _, c := range collections {
			if done[c.key] {
				continue
			}
			listers.Go(func() error {
				err := p.listCollection(lctx, st, c, slots, w, stop)
				switch {
				case err == nil:
					return nil
				case lctx.Err() != nil:
					// Stopped by a bot wall (see listPage), a failed write or the crawl's
					// end: the cause says which, whichever lister returns first.
					return context.Cause(lctx)
				}
				// A page the store would not give, retries spent: the other collections are
				// still listed.
				p.opts.Logger.Warn("collection not listed whole", "execution_id", st.job.ID, "collection", c.URL, "err", err)
				mu.Lock()
				unlisted = append(unlisted, unlistedCollection{c, err})
				mu.Unlock()
				return nil
			})
		}
		return listers.Wait()
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return unlisted, nil
}

// notListedWhole is the crawl's error when some of its all collections could not be listed
// whole, unlisted saying why for each; nil when there are none. It names the first.
func notListedWhole(unlisted []error, all int) error {
	switch len(unlisted) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("could not list 1 of %d collections whole (the listings found are saved; crawl again to complete it): %w", all, unlisted[0])
	}
	return fmt.Errorf("could not list %d of %d collections whole (the listings found are saved; crawl again to complete them): %w; and %d more",
		len(unlisted), all, unlisted[0], len(unlisted)-1)
}

// listCollection pages through one collection, a page per slot, queueing each page's
// listings for w.
func (p *Pipeline) listCollection(ctx context.Context, st *crawlState, c collection, slots *listSlots, w *listingWriter, stop context.CancelCauseFunc) error {
	l := &collectionLister{p: p, st: st, c: c, slots: slots, w: w, stop: stop, size: count(c.Collection)}
	// Whatever ends the listing: a collection that failed holds nothing more to write.
	defer w.left.done(c.key)
	// Each round lists the page the last one named next, or the pages it named ahead: those
	// are listed at once, not each after the one before, for a long collection's pages in a
	// row were a crawl's longest wait.
	cursors, first := []string{""}, true
	for pages := 0; len(cursors) > 0; first = false {
		if pages == p.opts.MaxPages {
			// Cut short, not ended: said, where it once passed for the collection's end.
			return fmt.Errorf("list %s: stopped after %d pages with more to come (%w)", c.URL, pages, errPageCap)
		}
		cursors = cursors[:min(len(cursors), p.opts.MaxPages-pages)]
		lp, cursor, err := l.listRound(ctx, cursors, first)
		if err != nil {
			if l.endsHere(err, first) {
				break
			}
			return err
		}
		pages += len(cursors)
		switch {
		case len(lp.Ahead) > 0:
			cursors = lp.Ahead
		case lp.Next != "" && lp.Next != cursor:
			cursors = []string{lp.Next}
		default:
			cursors = nil
		}
	}
	l.mu.Lock()
	found := l.found
	l.mu.Unlock()
	w.left.done(c.key) // before the writer hears of it: it may be all the writer waits for
	return w.send(ctx, listed{complete: c.key, total: found})
}

// endsHere reports whether err, met listing a page, ends the collection there as the site
// wants rather than failing it: robots.txt keeps crawlers from the page, or the
// collection's first page is not there (a stale menu or sitemap link). A page missing
// further on is a listing cut short, an error.
func (l *collectionLister) endsHere(err error, first bool) bool {
	switch {
	case errors.Is(err, adapter.ErrDisallowed):
		l.p.opts.Logger.Info("collection listed up to a page robots.txt disallows", "execution_id", l.st.job.ID, "collection", l.c.URL, "err", err)
		return true
	case first && errors.Is(err, adapter.ErrGone):
		l.p.opts.Logger.Warn("collection not found", "execution_id", l.st.job.ID, "collection", l.c.URL, "err", err)
		return true
	}
	return false
}

// collectionLister lists the pages of one collection.
type collectionLister struct {
	p     *Pipeline
	st    *crawlState
	c     collection
	slots *listSlots
	w     *listingWriter
	// stop ends the crawl's listing, for a bot wall.
	stop context.CancelCauseFunc

	mu    sync.Mutex
	found int // listings queued
	// size is the collection's size as the store says: its count at discovery, else what
	// its pages state, so that a long collection gets its turns from its second page on.
	size int
}

// listPage lists the page at cursor (the collection's first when first is set, one its
// adapter named ahead when ahead is), queues its listings and returns what the page says
// of the pages after it, without the listings: those are the writer's from then on, and
// their strings share the bytes of the adapter's whole answer, which a round of pages
// (every page of a collection of known size) would otherwise keep until its last page.
func (l *collectionLister) listPage(ctx context.Context, cursor string, first, ahead bool) (adapter.ListPage, error) {
	l.mu.Lock()
	size, found := l.size, l.found
	l.mu.Unlock()
	if err := l.slots.acquire(ctx, pagePriority(first, ahead, size, found)); err != nil {
		return adapter.ListPage{}, err
	}
	lp, err := l.p.adapters.List(ctx, l.st.platform, l.c.URL, cursor, size)
	if errors.Is(err, adapter.ErrBlocked) {
		// Before the slot is given back, so that no page is asked of the site past the wall.
		l.stop(err)
	}
	l.slots.release()
	if err != nil {
		// The adapter set's errors name the collection already.
		return lp, err
	}
	inputs := make([]catalog.ListingInput, 0, len(lp.Listings))
	for _, listing := range lp.Listings {
		u, err := urlnorm.Page(listing.URL)
		if err != nil || !sameVendor(u, l.st.vendor) {
			continue
		}
		inputs = append(inputs, listingInput(u, listing, l.c.key))
	}
	l.mu.Lock()
	l.found += len(inputs)
	if lp.Total > 0 {
		l.size = lp.Total
	}
	size, found = l.size, l.found
	l.mu.Unlock()
	// Counted before the writer has them, so that the page it receives is no longer
	// among what it reckons is left (see listingWriter.need).
	l.w.left.set(l.c.key, size, found)
	if len(inputs) > 0 {
		if err := l.w.send(ctx, listed{listings: inputs}); err != nil {
			return lp, err
		}
	}
	lp.Listings = nil
	return lp, nil
}

// listRound lists the pages at cursors: one, the collection's first when first is set, or
// several named ahead, at once as the slots allow. It returns the page the listing goes on
// from, and its cursor: the first that ends the collection, naming no page after it, else
// the last. Pages named past that end and not yet asked for are not asked for, and those
// asked for fail nothing, the store's "not there" included: an adapter that cannot know
// where a collection ends names a few pages at a time, some of which lie beyond it, and
// one that trusts a count the collection's pages state names them all, up to a count
// that may be too high.
func (l *collectionLister) listRound(ctx context.Context, cursors []string, first bool) (adapter.ListPage, string, error) {
	if len(cursors) == 1 {
		lp, err := l.listPage(ctx, cursors[0], first, false)
		return lp, cursors[0], err
	}
	g, gctx := errgroup.WithContext(ctx)
	// No more of a collection's pages wait for a slot than there are slots: one of
	// thousands of pages holds a few goroutines, not thousands.
	g.SetLimit(l.p.opts.Collections)
	pages := make([]adapter.ListPage, len(cursors))
	pageCtxs := make([]context.Context, len(cursors))
	stops := make([]context.CancelFunc, len(cursors))
	for i := range cursors {
		pageCtxs[i], stops[i] = context.WithCancel(gctx)
		defer stops[i]()
	}
	var mu sync.Mutex
	end := len(cursors) // the first page that ends the collection, so far
	// The first page the store says it does not have, which fails the round only if it
	// comes before the end: pages named past the end of a collection whose count was too
	// high are answered 404 by many stores, often sooner than the last page.
	gone, goneErr := len(cursors), error(nil)
	for i, cursor := range cursors {
		g.Go(func() error {
			lp, err := l.listPage(pageCtxs[i], cursor, false, true)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil && (i > end || gctx.Err() == nil && pageCtxs[i].Err() != nil):
				return nil // past the end: its answer, or that it has none, says nothing
			case errors.Is(err, adapter.ErrGone):
				if i < gone {
					gone, goneErr = i, err
				}
				return nil
			case err != nil:
				return err
			}
			pages[i] = lp
			if lp.Next == "" && len(lp.Ahead) == 0 && i < end {
				end = i
				for _, stop := range stops[i+1:] {
					stop()
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return adapter.ListPage{}, "", err
	}
	if gone < end {
		return adapter.ListPage{}, "", goneErr
	}
	last := min(end, len(cursors)-1)
	return pages[last], cursors[last], nil
}

// listingInput is l for the catalog: u is its canonical URL; l's own, when it differs, is
// kept as its page URL.
func listingInput(u string, l adapter.Listing, collectionURL string) catalog.ListingInput {
	in := catalog.ListingInput{URL: u, Name: l.Title, CollectionURLs: []string{collectionURL}}
	if l.URL != u {
		in.PageURL = l.URL
	}
	if l.Price != nil {
		in.Price = listingPrice(l.Price)
	}
	for i, img := range l.Images {
		in.Images = append(in.Images, listingImage(i, img))
	}
	return in
}

func listingPrice(p *product.Price) *catalog.Price {
	return &catalog.Price{Currency: p.Currency, Current: p.Current, CompareAt: p.CompareAt}
}

func listingImage(i int, img product.Image) catalog.Image {
	pos := img.Position
	if pos == 0 {
		pos = i + 1
	}
	return catalog.Image{ID: img.ID, URL: img.URL, Width: img.Width, Height: img.Height, Position: pos, Alt: img.AltText}
}
