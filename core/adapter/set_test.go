package adapter_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
)

// fake is an adapter.Module whose answers are a function of the request.
type fake struct {
	info  adapter.Info
	call  func(req *adapter.Request) (*adapter.Response, error)
	calls int
}

func (f *fake) Info() adapter.Info { return f.info }
func (f *fake) Call(_ context.Context, req *adapter.Request) (*adapter.Response, error) {
	f.calls++
	return f.call(req)
}

type modules []adapter.Module

func (m modules) Modules() []adapter.Module { return m }

type fetcher map[string]string

func (f fetcher) Fetch(_ context.Context, url string) (*adapter.Document, error) {
	body, ok := f[url]
	if !ok {
		return &adapter.Document{URL: url, Status: 404}, nil
	}
	return &adapter.Document{URL: url, Status: 200, Body: []byte(body)}, nil
}

func str(s string) *string { return &s }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func platformAdapter() *fake {
	return &fake{
		info: adapter.Info{Name: "shop", Platforms: []string{"shop"}, Capabilities: []adapter.Op{adapter.OpDetect, adapter.OpExtract}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			switch req.Op {
			case adapter.OpDetect:
				return &adapter.Response{Detection: &adapter.Detection{Platform: "shop", Confidence: 0.9}}, nil
			}
			// Needs the product JSON before it can answer.
			if len(req.Docs) < 2 {
				return &adapter.Response{Fetch: []string{"https://s/p.json"}}, nil
			}
			return &adapter.Response{Product: &product.Product{Title: str(string(req.Docs[1].Body)), Price: &product.Price{Current: 5}}}, nil
		},
	}
}

func genericAdapter(name string, p *product.Product) *fake {
	return &fake{
		info: adapter.Info{Name: name, Capabilities: []adapter.Op{adapter.OpExtract}},
		call: func(*adapter.Request) (*adapter.Response, error) { return &adapter.Response{Product: p}, nil },
	}
}

func TestExtractRunsPlatformFirstAndMerges(t *testing.T) {
	shop := platformAdapter()
	set := &adapter.Set{
		Source: modules{
			genericAdapter("jsonld", &product.Product{Title: str("ld title"), Brand: str("Acme"), Price: &product.Price{Current: 9, Currency: "EUR"}}),
			shop,
		},
		Fetcher: fetcher{"https://s/p.json": "json title"},
		Logger:  quiet,
	}
	page := &adapter.Document{URL: "https://s/p", Status: 200}
	res, err := set.Extract(context.Background(), "https://s/p", page)
	if err != nil || res.Outcome != adapter.Success {
		t.Fatalf("%+v %v", res, err)
	}
	p := res.Product
	if *p.Title != "json title" || p.Sources["title"] != "shop" {
		t.Errorf("title %q from %q, want the platform adapter's", *p.Title, p.Sources["title"])
	}
	if *p.Brand != "Acme" || p.Sources["brand"] != "jsonld" {
		t.Errorf("brand %v from %q, want jsonld's gap filling", p.Brand, p.Sources["brand"])
	}
	if p.Price.Current != 5 || p.Price.Currency != "EUR" {
		t.Errorf("price %+v, want 5 EUR", *p.Price)
	}
	if *p.Platform != "shop" {
		t.Errorf("platform %v", p.Platform)
	}
}

// A page reached through a redirect is read where the fetch landed: every adapter, in
// detection and extraction, is asked about the final URL, from which a platform adapter
// builds the URLs of its product data.
func TestAdaptersReadARedirectedPageAtItsFinalURL(t *testing.T) {
	var asked []string
	shop := &fake{
		info: adapter.Info{Name: "shop", Platforms: []string{"shop"}, Capabilities: []adapter.Op{adapter.OpDetect, adapter.OpExtract}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			asked = append(asked, string(req.Op)+" "+req.URL)
			if req.Op == adapter.OpDetect {
				return &adapter.Response{Detection: &adapter.Detection{Platform: "shop", Confidence: 0.9}}, nil
			}
			if !strings.HasPrefix(req.URL, "https://shop.example/products/") {
				return &adapter.Response{Outcome: adapter.NonProductURL, Message: "not a product URL"}, nil
			}
			return &adapter.Response{Product: &product.Product{Title: str("Boot")}}, nil
		},
	}
	set := &adapter.Set{Source: modules{shop}, Fetcher: fetcher{}, Logger: quiet}
	page := &adapter.Document{URL: "https://go.example/go/boot", FinalURL: "https://shop.example/products/boot", Status: 200}
	res, err := set.Extract(context.Background(), page.URL, page)
	if err != nil || res.Outcome != adapter.Success || *res.Product.Title != "Boot" {
		t.Fatalf("%+v %v, want the product", res, err)
	}
	want := []string{"detect " + page.FinalURL, "extract " + page.FinalURL}
	if strings.Join(asked, ", ") != strings.Join(want, ", ") {
		t.Errorf("adapters asked about %q, want %q", asked, want)
	}
	if res.Product.URL != page.FinalURL {
		t.Errorf("product URL %q, want the final URL", res.Product.URL)
	}
}

