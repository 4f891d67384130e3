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
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/core/sitemap"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// PipelineOptions tune a Pipeline. The zero value is usable.
type PipelineOptions struct {
	// Collections is how many collection pages are listed at once. They may belong to
	// different collections, or to one collection whose adapter named several pages ahead
	// (listSlots decides which page goes next). The fetcher's per-host politeness still
	// applies underneath. Default 4.
	Collections int
	// MaxPages bounds the pages listed per collection, so that endless paging cannot keep
	// a crawl running forever. A collection with more pages than this is not listed whole:
	// the crawl lists the other collections, then fails with an error that names it.
	// Default 10,000.
	MaxPages int
	// Sitemaps bound the reading of a site's sitemaps (see sitemap.Limits for the
	// defaults).
	Sitemaps sitemap.Limits
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
	// resumed is true when this run continues from the progress an earlier run of the
	// same crawl saved.
	resumed bool

	mu       sync.Mutex
	progress Progress
	// written maps the URL of each listing this crawl has written to its fingerprint (see
	// fingerprint). When a listing turns up again, unchanged, in another collection, the
	// writer only links it to that collection. Only the crawl's single writer touches
	// this map, and its keys are copies (see listingWriter.write).
	written map[string]uint64
	seed    maphash.Seed
	// unserved counts the collections discovery found that the store does not serve (see
	// collectionLister.isCollectionEnd): they are not recorded.
	unserved int
	// sources is what each source gave discovery, for the crawl's Method.
	sources discoverySources
}

func newCrawlState(job *execution.Job) *crawlState {
	return &crawlState{job: job, vendor: job.Vendor, written: map[string]uint64{}, seed: maphash.MakeSeed()}
}

// publish hands a copy of the current progress to the job, which saves it.
func (st *crawlState) publish() {
	st.mu.Lock()
	p := st.progress
	p.Done = slices.Clone(p.Done)
	st.mu.Unlock()
	st.job.SetProgress(p)
}

// crawl runs every step of one crawl and returns its Result.
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
	st.progress.Fetch = st.progress.Fetch.Continued()
	ctx = fetch.WithMeter(ctx, st.progress.Fetch)
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

	// Save the vendor while discovery and listing run, not before them: neither needs the
	// vendor row (the first write of collections creates it if it is missing), so the
	// crawl's first pages need not wait for this write. A failed vendor write still fails
	// the crawl.
	vendorSaved := make(chan error, 1)
	go func() { vendorSaved <- p.catalog.UpsertVendor(ctx, st.vendor, st.platform, time.Now()) }()
	result, err := p.discoverAndList(ctx, st, home, log, started)
	if vendorErr := <-vendorSaved; err == nil {
		err = vendorErr
	}
	if err != nil {
		return nil, err
	}
	method.Source, method.Reason = st.sources.source(), st.sources.reason()
	result.Method = &method
	requests := st.progress.Fetch.Requests()
	result.Requests = &requests
	log.Info("crawl completed", "collections", result.CollectionsTotal, "listings", result.ListingsTotal, "elapsed", time.Since(started))
	return result, nil
}

// discoverAndList runs the steps that follow the crawl method: it discovers the
// collections, counts them and lists every one.
func (p *Pipeline) discoverAndList(ctx context.Context, st *crawlState, home *adapter.Document, log *slog.Logger, started time.Time) (Result, error) {
	job := st.job
	job.Step(stepDiscoverIdx, execution.Running)
	collections, plan, err := p.discover(ctx, st, home)
	if err != nil {
		return Result{}, err
	}

	log.Info("collections discovered", "collections", len(collections), "elapsed", time.Since(started))
	job.Step(stepAnalyzeIdx, execution.Running)
	// List the largest collections first, so that the biggest parts of the catalog are
	// ready soonest.
	slices.SortStableFunc(collections, func(a, b collection) int { return count(b.Collection) - count(a.Collection) })
	st.mu.Lock()
	st.progress.CollectionsFound = len(collections)
	st.mu.Unlock()
	st.publish()

	job.Step(stepListingsIdx, execution.Running)
	if err := p.listAll(ctx, st, collections); err != nil {
		return Result{}, err
	}
	discovered := len(collections)
	if plan != nil && len(plan.pages) > 0 {
		// The sitemaps' pages that no collection listed: those whose addresses said
		// nothing, and the products of no category.
		if collections, err = p.listSitemapPages(ctx, st, plan, collections, &st.sources); err != nil {
			return Result{}, err
		}
	}
	total, err := p.listingsTotal(ctx, st, collections)
	if err != nil {
		return Result{}, err
	}
	if total == 0 {
		// Every store has products. When the collections show none, their pages could not
		// be read, and a crawl that completed with an empty catalog would hide that.
		const why = "(its pages may be drawn by JavaScript, which they do not run, or the store has no products yet)"
		if plan != nil && len(plan.pages) > 0 {
			return Result{}, fmt.Errorf("list collections: none of the %d found, nor any of the %d pages the sitemaps name, shows a listing the adapters can read %s", discovered, len(plan.pages), why)
		}
		return Result{}, fmt.Errorf("list collections: none of the %d found shows a listing the adapters can read %s", len(collections), why)
	}
	job.Step(stepListingsIdx, execution.Completed)
	log.Info("collections listed", "elapsed", time.Since(started))
	st.mu.Lock()
	recorded := len(collections) - st.unserved
	st.mu.Unlock()
	return Result{CollectionsTotal: recorded, ListingsTotal: total}, nil
}

