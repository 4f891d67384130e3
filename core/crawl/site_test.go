package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/execution"
)

// wwwSite is a store that answers on https://www.shop.example/ with paths ending in a
// slash, as many do: any other form of one of its URLs (the bare domain, no slash) is
// answered with a redirect to it. Files (robots.txt, sitemaps) it does not have: it
// answers 404 for them. It records every URL fetched and which of them were redirected,
// each redirect a request more on a real site.
type wwwSite struct {
	mu                  sync.Mutex
	fetched, redirected []string
}

func (s *wwwSite) Fetch(_ context.Context, raw string) (*adapter.Document, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetched = append(s.fetched, raw)
	if u.Host == "www.shop.example" && path.Ext(u.Path) != "" {
		return &adapter.Document{URL: raw, Status: http.StatusNotFound, Header: http.Header{}}, nil
	}
	doc := &adapter.Document{URL: raw, Status: http.StatusOK, Header: http.Header{}}
	if final := *u; final.Host != "www.shop.example" || !strings.HasSuffix(final.Path, "/") {
		final.Host = "www.shop.example"
		if !strings.HasSuffix(final.Path, "/") {
			final.Path += "/"
		}
		doc.FinalURL = final.String()
		s.redirected = append(s.redirected, raw)
	}
	return doc, nil
}

// linkingAdapter is a generic adapter that builds its URLs from the URL it is given, as
// adapters do from a page's links or a store's base: two collections, each two pages of
// three products.
type linkingAdapter struct{}

func (linkingAdapter) Info() adapter.Info {
	return adapter.Info{Name: "linking", Capabilities: []adapter.Op{adapter.OpDiscover, adapter.OpList}}
}

func (linkingAdapter) Call(_ context.Context, req *adapter.Request) (*adapter.Response, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	if req.Op == adapter.OpDiscover {
		return &adapter.Response{Collections: []adapter.Collection{
			{URL: origin + "/collections/shoes/"}, {URL: origin + "/collections/hats/"},
		}}, nil
	}
	page := req.URL
	if req.Cursor != "" {
		page = req.Cursor
	}
	if req.Round == 0 {
		return &adapter.Response{Fetch: []string{page}}, nil
	}
	name := strings.Split(strings.TrimPrefix(u.Path, "/collections/"), "/")[0]
	n := 1
	if req.Cursor != "" {
		n = 2
	}
	resp := &adapter.Response{}
	for i := range 3 {
		resp.Listings = append(resp.Listings, adapter.Listing{URL: fmt.Sprintf("%s/products/%s-%d-%d/", origin, name, n, i)})
	}
	if n == 1 {
		resp.Next = req.URL + "page/2/"
	}
	return resp, nil
}

// siteCatalog records the collections and listings a crawl writes.
type siteCatalog struct {
	catalog.Store
	mu          sync.Mutex
	collections []string
	links       []string          // "listing URL in collection URL", each once
	pages       map[string]string // listing URL -> page URL
	// saveTime is how long a write of collections takes, as a database's round trips do.
	saveTime time.Duration
	// vendorSaved, when set, is waited for by the vendor's write (up to a few seconds),
	// which then answers vendorErr.
	vendorSaved <-chan struct{}
	vendorErr   error
}