func TestFollowUpRoundsAreBounded(t *testing.T) {
	greedy := &fake{
		info: adapter.Info{Name: "greedy", Capabilities: []adapter.Op{adapter.OpExtract}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			return &adapter.Response{Fetch: []string{"https://s/" + string(rune('a'+req.Round))}, Outcome: adapter.NonProductURL}, nil
		},
	}
	set := &adapter.Set{Source: modules{greedy}, Fetcher: fetcher{}, Limits: adapter.Limits{Rounds: 3}, Logger: quiet}
	res, _ := set.Extract(context.Background(), "https://s/p", &adapter.Document{URL: "https://s/p", Status: 200})
	if greedy.calls != 3 || res.Outcome != adapter.NonProductURL {
		t.Fatalf("calls = %d, outcome %s; want 3 rounds then the last answer", greedy.calls, res.Outcome)
	}
}

func TestExtractNamesTheOutcomeOfEachFailure(t *testing.T) {
	broken := &fake{
		info: adapter.Info{Name: "broken", Capabilities: []adapter.Op{adapter.OpExtract}},
		call: func(*adapter.Request) (*adapter.Response, error) { return nil, errors.New("trap") },
	}
	set := &adapter.Set{Source: modules{broken}, Fetcher: fetcher{}, Logger: quiet}
	for _, tc := range []struct {
		name string
		url  string
		page *adapter.Document
		want adapter.Outcome
	}{
		{"no scheme", "shop.example/p", nil, adapter.MalformedURL},
		{"404", "https://s/p", &adapter.Document{URL: "https://s/p", Status: 404}, adapter.NonProductURL},
		{"bot wall", "https://s/p", &adapter.Document{URL: "https://s/p", Status: 403}, adapter.AutomatedAccessNotPermitted},
		{"home redirect", "https://s/p", &adapter.Document{URL: "https://s/p", FinalURL: "https://s/", Status: 200}, adapter.NonProductURL},
		{"failing adapter", "https://s/p", &adapter.Document{URL: "https://s/p", Status: 200}, adapter.Other},
	} {
		res, err := set.Extract(context.Background(), tc.url, tc.page)
		if err != nil || res.Outcome != tc.want || res.Message == "" {
			t.Errorf("%s: %+v %v, want %s with a message", tc.name, res, err, tc.want)
		}
	}
}

// TestAPlatformAdaptersVerdictStands pins the merge rule of item "the platform adapter's
// verdict stands": a platform adapter that calls the page no product (a category page)
// ends the extraction, while one that could not read the page leaves it to the generic
// adapters, whose product is then labelled with the detected platform.
func TestAPlatformAdaptersVerdictStands(t *testing.T) {
	for _, tc := range []struct {
		name         string
		answer       *adapter.Response
		err          error
		want         adapter.Outcome
		genericAsked bool
	}{
		{"not a product", &adapter.Response{Outcome: adapter.NonProductURL, Message: "a collection"}, nil, adapter.NonProductURL, false},
		{"could not read it", &adapter.Response{Outcome: adapter.Other, Message: "product JSON: timeout"}, nil, adapter.Success, true},
		{"bot wall on a follow-up", &adapter.Response{Outcome: adapter.AutomatedAccessNotPermitted, Message: "403"}, nil, adapter.Success, true},
		{"failed", nil, errors.New("trap"), adapter.Success, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shop := &fake{
				info: adapter.Info{Name: "shop", Platforms: []string{"shop"}, Capabilities: []adapter.Op{adapter.OpDetect, adapter.OpExtract}},
				call: func(req *adapter.Request) (*adapter.Response, error) {
					if req.Op == adapter.OpDetect {
						return &adapter.Response{Detection: &adapter.Detection{Platform: "shop", Confidence: 0.9}}, nil
					}
					return tc.answer, tc.err
				},
			}
			generic := genericAdapter("jsonld", &product.Product{Title: str("First tile"), Price: &product.Price{Current: 9, Currency: "EUR"}})
			set := &adapter.Set{Source: modules{generic, shop}, Fetcher: fetcher{}, Logger: quiet}
			res, err := set.Extract(context.Background(), "https://s/collections/mugs", &adapter.Document{URL: "https://s/collections/mugs", Status: 200})
			if err != nil || res.Outcome != tc.want {
				t.Fatalf("%+v %v, want outcome %s", res, err, tc.want)
			}
			if asked := generic.calls > 0; asked != tc.genericAsked {
				t.Errorf("generic adapter asked: %v, want %v", asked, tc.genericAsked)
			}
			switch {
			case tc.want == adapter.NonProductURL && (res.Product != nil || res.Message != tc.answer.Message):
				t.Errorf("got %+v, want no product and the platform adapter's reason", res)
			case tc.want == adapter.Success && (res.Product.Platform == nil || *res.Product.Platform != "shop"):
				t.Errorf("platform %v, want the detected shop", res.Product.Platform)
			}
		})
	}
}

