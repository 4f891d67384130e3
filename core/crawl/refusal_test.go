package crawl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
)

// refusingSite answers the pages named in status with that status (403 is a bot wall,
// disallowed a page robots.txt keeps crawlers from, as the server's fetcher reports them),
// every other page with 200, and records what was fetched.
type refusingSite struct {
	status map[string]int
	// failures, when set, is how many times a page in status is refused before it is
	// given; 0 refuses it always.
	failures int
	mu       sync.Mutex
	fetched  []string
}

const disallowed = -1

func (s *refusingSite) Fetch(ctx context.Context, raw string) (*adapter.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // as the fetcher does: nothing is asked once the crawl has stopped
	}
	s.mu.Lock()
	s.fetched = append(s.fetched, raw)
	asked := 0
	for _, u := range s.fetched {
		if u == raw {
			asked++
		}
	}
	s.mu.Unlock()
	status := s.status[raw]
	if s.failures > 0 && asked > s.failures {
		status = 0
	}
	switch status {
	case 0:
		return &adapter.Document{URL: raw, Status: http.StatusOK, Header: http.Header{}}, nil
	case disallowed:
		return &adapter.Document{URL: raw, Header: http.Header{}, Disallowed: true, Err: "fetch " + raw + ": disallowed by robots.txt"}, nil
	case http.StatusForbidden:
		return &adapter.Document{URL: raw, Status: status, Header: http.Header{}, Blocked: true,
			Err: "fetch " + raw + ": automated access not permitted: Cloudflare answered 403"}, nil
	default:
		return &adapter.Document{URL: raw, Status: status, Header: http.Header{}}, nil
	}
}

// pagingAdapter finds three collections, each two pages of three products, and says why
// when a page it needs did not come, as the SDK's adapters do.
type pagingAdapter struct{}

func (pagingAdapter) Info() adapter.Info {
	return adapter.Info{Name: "paging", Capabilities: []adapter.Op{adapter.OpDiscover, adapter.OpList}}
}

func (pagingAdapter) Call(_ context.Context, req *adapter.Request) (*adapter.Response, error) {
	if req.Op == adapter.OpDiscover {
		var cols []adapter.Collection
		for _, name := range []string{"shoes", "hats", "socks"} {
			cols = append(cols, adapter.Collection{URL: "https://shop.example/collections/" + name})
		}
		return &adapter.Response{Collections: cols}, nil
	}
	page := req.URL
	if req.Cursor != "" {
		page = req.Cursor
	}
	if req.Round == 0 {
		return &adapter.Response{Fetch: []string{page}}, nil
	}
	if d := req.Docs[0]; d.Status != http.StatusOK {
		return &adapter.Response{Outcome: adapter.Other, Message: fmt.Sprintf("collection page %s: status %d", page, d.Status)}, nil
	}
	name := strings.TrimPrefix(req.URL, "https://shop.example/collections/")
	n := 1
	if req.Cursor != "" {
		n = 2
	}
	resp := &adapter.Response{}
	for i := range 3 {
		resp.Listings = append(resp.Listings, adapter.Listing{URL: fmt.Sprintf("https://shop.example/products/%s-%d-%d", name, n, i)})
	}
	if n == 1 {
		resp.Next = req.URL + "?page=2"
	}
	return resp, nil
}

// A collection page the store refuses is not the end of the collection. The crawl lists
// every other collection, keeps what it found, and lists that collection again, since the
// fault may pass. If it fails again, the crawl fails and names the page, rather than
// completing with listings silently missing. A collection whose first page the store
// answers 404 for fails nothing and is not recorded, and a page robots.txt disallows ends
// its collection there. A bot wall stops the crawl. Only the collections whose first page
// the store served are recorded.
func TestCrawlListsWhatItCanAndSaysWhatItCouldNot(t *testing.T) {
	const shop = "https://shop.example/collections/"
	for _, tc := range []struct {
		name     string
		status   map[string]int
		failures int
		err      string // in the crawl's error; "" for none
		blocked  bool
		links    int
		// recorded are the collections recorded, for a crawl not stopped by a bot wall.
		recorded []string
	}{
		{name: "whole", links: 18, recorded: []string{"shoes", "hats", "socks"}},
		{name: "page failing", status: map[string]int{shop + "hats?page=2": 503},
			err: "could not list 1 of 3 collections whole (the listings found are saved; crawl again to complete it): list " +
				shop + "hats with paging: collection page " + shop + "hats?page=2: status 503", links: 15,
			recorded: []string{"shoes", "hats", "socks"}},
		{name: "page failing for a while", status: map[string]int{shop + "hats?page=2": 503}, failures: 1, links: 18,
			recorded: []string{"shoes", "hats", "socks"}},
		{name: "two failing", status: map[string]int{shop + "hats?page=2": 503, shop + "socks": 500},
			err: "could not list 2 of 3 collections whole", links: 9, recorded: []string{"shoes", "hats"}},
		{name: "collection gone", status: map[string]int{shop + "socks": 404}, links: 12, recorded: []string{"shoes", "hats"}},
		{name: "robots.txt", status: map[string]int{shop + "socks?page=2": disallowed, shop + "hats": disallowed}, links: 9,
			recorded: []string{"shoes", "socks"}},
		{name: "page gone", status: map[string]int{shop + "socks?page=2": 404}, err: "answered 404", links: 15,
			recorded: []string{"shoes", "hats", "socks"}},
		{name: "bot wall", status: map[string]int{shop + "socks?page=2": 403}, blocked: true,
			err: "list " + shop + "socks with paging: fetch " + shop + "socks?page=2: automated access not permitted: Cloudflare answered 403"},
		{name: "bot wall at once", status: map[string]int{shop + "shoes": 403}, blocked: true,
			err: "list " + shop + "shoes with paging: fetch " + shop + "shoes: automated access not permitted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := &refusingSite{status: tc.status, failures: tc.failures}
			store := &siteCatalog{saveTime: 20 * time.Millisecond}
			p := NewPipeline(&adapter.Set{Source: modules{pagingAdapter{}}, Fetcher: site, Logger: slog.New(slog.DiscardHandler)},
				store, nil, PipelineOptions{Collections: 1, Logger: slog.New(slog.DiscardHandler)})
			_, err := p.crawl(context.Background(), crawlJob("shop.example"))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("crawl: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("crawl: %v, want an error with %q", err, tc.err)
			}
			if errors.Is(err, adapter.ErrBlocked) != tc.blocked {
				t.Errorf("crawl: %v; a bot wall: %v, want %v", err, errors.Is(err, adapter.ErrBlocked), tc.blocked)
			}
			if tc.blocked {
				// Nothing is asked of the site after the wall: no other adapter, no other page.
				for walled := range tc.status {
					if last := site.fetched[len(site.fetched)-1]; last != walled {
						t.Errorf("fetched %q after the wall at %s", last, walled)
					}
				}
				// A collection whose first page is behind the wall was not served.
				for walled := range tc.status {
					if slices.Contains(store.collections, walled) {
						t.Errorf("collections recorded: %q, with %s behind the wall", store.collections, walled)
					}
				}
				return
			}
			var recorded []string
			for _, name := range tc.recorded {
				recorded = append(recorded, shop+name)
			}
			if !slices.Equal(slices.Sorted(slices.Values(store.collections)), slices.Sorted(slices.Values(recorded))) {
				t.Errorf("collections recorded: %q, want %q", store.collections, recorded)
			}
			if len(store.links) != tc.links {
				t.Errorf("%d listings linked, want %d: %q", len(store.links), tc.links, store.links)
			}
			if tc.name == "page failing" && !slices.Contains(store.links, "https://shop.example/products/hats-1-0 in "+shop+"hats") {
				t.Errorf("the failing collection's first page was not kept: %q", store.links)
			}
		})
	}
}