// listingsTotal is the number of distinct listings the crawl found in its collections.
// A crawl that ran without interruption wrote each of them itself, so it counts what it
// wrote and spares the catalog a query at the very end of the crawl. A resumed crawl does
// not know what its earlier run wrote, so it asks the catalog; that count also includes
// listings an earlier crawl linked to the same collections.
func (p *Pipeline) listingsTotal(ctx context.Context, st *crawlState, collections []collection) (int, error) {
	if !st.resumed {
		// The writer has stopped: st.written is no longer changing.
		return len(st.written), nil
	}
	// The filter is never empty (an empty one would count all of the vendor's listings),
	// because discovery fails a crawl that found no collection.
	urls := make([]string, len(collections))
	for i, c := range collections {
		urls[i] = c.key
	}
	_, n, err := p.catalog.Listings(ctx, catalog.ListingQuery{Vendor: st.vendor, CollectionURLs: urls, Page: pageOne})
	return n, err
}

// determineMethod fetches the home page and asks the adapters which platform the site
// runs on. It returns the home page as siteHome resolves it, and the method.
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

// collection is a collection the crawl lists.
//
// Its URL is exactly the one the adapter found, with the site's own host (with or without
// www.) and trailing slash, and the crawl fetches pages from that URL. Fetching from the
// canonical form instead would make a site that insists on its own form answer every page
// with a redirect, which costs an extra request per page. key is the canonical form
// (urlnorm.Page); the catalog and the saved progress name the collection by it.
type collection struct {
	adapter.Collection
	key string
	// fromPages, when set, are the product pages the collection is read from, one by one,
	// instead of listing pages (see productPages).
	fromPages *productPages
}

// input is the collection in the catalog's form.
func (c collection) input() catalog.CollectionInput {
	return catalog.CollectionInput{URL: c.key, Title: c.Title, Handle: c.Handle, ProductsTotal: c.ProductsCount}
}

// siteHome returns the home page the crawl reads the site from.
//
// When the request for the home page was redirected within the vendor's site (to https,
// or to or from www.), siteHome returns the page where the redirects ended, so that the
// adapters build their URLs on the origin the site really answers on.
//
// A redirect to another site is an error that names that site. Following it would either
// read the other host's pages as this vendor's (each through a redirect, and alongside
// any crawl of that host), or find none of its links on the vendor's host and end with an
// empty catalog.
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

