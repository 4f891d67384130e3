package adapter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/stockroom/stockroom/core/product"
)

// Limits bound the follow-up fetches of one operation of one adapter.
type Limits struct {
	// Rounds is the most calls of one adapter per operation. Zero means 4.
	Rounds int
	// FetchesPerRound is the most URLs fetched after one round. Zero means 8.
	FetchesPerRound int
	// Documents is the most documents handed to an adapter in total. Zero means 24.
	Documents int
}

func (l Limits) withDefaults() Limits {
	if l.Rounds <= 0 {
		l.Rounds = 4
	}
	if l.FetchesPerRound <= 0 {
		l.FetchesPerRound = 8
	}
	if l.Documents <= 0 {
		l.Documents = 24
	}
	return l
}

// MinConfidence is the detection confidence from which a platform adapter is used.
const MinConfidence = 0.5

// Set runs the loaded adapters for the engines. Its zero value is not usable: Source and
// Fetcher are required.
type Set struct {
	Source  Source
	Fetcher Fetcher
	// Limits default as documented on Limits.
	Limits Limits
	// Renderer draws the pages that turn out to be application shells (IsAppShell) when
	// the adapters found nothing in them: the operation then runs again on what the
	// page's scripts drew. Nil means pages are never rendered, and such an operation
	// fails with ErrNeedsRendering.
	Renderer Renderer
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Result is the outcome of extracting one product URL.
type Result struct {
	Product *product.Product
	Outcome Outcome
	Message string
}

// run calls m for op until it stops asking for documents or a limit is reached; req.Docs
// ends with every document m was handed. Documents already fetched in this operation (by
// another adapter too) come from docs, which run extends, so no URL is fetched twice.
func (s *Set) run(ctx context.Context, m Module, req *Request, docs map[string]*Document) (*Response, error) {
	lim := s.Limits.withDefaults()
	for round := 0; ; round++ {
		req.Round = round
		resp, err := m.Call(ctx, req)
		if err != nil {
			return nil, err
		}
		if len(resp.Fetch) == 0 || round+1 >= lim.Rounds {
			return resp, nil
		}
		var wanted []string
		for _, u := range resp.Fetch {
			if len(wanted) >= lim.FetchesPerRound || len(req.Docs)+len(wanted) >= lim.Documents {
				break
			}
			if slices.Contains(wanted, u) || slices.ContainsFunc(req.Docs, func(d *Document) bool { return d.URL == u }) {
				continue
			}
			wanted = append(wanted, u)
		}
		if len(wanted) == 0 {
			// Everything asked for is already there (or over the limit): another round
			// would see the same documents and answer the same.
			return resp, nil
		}
		got, err := s.fetchAll(ctx, m, wanted, docs)
		if err != nil {
			return nil, err
		}
		req.Docs = append(req.Docs, got...)
	}
}

// fetchAll returns the documents at urls, in order, from docs or fetched, and adds those
// fetched to docs. The fetches run at once, the fetcher keeping to each host's limits: a
// round's documents (a store's collections and its sitemap) are often from one slow site,
// and one after another they cost a round trip each. A lone fetch (a listing page, the
// usual round) runs on the caller's goroutine: one started and waited for per page was a
// twentieth of listing a page from memory.
func (s *Set) fetchAll(ctx context.Context, m Module, urls []string, docs map[string]*Document) ([]*Document, error) {
	got := make([]*Document, len(urls))
	var missing []int
	for i, u := range urls {
		if d, ok := docs[u]; ok {
			got[i] = d
		} else {
			missing = append(missing, i)
		}
	}
	fetch := func(ctx context.Context, i int) error {
		d, err := s.Fetcher.Fetch(ctx, urls[i])
		if err != nil {
			return fmt.Errorf("fetch %s for %s: %w", urls[i], m.Info().Name, err)
		}
		got[i] = d
		return nil
	}
	if len(missing) == 1 {
		if err := fetch(ctx, missing[0]); err != nil {
			return nil, err
		}
	} else {
		g, gctx := errgroup.WithContext(ctx)
		for _, i := range missing {
			g.Go(func() error { return fetch(gctx, i) })
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
	}
	for i, u := range urls {
		docs[u] = got[i]
	}
	return got, nil
}

func (s *Set) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// Detect asks every adapter that can detect whether the site whose home page is home runs
// its platform, and returns the detections at or above MinConfidence, most confident first.
func (s *Set) Detect(ctx context.Context, home *Document) ([]Detection, error) {
	docs := map[string]*Document{home.URL: home}
	var out []Detection
	for _, m := range s.Source.Modules() {
		if !m.Info().Can(OpDetect) {
			continue
		}
		resp, err := s.run(ctx, m, &Request{Op: OpDetect, URL: home.Landed(), Docs: []*Document{home}}, docs)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.logger().Warn("adapter failed", "adapter", m.Info().Name, "op", OpDetect, "url", home.URL, "err", err)
			continue
		}
		if d := resp.Detection; d != nil && d.Confidence >= MinConfidence {
			out = append(out, *d)
		}
	}
	slices.SortStableFunc(out, func(a, b Detection) int {
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
	return out, nil
}

// ErrNoAdapter means no loaded adapter offers the operation for the platform.
var ErrNoAdapter = errors.New("no adapter for platform")

var (
	// ErrBlocked is an operation that met a bot wall on a page it needed. No other adapter
	// is tried after one: each would ask the site again, and meet the wall again.
	ErrBlocked = errors.New("automated access not permitted")
	// ErrDisallowed is an operation that failed on pages robots.txt keeps crawlers from
	// (and perhaps on pages that are not there), and on nothing else.
	ErrDisallowed = errors.New("disallowed by robots.txt")
	// ErrGone is an operation that failed on pages the site says are not there (404, 410),
	// and on nothing else.
	ErrGone = errors.New("not found")
)

// refusal says why the site refused the documents an adapter that failed was handed:
// ErrBlocked when any was a bot wall; when every one that failed was refused on purpose,
// ErrDisallowed if robots.txt kept any, else ErrGone; nil when some failed otherwise.
func refusal(docs []*Document) error {
	var refused []string
	disallowed, others := false, false
	for _, d := range docs {
		switch {
		case d.Blocked:
			msg := d.Err // the fetcher's, which names the page and the service
			if msg == "" {
				msg = d.URL + ": " + ErrBlocked.Error()
			}
			return &refusedError{msg: msg, kind: ErrBlocked}
		case d.Disallowed:
			refused = append(refused, d.URL+": "+ErrDisallowed.Error())
			disallowed = true
		case d.Status == 404 || d.Status == 410:
			refused = append(refused, fmt.Sprintf("%s answered %d", d.URL, d.Status))
		case d.Status == 0 || d.Status >= 400:
			others = true
		}
	}
	if len(refused) == 0 || others {
		return nil
	}
	slices.Sort(refused) // the same message for the same pages
	kind := ErrGone
	if disallowed {
		kind = ErrDisallowed
	}
	return &refusedError{msg: strings.Join(refused, ", "), kind: kind}
}

// refusedError is a refusal in the words of the documents refused; it wraps ErrBlocked,
// ErrDisallowed or ErrGone.
type refusedError struct {
	msg  string
	kind error
}

func (e *refusedError) Error() string { return e.msg }
func (e *refusedError) Unwrap() error { return e.kind }

// failure is the error of an adapter's answer that did nothing: why the site refused the
// pages it was handed (docs), when it did, else the call's error or the reason the adapter
// gave (its outcome). nil means the adapter simply found nothing.
func failure(resp *Response, err error, docs []*Document) error {
	if err == nil && resp.Outcome != "" && resp.Outcome != Success {
		err = errors.New(resp.Message)
	}
	if err == nil {
		return nil
	}
	if refused := refusal(docs); refused != nil {
		return refused
	}
	return err
}

// forPlatform returns the adapters that can do op for platform, platform adapters first.
// An empty platform selects the generic adapters.
func (s *Set) forPlatform(platform string, op Op) []Module {
	var specific, generic []Module
	for _, m := range s.Source.Modules() {
		info := m.Info()
		switch {
		case !info.Can(op):
		case info.Generic():
			generic = append(generic, m)
		case platform != "" && slices.Contains(info.Platforms, platform):
			specific = append(specific, m)
		}
	}
	return append(specific, generic...)
}

// Patterns returns the path patterns of product and of collection pages that the adapters
// of platform declare (Info.URLPatterns and Info.CollectionPatterns); none for the empty
// platform, since generic adapters know no platform's addresses.
func (s *Set) Patterns(platform string) (products, collections []string) {
	if platform == "" {
		return nil, nil
	}
	for _, m := range s.Source.Modules() {
		if info := m.Info(); slices.Contains(info.Platforms, platform) {
			products = append(products, info.URLPatterns...)
			collections = append(collections, info.CollectionPatterns...)
		}
	}
	return products, collections
}

// Discovery is what discovery found, and which adapter found it.
type Discovery struct {
	Collections []Collection
	// Adapter names the adapter that found them; Generic reports whether it is a generic
	// one (it read the home page's links) rather than the platform's own.
	Adapter string
	Generic bool
}

// Discover returns the collections of the site whose home page is home, from the first
// adapter for platform that finds any.
func (s *Set) Discover(ctx context.Context, platform string, home *Document) ([]Collection, error) {
	d, err := s.Discovery(ctx, platform, home)
	return d.Collections, err
}

// Discovery is Discover that also says which adapter found the collections.
func (s *Set) Discovery(ctx context.Context, platform string, home *Document) (Discovery, error) {
	docs := map[string]*Document{home.URL: home}
	mods := s.forPlatform(platform, OpDiscover)
	if len(mods) == 0 {
		return Discovery{}, fmt.Errorf("discover %s: %w %q", home.URL, ErrNoAdapter, platform)
	}
	found, err := s.discover(ctx, mods, home, docs)
	if len(found.Collections) > 0 || errors.Is(err, ErrBlocked) || ctx.Err() != nil {
		return found, err
	}
	switch rendered, rerr := s.renderShells(ctx, docs); {
	case rerr != nil:
		return Discovery{}, fmt.Errorf("discover %s: %w", home.URL, rerr)
	case rendered:
		return s.discover(ctx, mods, docs[home.URL], docs)
	}
	return found, err
}

// discover asks mods in turn for the collections of the site whose home page is home.
func (s *Set) discover(ctx context.Context, mods []Module, home *Document, docs map[string]*Document) (Discovery, error) {
	var lastErr error
	for _, m := range mods {
		req := Request{Op: OpDiscover, URL: home.Landed(), Docs: []*Document{home}}
		resp, err := s.run(ctx, m, &req, docs)
		if err == nil && len(resp.Collections) > 0 {
			info := m.Info()
			return Discovery{Collections: resp.Collections, Adapter: info.Name, Generic: info.Generic()}, nil
		}
		if ctx.Err() != nil {
			return Discovery{}, ctx.Err()
		}
		if err = failure(resp, err, req.Docs); err != nil {
			s.logger().Warn("adapter failed", "adapter", m.Info().Name, "op", OpDiscover, "url", home.URL, "err", err)
			lastErr = fmt.Errorf("discover %s with %s: %w", home.URL, m.Info().Name, err)
		}
		if refused := refusal(req.Docs); errors.Is(refused, ErrBlocked) {
			// Finding nothing behind a wall is not finding that there is nothing.
			return Discovery{}, fmt.Errorf("discover %s: %w", home.URL, refused)
		}
	}
	return Discovery{}, lastErr
}

// ListPage is one page of a collection's products; Next is the cursor of the following
// page, empty on the last.
type ListPage struct {
	Listings []Listing
	Next     string
	// Total is the products the whole collection holds as the page says; 0 when unknown.
	Total int
	// Ahead are the cursors of later pages, named now: they may be listed at once, in any
	// order. The listing goes on from the first that ends the collection (no Next, no
	// Ahead), and those after it need not be listed; else from the last one.
	Ahead []string
	// Adapter names the adapter that listed the page: the one that can assemble products
	// from the listings' records.
	Adapter string
}

// List returns one page of the products of the collection at collectionURL, starting at
// cursor (empty for the first page). total is the products the collection holds as far as
// the caller knows (0: unknown), from which an adapter may tell its later pages at once.
func (s *Set) List(ctx context.Context, platform, collectionURL, cursor string, total int) (ListPage, error) {
	mods := s.forPlatform(platform, OpList)
	if len(mods) == 0 {
		return ListPage{}, fmt.Errorf("list %s: %w %q", collectionURL, ErrNoAdapter, platform)
	}
	docs := map[string]*Document{}
	page, err := s.list(ctx, mods, collectionURL, cursor, total, docs)
	if len(page.Listings) > 0 || page.Next != "" || errors.Is(err, ErrBlocked) || ctx.Err() != nil {
		return page, err
	}
	switch rendered, rerr := s.renderShells(ctx, docs); {
	case rerr != nil:
		return ListPage{}, fmt.Errorf("list %s: %w", collectionURL, rerr)
	case rendered:
		return s.list(ctx, mods, collectionURL, cursor, total, docs)
	}
	return page, err
}

// list asks mods in turn for one page of the collection's products.
func (s *Set) list(ctx context.Context, mods []Module, collectionURL, cursor string, total int, docs map[string]*Document) (ListPage, error) {
	var lastErr error
	for _, m := range mods {
		req := Request{Op: OpList, URL: collectionURL, Cursor: cursor, Total: total}
		resp, err := s.run(ctx, m, &req, docs)
		if err == nil && (len(resp.Listings) > 0 || resp.Next != "") {
			return ListPage{Listings: resp.Listings, Next: resp.Next, Total: resp.Total, Ahead: resp.Ahead, Adapter: m.Info().Name}, nil
		}
		if ctx.Err() != nil {
			return ListPage{}, ctx.Err()
		}
		// An adapter that could not read the page says so, and the page is not taken for
		// an empty one: that ended the collection there and lost the rest of its listings.
		if err = failure(resp, err, req.Docs); err != nil {
			s.logger().Warn("adapter failed", "adapter", m.Info().Name, "op", OpList, "url", collectionURL, "err", err)
			lastErr = fmt.Errorf("list %s with %s: %w", collectionURL, m.Info().Name, err)
			if errors.Is(err, ErrBlocked) {
				return ListPage{}, lastErr
			}
			continue
		}
		// The adapter read the page and found nothing on it: the collection is empty, or
		// ends here. Another adapter is not asked what it makes of the page: a cursor is
		// its adapter's own (Shopify's page number, which the html adapter refuses), and
		// a generic reading of a platform's empty collection page finds the shop's other
		// products (its recommendations) as the collection's.
		return ListPage{}, nil
	}
	return ListPage{}, lastErr
}

// Extract extracts the product at rawURL. page is the fetched page when the caller has it
// (a saved page, or the crawl's own fetch); nil means fetch it.
//
// The merge rules say who decides what; adapters/ABI.md repeats them for authors:
//
//   - The host judges the fetch: a failed fetch, an error status, a bot wall or a
//     redirect to the home page ends the extraction before any adapter runs.
//   - Adapters read the page where the fetch landed (Document.Landed): a product reached
//     through a redirect (a tracking link, a renamed URL, another host) is read as if its
//     own URL had been asked for.
//   - Detection names the platform: the most confident detection of the page itself, at
//     MinConfidence or more. Its platform adapters run first, then the generic ones, each
//     group in priority order.
//   - The platform adapter's verdict stands: when a platform adapter says the page is
//     not a product (a category page) before any adapter gave a product, the extraction
//     ends with that outcome, and no generic adapter is asked. A generic reading of such
//     a page (a product tile's markup, a featured product) would make a product the store
//     does not have there, labelled with the store's platform. A platform adapter that
//     could not read the page (Fail, Blocked on a follow-up, a failed call) decides
//     nothing.
//   - The first to know a field gives it: each adapter fills only the fields the ones
//     before it left unknown, and the product records which adapter supplied each.
//   - The platform label is the adapters' or, when none gave one, the detected platform.
//   - The most specific reason is reported: when no adapter yields a product, the outcome
//     is the first one given, a platform adapter's before a generic one's.
//   - A failing adapter fails alone: a call that errs is logged and skipped, and the
//     adapters after it run as if it had found nothing.
func (s *Set) Extract(ctx context.Context, rawURL string, page *Document) (Result, error) {
	if msg := checkURL(rawURL); msg != "" {
		return Result{Outcome: MalformedURL, Message: msg}, nil
	}
	if page == nil {
		var err error
		if page, err = s.Fetcher.Fetch(ctx, rawURL); err != nil {
			return Result{}, fmt.Errorf("extract %s: %w", rawURL, err)
		}
	}
	if r, done := pageOutcome(rawURL, page); done {
		return r, nil
	}

	docs := map[string]*Document{page.URL: page}
	r, err := s.extract(ctx, page, docs)
	if err != nil || r.Product != nil {
		return r, err
	}
	switch rendered, rerr := s.renderShells(ctx, docs); {
	case rerr != nil && ctx.Err() != nil:
		return Result{}, ctx.Err()
	case rerr != nil:
		// Rendering off, or the page would not render: the store is there, so the URL
		// may succeed later (Other is retried).
		return Result{Outcome: Other, Message: rerr.Error()}, nil
	case rendered:
		return s.extract(ctx, docs[page.URL], docs)
	}
	return r, nil
}

// extract runs the adapters of the page's platform on page, by the rules of Extract.
func (s *Set) extract(ctx context.Context, page *Document, docs map[string]*Document) (Result, error) {
	dets, err := s.Detect(ctx, page)
	if err != nil {
		return Result{}, err
	}
	platform := ""
	if len(dets) > 0 {
		platform = dets[0].Platform
	}

	merged := &product.Product{}
	first := Result{Outcome: Other, Message: "no adapter answered"}
	answered := false
	landed := page.Landed()
	found := false // an adapter has given a product
	for _, m := range s.forPlatform(platform, OpExtract) {
		name := m.Info().Name
		resp, err := s.run(ctx, m, &Request{Op: OpExtract, URL: landed, Docs: []*Document{page}}, docs)
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			s.logger().Warn("adapter failed", "adapter", name, "op", OpExtract, "url", page.URL, "err", err)
			continue
		}
		if resp.Product == nil {
			// The most specific adapter's reason for finding nothing is the one reported
			// when nobody finds anything.
			if !answered && resp.Outcome != "" && resp.Outcome != Success {
				first = Result{Outcome: resp.Outcome, Message: resp.Message}
				answered = true
			}
			if resp.Outcome == NonProductURL && !m.Info().Generic() && !found {
				// The platform adapter's verdict stands.
				return Result{Outcome: resp.Outcome, Message: resp.Message}, nil
			}
			continue
		}
		found = true
		product.Merge(merged, resp.Product, name)
	}
	if len(merged.Sources) == 0 {
		return first, nil
	}
	if merged.URL == "" {
		merged.URL = landed
	}
	if merged.Platform == nil && platform != "" {
		merged.Platform = &platform
		merged.Sources["platform"] = "detect"
	}
	return Result{Product: merged, Outcome: Success}, nil
}

// checkURL returns why rawURL cannot be a product URL, or "".
func checkURL(rawURL string) string {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	switch {
	case err != nil:
		return fmt.Sprintf("unparseable URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "URL must start with http:// or https://"
	case u.Host == "":
		return "URL has no host"
	}
	return ""
}

// pageOutcome decides the outcomes that need no adapter: failed fetches, error statuses,
// bot walls and redirects to the home page.
func pageOutcome(rawURL string, page *Document) (Result, bool) {
	switch {
	case page.Status == 0:
		return Result{Outcome: Other, Message: "fetch failed: " + page.Err}, true
	case page.Status == 404 || page.Status == 410:
		return Result{Outcome: NonProductURL, Message: fmt.Sprintf("page answered %d", page.Status)}, true
	case page.Status == 401 || page.Status == 403 || page.Status == 429:
		return Result{Outcome: AutomatedAccessNotPermitted, Message: fmt.Sprintf("page answered %d", page.Status)}, true
	case page.Status >= 400:
		return Result{Outcome: Other, Message: fmt.Sprintf("page answered %d", page.Status)}, true
	}
	if page.FinalURL != "" && page.FinalURL != rawURL {
		if u, err := url.Parse(page.FinalURL); err == nil && (u.Path == "" || u.Path == "/") {
			if o, err := url.Parse(rawURL); err == nil && o.Path != "" && o.Path != "/" {
				return Result{Outcome: NonProductURL, Message: "redirected to the home page"}, true
			}
		}
	}
	return Result{}, false
}
