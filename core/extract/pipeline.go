package extract

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/enrich"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// PipelineOptions tune a Pipeline. The zero value is usable.
type PipelineOptions struct {
	// Concurrency bounds the URLs extracted at once by one execution; per-host politeness
	// still applies underneath. Default 16.
	Concurrency int
	// Attempts is how often a URL with a transient outcome (bot wall, timeout, 5xx) is
	// tried before it is reported with retry: true. Default 3.
	Attempts int
	// Backoff is the wait before the second attempt; it doubles after. Default 1s.
	Backoff time.Duration
	// WaitPoll is how often an extraction waiting for its crawl looks again. Default 2s.
	WaitPoll time.Duration
	// RecordMaxAge is how old a listing's record (catalog.Record: the whole product its
	// listing page gave the crawl) may be for a vendor's extraction to build the product
	// from it, fetching only what the whole store shares, rather than from the product's
	// own page. Zero builds no product from records.
	RecordMaxAge time.Duration
	// StructuredData decodes a fetched page's JSON-LD and microdata into JSON-LD's shape
	// (plugins/document.StructuredData), from which the product's own rating and reviews
	// are captured with the product. Adapters describe products, not their reviews, and
	// the host has already parsed the page for them, so reading the reviews here costs no
	// second parse. Nil captures no reviews.
	StructuredData func(*adapter.Document) []any
	Logger         *slog.Logger
}