// discover finds the vendor's collections: those the platform's adapter names, or else
// those the generic adapters find linked from the home page together with what the
// site's sitemaps name (plan, nil when they were not read). It keeps the collections on
// the vendor's host, each once. None is saved yet: a collection is recorded once the store
// serves its first page (see collectionLister.listPage).
func (p *Pipeline) discover(ctx context.Context, st *crawlState, home *adapter.Document) ([]collection, *sitemapPlan, error) {
	found, err := p.adapters.Discovery(ctx, st.platform, home)
	if err != nil && (ctx.Err() != nil || errors.Is(err, adapter.ErrBlocked)) {
		return nil, nil, fmt.Errorf("discover collections: %w", err)
	}
	src := &st.sources
	src.adapter = found.Adapter
	out := keepCollections(found.Collections, st.vendor, nil)
	src.linked = len(out)
	if len(out) > 0 && !found.Generic {
		// The platform's own catalog names every collection, and its collection of
		// every product where it has one: its sitemaps would add nothing.
		src.platform = true
		return out, nil, nil
	}
	plan, serr := p.readSitemaps(ctx, st, home)
	if serr != nil {
		return nil, nil, fmt.Errorf("discover collections: %w", serr)
	}
	src.plan = plan
	// A menu link to a page the sitemaps show to be no collection (contact, shipping,
	// a legal page) is not one.
	kept := out[:0]
	for _, c := range out {
		if plan.others[c.key] {
			src.dropped++
			continue
		}
		kept = append(kept, c)
	}
	out = kept
	have := map[string]bool{}
	for _, c := range out {
		have[c.key] = true
	}
	more := keepCollections(plan.collections, st.vendor, have)
	src.added = len(more)
	out = append(out, more...)
	if len(out) > 0 || len(plan.pages) > 0 {
		return out, plan, nil
	}
	// Fail with a reason: a crawl that completed with nothing would leave whoever started
	// it to guess why.
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("discover collections: %w", err)
	case len(found.Collections) > 0:
		return nil, nil, fmt.Errorf("discover collections: the %d found from %s are on other sites, such as %s", len(found.Collections), home.URL, found.Collections[0].URL)
	case len(plan.report.Roots) > 0:
		return nil, nil, fmt.Errorf("discover collections: none found from %s (no collection or category pages the adapters recognise), and its sitemaps name no collection or product page", home.URL)
	}
	return nil, nil, fmt.Errorf("discover collections: none found from %s (no collection or category pages the adapters recognise, and no sitemap)", home.URL)
}

// keepCollections returns the collections of found on the vendor's host that are not in
// have (canonical URLs; nil for none), each once.
func keepCollections(found []adapter.Collection, vendor string, have map[string]bool) []collection {
	var out []collection
	seen := map[string]bool{}
	for _, c := range found {
		u, err := urlnorm.Page(c.URL)
		if err != nil || !sameVendor(u, vendor) || seen[u] || have[u] {
			continue
		}
		seen[u] = true
		out = append(out, collection{Collection: c, key: u})
	}
	return out
}

// sameVendor reports whether pageURL, already in urlnorm.Page's canonical form, is on the
// vendor's host. Page has already made the host canonical the way urlnorm.Host does, so
// only a port is left to drop, and no listing's URL is parsed a second time.
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

// count is the number of products the store says a collection holds, or 0 when it does
// not say.
func count(c adapter.Collection) int {
	if c.ProductsCount == nil {
		return 0
	}
	return *c.ProductsCount
}

// pageOne asks for the smallest page there is: listingsTotal wants only the count.
var pageOne = page.Request{Number: 1, Size: 1}

// openPerSlot is how many collections may be open at once per listing slot. It is enough
// for every collection of most stores to take turns, and it bounds the goroutines of a
// store that has thousands of collections.
const openPerSlot = 16

