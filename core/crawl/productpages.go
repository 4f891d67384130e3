package crawl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// productPagesPerChunk is how many product pages make one page of a collection that is
// read from its products' own pages: what takes a listing slot and is queued for the
// writer at once.
const productPagesPerChunk = 24

// productPages are the pages a collection is read from when no listing page shows its
// products: the sitemaps' product pages that no collection listed. Each is fetched and
// read by the adapters' extraction, at the fetcher's pace like any page.
type productPages struct {
	pages []sitemapPage
	// known are the listings of pages already read to tell what they were (see probe),
	// by canonical URL: they are not fetched again.
	known map[string]adapter.Listing

	mu sync.Mutex
	// done are the chunks whose listings were handed over, so that a collection listed a
	// second time (after a page failed) reads only what it has not read.
	done map[int]bool
}

// list reads the chunk of pages at cursor ("" for the first) as a listing page: the
// products the pages show, the chunk after it (Next), and on the first chunk, every
// later chunk (Ahead), to be read at once.
func (pp *productPages) list(ctx context.Context, adapters *adapter.Set, cursor string) (adapter.ListPage, error) {
	chunk := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 {
			return adapter.ListPage{}, fmt.Errorf("bad cursor %q of a collection read from product pages", cursor)
		}
		chunk = n
	}
	chunks := (len(pp.pages) + productPagesPerChunk - 1) / productPagesPerChunk
	out := adapter.ListPage{Total: len(pp.pages)}
	if chunk+1 < chunks {
		out.Next = strconv.Itoa(chunk + 1)
	}
	if cursor == "" {
		for k := 1; k < chunks; k++ {
			out.Ahead = append(out.Ahead, strconv.Itoa(k))
		}
	}
	pp.mu.Lock()
	done := pp.done[chunk]
	pp.mu.Unlock()
	if done || chunk >= chunks {
		return out, nil
	}
	for _, pg := range pp.pages[chunk*productPagesPerChunk : min((chunk+1)*productPagesPerChunk, len(pp.pages))] {
		if l, ok := pp.known[pg.key]; ok {
			out.Listings = append(out.Listings, l)
			continue
		}
		r, err := adapters.Extract(ctx, pg.url, nil)
		if err != nil {
			return adapter.ListPage{}, err
		}
		switch r.Outcome {
		case adapter.Success:
			out.Listings = append(out.Listings, listingOf(pg.url, r.Product))
		case adapter.AutomatedAccessNotPermitted:
			return adapter.ListPage{}, fmt.Errorf("read product page %s: %w (%s)", pg.url, adapter.ErrBlocked, r.Message)
		case adapter.Other:
			// The page could not be read (the store failed, even after the fetcher's
			// retries): the collection is listed again later, as for a listing page.
			return adapter.ListPage{}, fmt.Errorf("read product page %s: %s", pg.url, r.Message)
		}
		// Otherwise the page is gone, or holds no product: a sitemap names pages that
		// were products once, and pages that never were.
	}
	pp.mu.Lock()
	if pp.done == nil {
		pp.done = map[int]bool{}
	}
	pp.done[chunk] = true
	pp.mu.Unlock()
	return out, nil
}

// listingOf is the listing of the product extracted from the page at pageURL, as a
// collection page would show it.
func listingOf(pageURL string, p *product.Product) adapter.Listing {
	l := adapter.Listing{URL: pageURL, Price: p.Price, Images: p.Images}
	if p.Title != nil {
		l.Title = *p.Title
	}
	if p.PlatformID != nil {
		l.ID = *p.PlatformID
	}
	return l
}

// probed is what reading pages that their addresses did not explain found them to be.
type probed struct {
	// products are the listings of the pages that are products, by canonical URL.
	products map[string]adapter.Listing
	// collections are the pages that list products.
	collections []adapter.Collection
}