func (o PipelineOptions) withDefaults() PipelineOptions {
	if o.Concurrency <= 0 {
		o.Concurrency = 16
	}
	if o.Attempts <= 0 {
		o.Attempts = 3
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.WaitPoll <= 0 {
		o.WaitPoll = 2 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Pipeline runs extractions.
type Pipeline struct {
	adapters   *adapter.Set
	items      Store
	catalog    catalog.Store
	executions execution.Store
	runner     *execution.Runner
	opts       PipelineOptions
}

// NewPipeline returns a Pipeline.
func NewPipeline(adapters *adapter.Set, items Store, store catalog.Store, executions execution.Store, runner *execution.Runner, opts PipelineOptions) *Pipeline {
	return &Pipeline{adapters: adapters, items: items, catalog: store, executions: executions, runner: runner, opts: opts.withDefaults()}
}

// Progress is saved while an extraction runs.
type Progress struct {
	Processed int `json:"products_processed"`
	Total     int `json:"products_total"`
	// Fetch counts the extraction's requests, its URLs waiting for their host and the
	// host's pace, as they are when the progress is saved.
	Fetch *fetch.Meter `json:"fetch,omitempty"`
}

// Run runs extraction id; it is the queue's handler for both extraction kinds.
func (p *Pipeline) Run(ctx context.Context, id string) error {
	e, err := p.executions.Get(ctx, id, "")
	if err != nil {
		return err
	}
	var params Parameters
	if err := json.Unmarshal(e.Parameters, &params); err != nil {
		return fmt.Errorf("read parameters of %s: %w", id, err)
	}
	if params.CrawlID != "" && e.Status == execution.Pending {
		crawl, err := p.executions.Get(ctx, params.CrawlID, "")
		if err != nil {
			return err
		}
		switch crawl.Status {
		case execution.Pending, execution.Running:
			return &execution.WaitError{After: p.opts.WaitPoll, Reason: "crawl " + crawl.ID}
		case execution.Failed:
			return p.runner.Run(ctx, id, func(context.Context, *execution.Job) (any, error) {
				return nil, fmt.Errorf("crawl %s failed: %s", crawl.ID, crawl.Error)
			})
		}
	}
	return p.runner.Run(ctx, id, func(ctx context.Context, job *execution.Job) (any, error) {
		return p.extract(ctx, job, params)
	})
}

func (p *Pipeline) extract(ctx context.Context, job *execution.Job, params Parameters) (any, error) {
	var saved Progress
	_ = json.Unmarshal(job.Progress, &saved) // none saved: a new count
	meter := saved.Fetch.Continued()
	ctx = fetch.WithMeter(ctx, meter)
	if params.Vendor != "" {
		if err := p.addVendorItems(ctx, job.ID, params); err != nil {
			return nil, err
		}
	}
	tally, err := p.items.Tally(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	meta := MetaOf(tally)
	pending, err := p.items.PendingURLs(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	var processed atomic.Int64
	processed.Store(int64(meta.Processed()))
	// Positions per URL, so that progress counts inputs, not distinct URLs.
	weights, err := p.pendingWeights(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	job.SetProgress(Progress{Processed: meta.Processed(), Total: meta.Requested, Fetch: meter})

	// A vendor's products are built from the records its crawl kept where it can: the
	// store-level documents they need are fetched once for the whole extraction.
	var shared *adapter.SharedDocuments
	if params.Vendor != "" && p.opts.RecordMaxAge > 0 {
		shared = adapter.NewSharedDocuments(p.adapters.Fetcher)
	}
	for len(pending) > 0 {
		chunk := pending[:min(len(pending), recordsChunk)]
		pending = pending[len(chunk):]
		var records map[string]catalog.Record
		if shared != nil {
			if records, err = p.items.ListingRecords(ctx, params.Vendor, chunk); err != nil {
				return nil, err
			}
		}
		err = p.each(ctx, chunk, func(ctx context.Context, u string) error {
			r, ok := p.assemble(ctx, u, records, shared)
			if !ok {
				r = p.Extract(ctx, u)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err := p.items.SetResult(ctx, job.ID, u, r); err != nil {
				return err
			}
			n := processed.Add(int64(weights[u]))
			job.SetProgress(Progress{Processed: int(n), Total: meta.Requested, Fetch: meter})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	final, err := p.items.Tally(ctx, job.ID)
	if err != nil {
		return nil, err
	}
	m := MetaOf(final)
	requests := meter.Requests()
	return Summary{Requested: m.Requested, Successful: m.Successful, Failed: m.Failed, Invalid: m.Invalid, Requests: &requests}, nil
}

// Summary is stored as an extraction's result; the details live in its items.
type Summary struct {
	Requested  int `json:"products_requested"`
	Successful int `json:"products_successful"`
	Failed     int `json:"products_failed"`
	Invalid    int `json:"products_invalid"`
	// Requests are the HTTP requests the extraction made, by kind.
	Requests *fetch.Requests `json:"requests,omitempty"`
}

// pendingWeights counts the input positions of each pending URL.
func (p *Pipeline) pendingWeights(ctx context.Context, id string) (map[string]int, error) {
	weights := map[string]int{}
	for offset := 0; ; offset += 1000 {
		items, err := p.items.Items(ctx, id, offset, 1000)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.Outcome == "" {
				weights[it.URL]++
			}
		}
		if len(items) < 1000 {
			return weights, nil
		}
	}
}

// addVendorItems turns a vendor's listings into the extraction's items, once.
func (p *Pipeline) addVendorItems(ctx context.Context, id string, params Parameters) error {
	tally, err := p.items.Tally(ctx, id)
	if err != nil {
		return err
	}
	if len(tally) > 0 {
		return nil // a resumed extraction already has its items
	}
	limit := -1
	if params.MaxProducts != nil {
		limit = *params.MaxProducts
	}
	var urls []string
	for n := 1; limit < 0 || len(urls) < limit; n++ {
		listings, _, err := p.catalog.Listings(ctx, catalog.ListingQuery{Vendor: params.Vendor, Page: page.Request{Number: n, Size: 100}})
		if err != nil {
			return err
		}
		for _, l := range listings {
			if limit >= 0 && len(urls) >= limit {
				break
			}
			// The site's own URL for the product where the crawl saw one: the canonical
			// form would be answered with a redirect on a store that keeps to its www. name
			// or its trailing slashes.
			urls = append(urls, cmp.Or(l.PageURL, l.URL))
		}
		if len(listings) < 100 {
			break
		}
	}
	if len(urls) == 0 {
		return fmt.Errorf("vendor %s has no listings", params.Vendor)
	}
	return p.items.AddItems(ctx, id, urls)
}

// each runs fn over urls with bounded concurrency; the first error stops the rest.
func (p *Pipeline) each(ctx context.Context, urls []string, fn func(context.Context, string) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(p.opts.Concurrency)
	for _, u := range urls {
		g.Go(func() error { return fn(gctx, u) })
	}
	return g.Wait()
}

// Extract extracts one URL, retrying transient outcomes with backoff, and saves the
// product. It never returns an error: every failure is an outcome.
func (p *Pipeline) Extract(ctx context.Context, rawURL string) Result {
	if msg := malformed(rawURL); msg != "" {
		return Result{Outcome: adapter.MalformedURL, Message: msg}
	}
	backoff := p.opts.Backoff
	var r Result
	for attempt := 1; ; attempt++ {
		r = p.attempt(ctx, rawURL)
		if !r.Outcome.Retry() || attempt >= p.opts.Attempts || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff *= 2
	}
	return r
}

// attempt extracts one URL once. It sets no deadline of its own: a URL may wait long for
// its turn at a busy host, which is politeness, not failure. The fetcher bounds each fetch
// and the adapter host each adapter call.
func (p *Pipeline) attempt(ctx context.Context, rawURL string) Result {
	page, err := p.adapters.Fetcher.Fetch(ctx, rawURL)
	if err != nil {
		return Result{Outcome: adapter.Other, Message: "fetch failed: " + err.Error()}
	}
	res, err := p.adapters.Extract(ctx, rawURL, page)
	if err != nil {
		return Result{Outcome: adapter.Other, Message: "extraction failed: " + err.Error()}
	}
	out := Result{Outcome: res.Outcome, Message: res.Message}
	if page.FinalURL != "" && page.FinalURL != rawURL {
		out.FinalURL = page.FinalURL
	}
	if res.Outcome != adapter.Success || res.Product == nil {
		if out.Outcome == "" || out.Outcome == adapter.Success {
			out.Outcome = adapter.Other
		}
		return out
	}
	productURL := rawURL
	if out.FinalURL != "" {
		productURL = out.FinalURL
	}
	if res.Product.Reviews == nil && p.opts.StructuredData != nil {
		// Captured whatever the flags: the catalog keeps the whole product, and each
		// extraction's flags only choose what is rendered.
		res.Product.Reviews = enrich.ReviewsFromJSONLD(p.opts.StructuredData(page))
	}
	return p.save(ctx, productURL, res.Product, out)
}

// recordsChunk is how many of a vendor's URLs are extracted per read of their records.
const recordsChunk = 500

// assemble builds the product at rawURL from its listing's record in records, when there
// is one no older than RecordMaxAge, and saves it. ok is false when it did not: the URL
// is then extracted from its page, which also covers a record the adapter could not read
// and a store-level document it could not get.
func (p *Pipeline) assemble(ctx context.Context, rawURL string, records map[string]catalog.Record, shared *adapter.SharedDocuments) (r Result, ok bool) {
	record, found := records[rawURL]
	if !found || time.Since(record.ListedAt) > p.opts.RecordMaxAge {
		return Result{}, false
	}
	res, err := p.adapters.Assemble(ctx, record.Adapter, rawURL, record.Data, shared)
	if err != nil || res.Outcome != adapter.Success || res.Product == nil {
		p.opts.Logger.Debug("product not built from its listing's record", "url", rawURL, "outcome", res.Outcome, "message", res.Message, "err", err)
		return Result{}, false
	}
	r = p.save(ctx, rawURL, res.Product, Result{Outcome: adapter.Success})
	return r, r.Outcome == adapter.Success
}

// save puts the product found at productURL in the catalog under its canonical URL and
// completes out with its id, or turns out into the failure.
func (p *Pipeline) save(ctx context.Context, productURL string, prod *product.Product, out Result) Result {
	vendor, err := urlnorm.Host(productURL)
	if err != nil {
		return Result{Outcome: adapter.MalformedURL, Message: err.Error()}
	}
	if normalized, err := urlnorm.Page(productURL); err == nil {
		prod.URL = normalized
	}
	id, err := p.items.SaveProduct(ctx, vendor, prod, time.Now())
	if err != nil {
		return Result{Outcome: adapter.Other, Message: "saving the product failed: " + err.Error()}
	}
	out.ProductID, out.Message = id, ""
	return out
}

// malformed says why rawURL cannot be fetched, or "".
func malformed(rawURL string) string {
	s := strings.TrimSpace(rawURL)
	u, err := url.Parse(s)
	switch {
	case s == "":
		return "empty URL"
	case err != nil:
		return "unparseable URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "URL must start with http:// or https://"
	case u.Host == "":
		return "URL has no host"
	}
	if _, err := urlnorm.Host(s); err != nil {
		return "URL has no valid host name"
	}
	return ""
}

// ExtractURLs extracts urls while the caller waits (the legacy endpoints), each distinct
// URL once.
func (p *Pipeline) ExtractURLs(ctx context.Context, urls []string) (map[string]Result, error) {
	distinct := []string{}
	seen := map[string]bool{}
	for _, u := range urls {
		if !seen[u] {
			seen[u] = true
			distinct = append(distinct, u)
		}
	}
	var mu sync.Mutex
	out := make(map[string]Result, len(distinct))
	err := p.each(ctx, distinct, func(ctx context.Context, u string) error {
		r := p.Extract(ctx, u)
		mu.Lock()
		out[u] = r
		mu.Unlock()
		return ctx.Err()
	})
	if errors.Is(err, context.Canceled) {
		return nil, err
	}
	return out, err
}