// A collection with more pages than the crawl may list is cut short, and the crawl fails
// with an error that names it, instead of treating the limit as the collection's end.
func TestCrawlSaysACollectionHadMorePagesThanItMayList(t *testing.T) {
	store := &siteCatalog{}
	p := NewPipeline(&adapter.Set{Source: modules{pagingAdapter{}}, Fetcher: &refusingSite{}, Logger: slog.New(slog.DiscardHandler)},
		store, nil, PipelineOptions{MaxPages: 1, Logger: slog.New(slog.DiscardHandler)})
	_, err := p.crawl(context.Background(), crawlJob("shop.example"))
	want := "could not list 3 of 3 collections whole (the listings found are saved; crawl again to complete them): list https://shop.example/collections/"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "stopped after 1 pages with more to come (crawl.max_pages); and 2 more") {
		t.Fatalf("crawl: %v, want the collections cut short named", err)
	}
	if len(store.links) != 9 {
		t.Errorf("%d listings linked, want the 9 of the pages listed", len(store.links))
	}
}

// discoveringAdapter finds the collections it is given, each empty.
type discoveringAdapter []string

func (discoveringAdapter) Info() adapter.Info {
	return adapter.Info{Name: "discovering", Capabilities: []adapter.Op{adapter.OpDiscover, adapter.OpList}}
}

func (a discoveringAdapter) Call(context.Context, *adapter.Request) (*adapter.Response, error) {
	resp := &adapter.Response{}
	for _, u := range a {
		resp.Collections = append(resp.Collections, adapter.Collection{URL: u})
	}
	return resp, nil
}

// A site where no collection of its own is found (not a store, or one whose categories
// are not linked from its home page) fails the crawl at discovery, saying so, rather than
// completing with an empty catalog.
func TestCrawlThatFindsNoCollectionsSaysSo(t *testing.T) {
	for _, tc := range []struct {
		found []string
		want  string
	}{
		{nil, "discover collections: none found from https://shop.example/ (no collection or category pages the adapters recognise, and no sitemap)"},
		{[]string{"https://other.example/c/a", "https://other.example/c/b"}, "discover collections: the 2 found from https://shop.example/ are on other sites, such as https://other.example/c/a"},
	} {
		store := &siteCatalog{}
		p := NewPipeline(&adapter.Set{Source: modules{discoveringAdapter(tc.found)}, Fetcher: &refusingSite{}, Logger: slog.New(slog.DiscardHandler)},
			store, nil, PipelineOptions{Logger: slog.New(slog.DiscardHandler)})
		if _, err := p.crawl(context.Background(), crawlJob("shop.example")); err == nil || err.Error() != tc.want {
			t.Errorf("crawl finding %q: %v, want %q", tc.found, err, tc.want)
		}
	}
}

// When no collection shows a listing the adapters can read (pages drawn by JavaScript, or
// a store with no products yet), the crawl fails at the listing step and says why, rather
// than completing with an empty catalog.
func TestCrawlThatFindsNoListingsSaysSo(t *testing.T) {
	found := discoveringAdapter{"https://shop.example/c/a", "https://shop.example/c/b"}
	p := NewPipeline(&adapter.Set{Source: modules{found}, Fetcher: &refusingSite{}, Logger: slog.New(slog.DiscardHandler)},
		&siteCatalog{}, nil, PipelineOptions{Logger: slog.New(slog.DiscardHandler)})
	_, err := p.crawl(context.Background(), crawlJob("shop.example"))
	if want := "list collections: none of the 2 found shows a listing the adapters can read"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("crawl: %v, want %q", err, want)
	}
}