// A generic adapter's verdict does not stand: another generic adapter may still find the
// product (a page without JSON-LD that the html adapter reads).
func TestAGenericAdaptersVerdictDoesNotStand(t *testing.T) {
	none := &fake{
		info: adapter.Info{Name: "jsonld", Capabilities: []adapter.Op{adapter.OpExtract}},
		call: func(*adapter.Request) (*adapter.Response, error) {
			return &adapter.Response{Outcome: adapter.NonProductURL, Message: "no JSON-LD"}, nil
		},
	}
	set := &adapter.Set{Source: modules{none, genericAdapter("html", &product.Product{Title: str("Mug")})}, Fetcher: fetcher{}, Logger: quiet}
	res, err := set.Extract(context.Background(), "https://s/p", &adapter.Document{URL: "https://s/p", Status: 200})
	if err != nil || res.Outcome != adapter.Success || *res.Product.Title != "Mug" {
		t.Fatalf("%+v %v, want the html adapter's product", res, err)
	}
}

// togetherFetcher answers each fetch once n fetches are in flight together, and fails
// one that waits a second alone.
type togetherFetcher struct {
	n        int
	mu       sync.Mutex
	inFlight int
	all      chan struct{}
}

func (f *togetherFetcher) Fetch(ctx context.Context, url string) (*adapter.Document, error) {
	f.mu.Lock()
	if f.inFlight++; f.inFlight == f.n {
		close(f.all)
	}
	f.mu.Unlock()
	select {
	case <-f.all:
		return &adapter.Document{URL: url, Status: 200}, nil
	case <-time.After(time.Second):
		return &adapter.Document{URL: url, Err: "fetched alone"}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// The documents an adapter asks for in one round are fetched at once (the fetcher keeps
// to each host's limits), and handed over in the order asked.
func TestFollowUpsOfARoundAreFetchedTogether(t *testing.T) {
	asked := []string{"https://s/collections.json", "https://s/sitemap.xml", "https://s/collections.json"}
	var got []*adapter.Document
	discoverer := &fake{
		info: adapter.Info{Name: "discoverer", Capabilities: []adapter.Op{adapter.OpDiscover}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			if req.Round == 0 {
				return &adapter.Response{Fetch: asked}, nil
			}
			got = req.Docs[1:]
			return &adapter.Response{Collections: []adapter.Collection{{URL: "https://s/c"}}}, nil
		},
	}
	set := &adapter.Set{Source: modules{discoverer}, Fetcher: &togetherFetcher{n: 2, all: make(chan struct{})}, Logger: quiet}
	if _, err := set.Discover(context.Background(), "", &adapter.Document{URL: "https://s/", Status: 200}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d documents handed over, want 2 (the third asked is the first again)", len(got))
	}
	for i, d := range got {
		if d.URL != asked[i] || d.Err != "" {
			t.Errorf("document %d: %s %q, want %s fetched alongside the other", i, d.URL, d.Err, asked[i])
		}
	}
}

// pageLister is a list adapter as the SDK's are: it asks for the collection's page and
// lists it, or says why it cannot when the page did not come.
func pageLister(name string, platforms ...string) *fake {
	return &fake{
		info: adapter.Info{Name: name, Platforms: platforms, Capabilities: []adapter.Op{adapter.OpList}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			if len(req.Docs) == 0 {
				return &adapter.Response{Fetch: []string{req.URL + "?by=" + name}}, nil
			}
			if d := req.Docs[0]; d.Status != 200 {
				return &adapter.Response{Outcome: adapter.Other, Message: "collection page: status " + strconv.Itoa(d.Status) + " " + d.Err}, nil
			}
			return &adapter.Response{Listings: []adapter.Listing{{URL: "https://s/products/" + name}}}, nil
		},
	}
}

// statusFetcher answers every URL with the status its path names, as a document that says
// so; 200 where none does. A "wall" path is a bot wall, and a "private" one a path
// robots.txt disallows, as the server's fetcher reports them.
type statusFetcher map[string]int

func (f statusFetcher) Fetch(_ context.Context, raw string) (*adapter.Document, error) {
	name, _, _ := strings.Cut(strings.TrimPrefix(raw, "https://s/collections/"), "?")
	switch status := f[name]; {
	case name == "wall":
		return &adapter.Document{URL: raw, Status: 403, Err: "fetch " + raw + ": automated access not permitted: Cloudflare answered 403", Blocked: true}, nil
	case name == "private":
		return &adapter.Document{URL: raw, Err: "fetch " + raw + ": disallowed by robots.txt", Disallowed: true}, nil
	case status != 0:
		return &adapter.Document{URL: raw, Status: status}, nil
	}
	return &adapter.Document{URL: raw, Status: 200}, nil
}

// A page the platform adapter cannot read is not an empty page: the next adapter is asked,
// and when none lists it the error says why, with the refusal told apart where it decides
// what a crawl does next (a bot wall, a page robots.txt disallows, a page that is not
// there). No adapter is asked past a bot wall.
func TestListSaysWhyAPageWasNotListed(t *testing.T) {
	fetch := statusFetcher{"broken": 503, "gone": 404}
	for _, tc := range []struct {
		collection                string
		platformOnly              bool
		want                      string // in the error; "" for listings
		blocked, disallowed, gone bool
		genericCalled             bool
	}{
		{collection: "fine", genericCalled: false},
		{collection: "broken", want: "list https://s/collections/broken with html: collection page: status 503", genericCalled: true},
		{collection: "gone", want: "list https://s/collections/gone with html: https://s/collections/gone?by=html answered 404", gone: true, genericCalled: true},
		{collection: "private", want: "list https://s/collections/private with html: https://s/collections/private?by=html: disallowed by robots.txt", disallowed: true, genericCalled: true},
		{collection: "wall", want: "list https://s/collections/wall with shop: fetch https://s/collections/wall?by=shop: automated access not permitted: Cloudflare answered 403", blocked: true},
		{collection: "broken", platformOnly: true, want: "list https://s/collections/broken with shop: collection page: status 503"},
	} {
		platform, generic := pageLister("shop", "shop"), pageLister("html")
		mods := modules{platform, generic}
		if tc.platformOnly {
			mods = modules{platform}
		}
		set := &adapter.Set{Source: mods, Fetcher: fetch, Logger: quiet}
		page, err := set.List(context.Background(), "shop", "https://s/collections/"+tc.collection, "", 0)
		name := tc.collection
		switch {
		case tc.want == "":
			if err != nil || len(page.Listings) != 1 {
				t.Errorf("%s: %+v %v, want the platform adapter's listing", name, page, err)
			}
		case err == nil || !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %+v %v, want an error with %q", name, page, err, tc.want)
		}
		blocked, disallowed, gone := errors.Is(err, adapter.ErrBlocked), errors.Is(err, adapter.ErrDisallowed), errors.Is(err, adapter.ErrGone)
		if blocked != tc.blocked || disallowed != tc.disallowed || gone != tc.gone {
			t.Errorf("%s: %v: blocked %v, disallowed %v, gone %v; want %v, %v, %v", name, err, blocked, disallowed, gone, tc.blocked, tc.disallowed, tc.gone)
		}
		if called := generic.calls > 0; called != tc.genericCalled {
			t.Errorf("%s: generic adapter called: %v, want %v", name, called, tc.genericCalled)
		}
	}
}

// Why an adapter failed is read from the documents it was handed, not from those another
// adapter fetched before it: a generic adapter that cannot read a page the store did give
// is a failure, even after a platform adapter's page was not found.
func TestAFailureIsJudgedByTheAdaptersOwnPages(t *testing.T) {
	unreadable := &fake{
		info: adapter.Info{Name: "html", Capabilities: []adapter.Op{adapter.OpList}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			if len(req.Docs) == 0 {
				return &adapter.Response{Fetch: []string{req.URL + "?by=html"}}, nil
			}
			return &adapter.Response{Outcome: adapter.Other, Message: "no tiles read"}, nil
		},
	}
	pages := fetcher{"https://s/collections/x?by=html": "<html></html>"} // the platform adapter's page: 404
	set := &adapter.Set{Source: modules{pageLister("shop", "shop"), unreadable}, Fetcher: pages, Logger: quiet}
	_, err := set.List(context.Background(), "shop", "https://s/collections/x", "", 0)
	if err == nil || errors.Is(err, adapter.ErrGone) || !strings.Contains(err.Error(), "list https://s/collections/x with html: no tiles read") {
		t.Fatalf("list: %v, want the html adapter's failure, not a page gone", err)
	}
}

// An adapter that reads a page and finds nothing on it has answered: the collection is
// empty or ends there, and no other adapter is asked what it makes of the page (past the
// last page the platform adapter pages through, the cursor is its own: Shopify's page
// number, which the html adapter refuses).
func TestListEndsWhereAnAdapterFindsNothing(t *testing.T) {
	platform := &fake{
		info: adapter.Info{Name: "shop", Platforms: []string{"shop"}, Capabilities: []adapter.Op{adapter.OpList}},
		call: func(*adapter.Request) (*adapter.Response, error) { return &adapter.Response{}, nil },
	}
	generic := &fake{
		info: adapter.Info{Name: "html", Capabilities: []adapter.Op{adapter.OpList}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			return &adapter.Response{Outcome: adapter.Other, Message: "bad cursor " + req.Cursor}, nil
		},
	}
	set := &adapter.Set{Source: modules{platform, generic}, Fetcher: statusFetcher{}, Logger: quiet}
	for _, cursor := range []string{"5", ""} {
		page, err := set.List(context.Background(), "shop", "https://s/collections/new", cursor, 1000)
		if err != nil || len(page.Listings) > 0 || page.Next != "" {
			t.Errorf("cursor %q: %+v %v, want the empty end of the collection", cursor, page, err)
		}
	}
	if generic.calls != 0 {
		t.Errorf("the generic adapter was asked %d times", generic.calls)
	}
}

// Discovery behind a bot wall fails, saying so, rather than finding no collections.
func TestDiscoverBehindABotWallFails(t *testing.T) {
	discoverer := &fake{
		info: adapter.Info{Name: "shop", Platforms: []string{"shop"}, Capabilities: []adapter.Op{adapter.OpDiscover}},
		call: func(req *adapter.Request) (*adapter.Response, error) {
			if len(req.Docs) < 2 {
				return &adapter.Response{Fetch: []string{"https://s/collections/wall?limit=250"}}, nil
			}
			return &adapter.Response{}, nil // found none in what it could read
		},
	}
	generic := &fake{
		info: adapter.Info{Name: "html", Capabilities: []adapter.Op{adapter.OpDiscover}},
		call: func(*adapter.Request) (*adapter.Response, error) { return &adapter.Response{}, nil },
	}
	set := &adapter.Set{Source: modules{discoverer, generic}, Fetcher: statusFetcher{}, Logger: quiet}
	cols, err := set.Discover(context.Background(), "shop", &adapter.Document{URL: "https://s/", Status: 200})
	if !errors.Is(err, adapter.ErrBlocked) || !strings.Contains(err.Error(), "discover https://s/: fetch https://s/collections/wall?limit=250: automated access not permitted") {
		t.Fatalf("discover: %v %v, want a bot wall error", cols, err)
	}
	if generic.calls > 0 {
		t.Errorf("a generic adapter was asked past the wall")
	}
}

// The page patterns of a platform are those its own adapters declare; generic adapters
// and other platforms' add none.
func TestPatternsAreThePlatformAdaptersOwn(t *testing.T) {
	set := &adapter.Set{Source: modules{
		&fake{info: adapter.Info{Name: "shop", Platforms: []string{"shop"}, URLPatterns: []string{"/products/*"}, CollectionPatterns: []string{"/collections/*"}}},
		&fake{info: adapter.Info{Name: "other", Platforms: []string{"other"}, URLPatterns: []string{"/p/*"}}},
		&fake{info: adapter.Info{Name: "generic", URLPatterns: []string{"/item/*"}}},
	}}
	products, collections := set.Patterns("shop")
	if strings.Join(products, " ") != "/products/*" || strings.Join(collections, " ") != "/collections/*" {
		t.Errorf("shop's patterns: %q and %q", products, collections)
	}
	if products, collections := set.Patterns(""); products != nil || collections != nil {
		t.Errorf("generic patterns: %q and %q, want none", products, collections)
	}
}