// probe reads the pages whose addresses say nothing and tells what each is by what the
// adapters make of it: a product page when they extract a product from it, a collection
// when it is no product page and they list products from it, else neither. A few pages
// are read at once (PipelineOptions.Collections); the fetcher keeps to the site's pace.
func (p *Pipeline) probe(ctx context.Context, st *crawlState, pages []sitemapPage) (probed, error) {
	out := probed{products: map[string]adapter.Listing{}}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(p.opts.Collections)
	for _, pg := range pages {
		g.Go(func() error {
			doc, err := p.adapters.Fetcher.Fetch(gctx, pg.url)
			if err != nil {
				return err
			}
			if doc.Status == 404 || doc.Status == 410 {
				return nil // a page the sitemap still names after it went
			}
			r, err := p.adapters.Extract(gctx, pg.url, doc)
			switch {
			case err != nil:
				return err
			case r.Outcome == adapter.Success:
				mu.Lock()
				out.products[pg.key] = listingOf(pg.url, r.Product)
				mu.Unlock()
				return nil
			case r.Outcome == adapter.AutomatedAccessNotPermitted:
				return fmt.Errorf("read %s: %w (%s)", pg.url, adapter.ErrBlocked, r.Message)
			case r.Outcome != adapter.NonProductURL:
				return nil // a page that failed is nothing to list
			}
			// No product page: perhaps a collection. Listing it asks for the page again;
			// the adapters' listing reads from the collection's address, not a document.
			lp, err := p.adapters.List(gctx, st.platform, pg.url, "", 0)
			switch {
			case errors.Is(err, adapter.ErrBlocked) || gctx.Err() != nil:
				return err
			case err != nil || len(lp.Listings) == 0:
				return nil
			}
			mu.Lock()
			out.collections = append(out.collections, adapter.Collection{URL: pg.url, Handle: handleOf(pg.key)})
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return probed{}, err
	}
	return out, nil
}

// listSitemapPages lists what the sitemaps add once the collections are listed: the
// pages whose addresses said nothing are read to tell what they are; those that are
// collections are listed; then the product pages no collection listed are read one by
// one into a collection of their own, named after the first sitemap. listed are the
// collections listed so far; it returns them with those it listed.
func (p *Pipeline) listSitemapPages(ctx context.Context, st *crawlState, plan *sitemapPlan, listed []collection, src *discoverySources) ([]collection, error) {
	known, err := p.listedURLs(ctx, st, listed)
	if err != nil {
		return nil, err
	}
	var unknown []sitemapPage
	for _, pg := range plan.pages {
		if pg.kind == unknownPage && !known.has(pg) {
			unknown = append(unknown, pg)
		}
	}
	found, err := p.probe(ctx, st, unknown)
	if err != nil {
		return nil, err
	}
	if late := p.newCollections(st, found.collections, listed); len(late) > 0 {
		src.found = len(late)
		if err := p.listMore(ctx, st, late); err != nil {
			return nil, err
		}
		listed = append(listed, late...)
		if known, err = p.listedURLs(ctx, st, listed); err != nil {
			return nil, err
		}
	}
	var unlisted []sitemapPage
	for _, pg := range plan.pages {
		if known.has(pg) {
			continue
		}
		if _, ok := found.products[pg.key]; pg.kind == productPage || ok {
			unlisted = append(unlisted, pg)
		}
	}
	if len(unlisted) == 0 {
		return listed, nil
	}
	c, err := sitemapCollection(plan, unlisted, found.products)
	if err != nil {
		return nil, err
	}
	before := len(st.written)
	if err := p.listMore(ctx, st, []collection{c}); err != nil {
		return nil, err
	}
	// The writer has stopped again; what it wrote since are the products read.
	src.read = len(st.written) - before
	return append(listed, c), nil
}

// sitemapCollection is the collection of the product pages no collection listed, named
// after the first sitemap (wherever it is: the name says where the products were
// found, and none of its pages is read as a listing page). known are the listings of
// those pages read already.
func sitemapCollection(plan *sitemapPlan, unlisted []sitemapPage, known map[string]adapter.Listing) (collection, error) {
	if len(plan.report.Roots) == 0 {
		return collection{}, errors.New("name the collection of the sitemap: no sitemap was read")
	}
	root := plan.report.Roots[0]
	key, err := urlnorm.Page(root)
	if err != nil {
		return collection{}, fmt.Errorf("name the collection of the sitemap %s: %w", root, err)
	}
	n := len(unlisted)
	return collection{
		Collection: adapter.Collection{URL: root, Handle: "sitemap", Title: "Products in no category", ProductsCount: &n},
		key:        key,
		fromPages:  &productPages{pages: unlisted, known: known},
	}, nil
}

// newCollections returns the collections of found that are on the vendor's host and not
// among listed, each once.
func (p *Pipeline) newCollections(st *crawlState, found []adapter.Collection, listed []collection) []collection {
	have := map[string]bool{}
	for _, c := range listed {
		have[c.key] = true
	}
	return keepCollections(found, st.vendor, have)
}

// listMore lists collections found after the first ones were listed, and counts them.
func (p *Pipeline) listMore(ctx context.Context, st *crawlState, cs []collection) error {
	st.mu.Lock()
	st.progress.CollectionsFound += len(cs)
	st.mu.Unlock()
	st.publish()
	return p.listAll(ctx, st, cs)
}

// listedSet is what the crawl's collections listed: the canonical URLs of their
// listings, and the handles those URLs end in.
type listedSet struct{ urls, handles map[string]bool }

func (s listedSet) add(u string) {
	s.urls[u] = true
	if h := handleOf(u); h != "" {
		s.handles[h] = true
	}
}

// has reports whether the sitemap's page pg was listed: its URL was, or one that ends in
// the same handle. A store's listing pages may link a product with a query, or under a
// category's path, where its sitemap gives the plain address; reading every such product
// again from its own page would cost a request per product for nothing.
func (s listedSet) has(pg sitemapPage) bool {
	if s.urls[pg.key] {
		return true
	}
	h := handleOf(pg.key)
	return h != "" && s.handles[h]
}

// listedURLs is what the crawl found in the collections listed. A crawl that ran without
// interruption knows what it wrote; a resumed one also asks the catalog what its
// collections hold, since the collections its earlier run listed are not listed again.
func (p *Pipeline) listedURLs(ctx context.Context, st *crawlState, listed []collection) (listedSet, error) {
	known := listedSet{urls: make(map[string]bool, len(st.written)), handles: make(map[string]bool, len(st.written))}
	// The writer has stopped: st.written is no longer changing.
	for u := range st.written {
		known.add(u)
	}
	if !st.resumed || len(listed) == 0 {
		return known, nil
	}
	urls := make([]string, len(listed))
	for i, c := range listed {
		urls[i] = c.key
	}
	const size = 1000
	for number := 1; ; number++ {
		ls, total, err := p.catalog.Listings(ctx, catalog.ListingQuery{Vendor: st.vendor, CollectionURLs: urls, Page: page.Request{Number: number, Size: size}})
		if err != nil {
			return listedSet{}, fmt.Errorf("read the listings an earlier run found: %w", err)
		}
		for _, l := range ls {
			known.add(l.URL)
		}
		if number*size >= total || len(ls) == 0 {
			return known, nil
		}
	}
}