// listAll lists every collection that is not done yet, a few pages at a time, while a
// single writer saves the listings found.
//
// When the store refuses one of a collection's pages even after the fetcher's retries,
// that collection is listed a second time once the others are done, because such faults
// are often temporary. A collection that fails again fails the crawl, and the error names
// it.
func (p *Pipeline) listAll(ctx context.Context, st *crawlState, collections []collection) error {
	unlisted, err := p.listOnce(ctx, st, collections)
	if err != nil {
		return err
	}
	var errs []error
	var again []collection
	for _, u := range unlisted {
		if errors.Is(u.err, errPageCap) {
			errs = append(errs, u.err) // listing it again would stop at the same limit
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

// errPageCap marks a collection that still had more pages after crawl.max_pages of its
// pages were listed.
var errPageCap = errors.New("crawl.max_pages")

// unlistedCollection is a collection that could not be listed whole, and why.
type unlistedCollection struct {
	c   collection
	err error
}

// listOnce lists the collections that are not done yet and returns the ones it could not
// list whole. It returns an error only for what stops the whole crawl: a bot wall, a
// failed write, or the crawl being cancelled.
func (p *Pipeline) listOnce(ctx context.Context, st *crawlState, collections []collection) ([]unlistedCollection, error) {
	st.mu.Lock()
	done := map[string]bool{}
	for _, u := range st.progress.Done {
		done[u] = true
	}
	st.mu.Unlock()
	g, gctx := errgroup.WithContext(ctx)
	w := newListingWriter(p.catalog, st, pagesQueuedPerLister*p.opts.Collections)
	w.backlog = newBacklog()
	for _, c := range collections {
		if !done[c.key] {
			w.backlog.set(c.key, count(c.Collection), 0)
		}
	}
	slots := newListSlots(p.opts.Collections)
	var mu sync.Mutex
	var unlisted []unlistedCollection
	g.Go(func() error { return w.run(gctx) })
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
					// Listing was stopped by a bot wall (see listPage), a failed write or
					// the crawl's end. The context's cause says which, whichever lister
					// returns first.
					return context.Cause(lctx)
				}
				// The store refused a page even after retries. Record the collection and
				// keep listing the others.
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

// notListedWhole returns the crawl's error when some of its collections could not be
// listed whole, or nil when every collection was. unlisted holds one error per collection
// that failed; all is the number of collections in the crawl. The message quotes the first
// error and counts the rest.
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

// listCollection pages through one collection, taking a slot for each page, and queues
// each page's listings for the writer w.
func (p *Pipeline) listCollection(ctx context.Context, st *crawlState, c collection, slots *listSlots, w *listingWriter, stop context.CancelCauseFunc) error {
	l := &collectionLister{p: p, st: st, c: c, slots: slots, w: w, stop: stop, size: count(c.Collection)}
	// However listing ends, the collection has nothing more to write.
	defer w.backlog.done(c.key)
	// Each round lists the next page that the previous round named, or all of the pages it
	// named ahead. Pages named ahead are listed together rather than one after another,
	// because a long collection read page by page is what a crawl waits for longest.
	cursors, first := []string{""}, true
	for pages := 0; len(cursors) > 0; first = false {
		if pages == p.opts.MaxPages {
			// The collection has more pages than the crawl may list. Report it instead of
			// treating the limit as the collection's end.
			return fmt.Errorf("list %s: stopped after %d pages with more to come (%w)", c.URL, pages, errPageCap)
		}
		cursors = cursors[:min(len(cursors), p.opts.MaxPages-pages)]
		lp, cursor, err := l.listRound(ctx, cursors, first)
		if err != nil {
			if !l.isCollectionEnd(err, first) {
				return err
			}
			if first {
				// The store does not serve the collection, so it is not recorded.
				l.st.mu.Lock()
				l.st.unserved++
				l.st.progress.CollectionsFound--
				l.st.mu.Unlock()
				l.st.publish()
				return nil
			}
			break
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
	// Update the backlog before telling the writer: this collection may be the last thing
	// the writer is waiting for.
	w.backlog.done(c.key)
	return w.send(ctx, writeRequest{finishedCollection: c.key, finishedTotal: found})
}

// isCollectionEnd reports whether err, met while listing a page, means the collection
// simply ends there, as the site wants, rather than that listing failed. That is so when
// robots.txt keeps crawlers away from the page, or when the collection's first page does
// not exist (a stale link in a menu or sitemap, or a collection the platform has but this
// store does not serve). A page missing later in the collection means the listing was cut
// short, which is an error. A collection that ends at its first page is not recorded.
func (l *collectionLister) isCollectionEnd(err error, first bool) bool {
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
	// stop ends all of the crawl's listing; listPage calls it on meeting a bot wall.
	stop context.CancelCauseFunc

	mu    sync.Mutex
	found int // listings queued for the writer so far
	// size is the number of products the store says the collection holds: its count at
	// discovery, or else what its pages state. Knowing it early lets a long collection
	// get priority from its second page on (see pagePriority).
	size int
}

// listPage lists the page at cursor and queues its listings for the writer. first is set
// for the collection's first page; ahead is set for a page the adapter named ahead.
//
// It returns what the page says about the pages after it, with the listings removed. The
// listings belong to the writer from then on, and their strings share the memory of the
// adapter's whole answer: keeping them here would hold every page of a round in memory
// until the round's last page is listed.
func (l *collectionLister) listPage(ctx context.Context, cursor string, first, ahead bool) (adapter.ListPage, error) {
	l.mu.Lock()
	size, found := l.size, l.found
	l.mu.Unlock()
	if err := l.slots.acquire(ctx, pagePriority(first, ahead, size, found)); err != nil {
		return adapter.ListPage{}, err
	}
	var lp adapter.ListPage
	var err error
	if l.c.fromPages != nil {
		lp, err = l.c.fromPages.list(ctx, l.p.adapters, cursor)
	} else {
		lp, err = l.p.adapters.List(ctx, l.st.platform, l.c.URL, cursor, size)
	}
	if errors.Is(err, adapter.ErrBlocked) {
		// Stop the listing before giving the slot back, so that no other page is requested
		// from a site that has put up a bot wall.
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
		inputs = append(inputs, listingInput(u, listing, l.c.key, l.c.Currency, lp.Adapter))
	}
	l.mu.Lock()
	l.found += len(inputs)
	if lp.Total > 0 {
		l.size = lp.Total
	}
	size, found = l.size, l.found
	l.mu.Unlock()
	// Update the backlog before the writer receives the page, so that the writer never
	// counts this page among the listings still to come (see listingWriter.writeThreshold).
	l.w.backlog.set(l.c.key, size, found)
	req := writeRequest{listings: inputs}
	if first {
		// The store serves the collection: record it, before any of its listings.
		in := l.c.input()
		req.served = &in
	}
	if len(req.listings) > 0 || req.served != nil {
		if err := l.w.send(ctx, req); err != nil {
			return lp, err
		}
	}
	lp.Listings = nil
	return lp, nil
}

// listRound lists the pages at cursors: a single page (the collection's first when first
// is set), or several pages named ahead, listed at once as far as the slots allow.
//
// It returns the page that listing continues from, and that page's cursor: the first page
// that ends the collection (it names no page after it), or else the last page of the
// round.
//
// Pages past the collection's end are expected. An adapter that cannot know where a
// collection ends names a few pages at a time, some of which may lie beyond it; an adapter
// that trusts the product count a store states names every page up to that count, which
// may be too high. So pages past the end are not requested if they have not been yet,
// and any answer for them, including "not found", is ignored.
func (l *collectionLister) listRound(ctx context.Context, cursors []string, first bool) (adapter.ListPage, string, error) {
	if len(cursors) == 1 {
		lp, err := l.listPage(ctx, cursors[0], first, false)
		return lp, cursors[0], err
	}
	g, gctx := errgroup.WithContext(ctx)
	// Let no more of a collection's pages wait for a slot than there are slots, so that a
	// collection of thousands of pages holds a few goroutines, not thousands.
	g.SetLimit(l.p.opts.Collections)
	pages := make([]adapter.ListPage, len(cursors))
	pageCtxs := make([]context.Context, len(cursors))
	stops := make([]context.CancelFunc, len(cursors))
	for i := range cursors {
		pageCtxs[i], stops[i] = context.WithCancel(gctx)
		defer stops[i]()
	}
	var mu sync.Mutex
	end := len(cursors) // the index of the first page found so far that ends the collection
	// firstMissing is the first page the store says does not exist. It fails the round
	// only if it comes before the end: many stores answer 404 for pages named past the end
	// of a collection whose stated count was too high, often before the last page answers.
	firstMissing, missingErr := len(cursors), error(nil)
	for i, cursor := range cursors {
		g.Go(func() error {
			lp, err := l.listPage(pageCtxs[i], cursor, false, true)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil && (i > end || gctx.Err() == nil && pageCtxs[i].Err() != nil):
				return nil // a page past the end: its error means nothing
			case errors.Is(err, adapter.ErrGone):
				if i < firstMissing {
					firstMissing, missingErr = i, err
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
	if firstMissing < end {
		return adapter.ListPage{}, "", missingErr
	}
	last := min(end, len(cursors)-1)
	return pages[last], cursors[last], nil
}

// listingInput converts the adapter's listing l into the catalog's form. u is the
// listing's canonical URL; when l's own URL differs, it is kept as the page URL. A price
// that names no currency is in currency, the store's as discovery found it. lister names
// the adapter that listed it, which alone reads its record.
func listingInput(u string, l adapter.Listing, collectionURL, currency, lister string) catalog.ListingInput {
	in := catalog.ListingInput{URL: u, Name: l.Title, CollectionURLs: []string{collectionURL}}
	if l.URL != u {
		in.PageURL = l.URL
	}
	if len(l.Record) > 0 {
		in.Record = &catalog.Record{Adapter: lister, Data: l.Record}
	}
	if l.Price != nil {
		in.Price = listingPrice(l.Price)
		if in.Price.Currency == "" {
			in.Price.Currency = currency
		}
	}
	for i, img := range l.Images {
		in.Images = append(in.Images, listingImage(i, img))
	}
	return in
}

// listingPrice converts an adapter's price into the catalog's form.
func listingPrice(p *product.Price) *catalog.Price {
	return &catalog.Price{Currency: p.Currency, Current: p.Current, CompareAt: p.CompareAt}
}

// listingImage converts the i-th image of a listing into the catalog's form. An image
// without a position takes its place in the list.
func listingImage(i int, img product.Image) catalog.Image {
	pos := img.Position
	if pos == 0 {
		pos = i + 1
	}
	return catalog.Image{ID: img.ID, URL: img.URL, Width: img.Width, Height: img.Height, Position: pos, Alt: img.AltText}
}
