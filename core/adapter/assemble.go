package adapter

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/stockroom/stockroom/core/product"
)

// Assemble builds the product at rawURL from record, the whole product a listing page gave
// for it (Listing.Record), with the adapter named adapterName, the one that listed it. The
// product's own page is not fetched: the adapter asks only for documents the whole store
// shares (its home page, for the currency), which come from shared, so that an extraction
// of a whole catalog fetches each of them once.
//
// The product is the adapter's alone: the generic adapters, which read a product's page,
// have no page to read. An outcome other than Success (the adapter could not build the
// product from the record) tells the caller to extract the URL from its page instead.
func (s *Set) Assemble(ctx context.Context, adapterName, rawURL string, record []byte, shared *SharedDocuments) (Result, error) {
	var m Module
	for _, candidate := range s.Source.Modules() {
		if info := candidate.Info(); info.Name == adapterName && info.Can(OpAssemble) {
			m = candidate
			break
		}
	}
	if m == nil {
		return Result{Outcome: Other, Message: fmt.Sprintf("no adapter %q assembles products", adapterName)}, nil
	}
	recordDoc := &Document{URL: rawURL, Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Body: record}
	sharing := *s
	sharing.Fetcher = shared
	resp, err := sharing.run(ctx, m, &Request{Op: OpAssemble, URL: rawURL, Docs: []*Document{recordDoc}}, map[string]*Document{})
	switch {
	case err != nil && ctx.Err() != nil:
		return Result{}, ctx.Err()
	case err != nil:
		return Result{Outcome: Other, Message: fmt.Sprintf("assemble with %s: %v", adapterName, err)}, nil
	case resp.Product == nil:
		return Result{Outcome: cmpOutcome(resp.Outcome), Message: resp.Message}, nil
	}
	merged := &product.Product{}
	product.Merge(merged, resp.Product, adapterName)
	if merged.URL == "" {
		merged.URL = rawURL
	}
	return Result{Product: merged, Outcome: Success}, nil
}

// cmpOutcome is o, or Other when the adapter gave none.
func cmpOutcome(o Outcome) Outcome {
	if o == "" || o == Success {
		return Other
	}
	return o
}

// SharedDocuments is a Fetcher that fetches each URL once and hands every later caller the
// same document: the store-level documents of an extraction's assemble calls, asked for by
// each product. Concurrent callers of one URL wait for the one fetch. A fetch that may pass
// (an error, no answer, 429 or a 5xx) is not kept: the next caller fetches again.
type SharedDocuments struct {
	fetcher Fetcher

	mu   sync.Mutex
	docs map[string]*sharedFetch
}

// sharedFetch is one URL's fetch, done when ready is closed.
type sharedFetch struct {
	ready chan struct{}
	doc   *Document
	err   error
}

// NewSharedDocuments returns a SharedDocuments that fetches through f.
func NewSharedDocuments(f Fetcher) *SharedDocuments {
	return &SharedDocuments{fetcher: f, docs: map[string]*sharedFetch{}}
}

// Fetch returns the document at url, fetching it on the first call only.
func (s *SharedDocuments) Fetch(ctx context.Context, url string) (*Document, error) {
	s.mu.Lock()
	f, ok := s.docs[url]
	if !ok {
		f = &sharedFetch{ready: make(chan struct{})}
		s.docs[url] = f
	}
	s.mu.Unlock()
	if ok {
		select {
		case <-f.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.err != nil {
			return s.Fetch(ctx, url)
		}
		return f.doc, nil
	}
	f.doc, f.err = s.fetcher.Fetch(ctx, url)
	if f.err != nil || transient(f.doc) {
		s.mu.Lock()
		delete(s.docs, url)
		s.mu.Unlock()
	}
	close(f.ready)
	return f.doc, f.err
}

// transient reports whether d is a failure that may pass.
func transient(d *Document) bool {
	return d.Status == 0 || d.Status == http.StatusTooManyRequests || d.Status >= 500
}
