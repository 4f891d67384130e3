package adapter_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
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

func TestOutcomes(t *testing.T) {
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