func (c *siteCatalog) UpsertVendor(ctx context.Context, _, _ string, _ time.Time) error {
	if c.vendorSaved != nil {
		select {
		case <-c.vendorSaved:
		case <-time.After(5 * time.Second):
			return errors.New("the vendor's write waited 5 s, and no collection page was asked for meanwhile")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return c.vendorErr
}

func (c *siteCatalog) UpsertCollections(ctx context.Context, _ string, cs []catalog.CollectionInput, _ time.Time) error {
	select {
	case <-time.After(c.saveTime):
	case <-ctx.Done():
		return ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, in := range cs {
		if !slices.Contains(c.collections, in.URL) {
			c.collections = append(c.collections, in.URL)
		}
	}
	return nil
}

func (c *siteCatalog) UpsertListings(_ context.Context, _ string, ls []catalog.ListingInput, _ time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// As the catalog does: a listing is linked to collections already saved, or the write
	// is refused whole.
	for _, l := range ls {
		for _, col := range l.CollectionURLs {
			if !slices.Contains(c.collections, col) {
				return fmt.Errorf("collection %s is not in the catalog", col)
			}
		}
	}
	for _, l := range ls {
		if c.pages == nil {
			c.pages = map[string]string{}
		}
		c.pages[l.URL] = l.PageURL
		for _, col := range l.CollectionURLs {
			// A link written again is the same link, as in the catalog.
			if link := l.URL + " in " + col; !slices.Contains(c.links, link) {
				c.links = append(c.links, link)
			}
		}
	}
	return nil
}

// A site whose home page redirects to its www. host is crawled on that host and at the
// site's own URLs (trailing slashes kept), so that only the home page request is
// redirected, not every page. The catalog still names everything in canonical form, and
// keeps each listing's own URL as its page URL.
func TestCrawlReadsARedirectedSiteOnTheHostItRedirectsTo(t *testing.T) {
	site := &wwwSite{}
	set := &adapter.Set{Source: modules{linkingAdapter{}}, Fetcher: site}
	store := &siteCatalog{}
	p := NewPipeline(set, store, nil, PipelineOptions{Collections: 2, Logger: slog.New(slog.DiscardHandler)})
	if _, err := p.crawl(context.Background(), crawlJob("shop.example")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(site.redirected, []string{"https://shop.example/"}) {
		t.Errorf("redirected fetches %q, want only the home page asked for", site.redirected)
	}
	// The home page, robots.txt and the usual places of a sitemap, then two pages of each
	// collection.
	if len(site.fetched) != 9 {
		t.Errorf("%d fetches, want 9: %q", len(site.fetched), site.fetched)
	}
	slices.Sort(store.collections)
	if want := []string{"https://shop.example/collections/hats", "https://shop.example/collections/shoes"}; !slices.Equal(store.collections, want) {
		t.Errorf("collections %q, want %q", store.collections, want)
	}
	if len(store.links) != 12 {
		t.Fatalf("%d listings linked, want 12: %q", len(store.links), store.links)
	}
	if want := "https://shop.example/products/shoes-2-0 in https://shop.example/collections/shoes"; !slices.Contains(store.links, want) {
		t.Errorf("links %q lack %q", store.links, want)
	}
	if page := store.pages["https://shop.example/products/shoes-2-0"]; page != "https://www.shop.example/products/shoes-2-0/" {
		t.Errorf("page URL %q, want the site's own", page)
	}
}

// A home page that redirects to another site fails the crawl with an error that names the
// site to crawl, before any adapter reads that site as the vendor's.
func TestCrawlOfASiteThatRedirectsElsewhereSaysWhere(t *testing.T) {
	elsewhere := adapter.FetcherFunc(func(_ context.Context, raw string) (*adapter.Document, error) {
		return &adapter.Document{URL: raw, FinalURL: "https://store.example.net/en/", Status: http.StatusOK, Header: http.Header{}}, nil
	})
	store := &siteCatalog{}
	p := NewPipeline(&adapter.Set{Source: modules{linkingAdapter{}}, Fetcher: elsewhere}, store, nil, PipelineOptions{Logger: slog.New(slog.DiscardHandler)})
	_, err := p.crawl(context.Background(), crawlJob("shop.example"))
	if err == nil || !strings.Contains(err.Error(), "https://shop.example/ redirects to https://store.example.net/en/, another site: crawl store.example.net") {
		t.Fatalf("crawl: %v, want an error naming store.example.net", err)
	}
	if len(store.collections) > 0 || len(store.links) > 0 {
		t.Errorf("the other site was read as the vendor's: %q %q", store.collections, store.links)
	}
}

// The vendor is saved while discovery and the first pages run, not before them, so they
// do not wait for it; the crawl still fails when that write fails.
func TestCrawlListsWhileTheVendorIsBeingSaved(t *testing.T) {
	for _, failed := range []bool{false, true} {
		t.Run(fmt.Sprint("vendor write failed: ", failed), func(t *testing.T) {
			listing := make(chan struct{})
			var once sync.Once
			site := &wwwSite{}
			fetcher := adapter.FetcherFunc(func(ctx context.Context, raw string) (*adapter.Document, error) {
				if strings.Contains(raw, "/collections/") {
					once.Do(func() { close(listing) })
				}
				return site.Fetch(ctx, raw)
			})
			store := &siteCatalog{vendorSaved: listing}
			if failed {
				store.vendorErr = errors.New("upsert vendor shop.example: connection reset")
			}
			p := NewPipeline(&adapter.Set{Source: modules{linkingAdapter{}}, Fetcher: fetcher}, store, nil, PipelineOptions{Collections: 2, Logger: slog.New(slog.DiscardHandler)})
			_, err := p.crawl(context.Background(), crawlJob("shop.example"))
			switch {
			case failed && (err == nil || !strings.Contains(err.Error(), "connection reset")):
				t.Fatalf("crawl: %v, want the vendor write's error", err)
			case !failed && err != nil:
				t.Fatalf("crawl: %v", err)
			case !failed && len(store.links) != 12:
				t.Errorf("%d listings linked, want 12", len(store.links))
			}
		})
	}
}

// crawlJob is a crawl of vendor from its https home page.
func crawlJob(vendor string) *execution.Job {
	params, _ := json.Marshal(Parameters{URL: vendor, StartURL: "https://" + vendor + "/"})
	return &execution.Job{Execution: execution.Execution{Vendor: vendor, Parameters: params}}
}
