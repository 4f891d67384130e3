package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// MaxURLs is the most URLs one extraction takes.
const MaxURLs = 1000

// Service starts, reads and cancels extractions.
type Service struct {
	executions execution.Store
	items      Store
	starter    execution.Starter
	orgs       access.Store
	catalog    catalog.Store
	pipeline   *Pipeline
	// creditsPerURL is charged at start for each URL to process.
	creditsPerURL int64
}

// NewService returns a Service.
func NewService(executions execution.Store, items Store, starter execution.Starter, orgs access.Store, store catalog.Store, pipeline *Pipeline, creditsPerURL int64) *Service {
	return &Service{executions: executions, items: items, starter: starter, orgs: orgs, catalog: store, pipeline: pipeline, creditsPerURL: creditsPerURL}
}

// MaxSyncURLs is the most URLs one synchronous (legacy) extraction takes.
const MaxSyncURLs = 50

// Extract extracts urls while the caller waits (the legacy endpoints): charged at start
// like any extraction, answered in input order.
func (s *Service) Extract(ctx context.Context, organizationID string, urls []string) ([]Item, int64, error) {
	if err := checkURLs(urls, MaxSyncURLs); err != nil {
		return nil, 0, err
	}
	credits := s.creditsPerURL * int64(len(urls))
	if err := s.orgs.Charge(ctx, organizationID, credits); err != nil {
		return nil, 0, unpaid(err, credits)
	}
	results, err := s.pipeline.ExtractURLs(ctx, urls)
	if err != nil {
		return nil, credits, err
	}
	var ids []string
	for _, r := range results {
		if r.ProductID != "" {
			ids = append(ids, r.ProductID)
		}
	}
	products, err := s.items.Products(ctx, ids)
	if err != nil {
		return nil, credits, err
	}
	items := make([]Item, len(urls))
	for i, u := range urls {
		r := results[u]
		items[i] = Item{Position: i, URL: u, Outcome: r.Outcome, Message: r.Message, Retry: r.Outcome.Retry(), FinalURL: r.FinalURL, Product: products[r.ProductID]}
	}
	return items, credits, nil
}

// Started is the answer to a start.
type Started struct {
	ExecutionID string
	CreditsUsed int64
	URLCount    int
	// ListingsCount and ProductsToProcess describe a vendor-mode start.
	ListingsCount     int
	ProductsToProcess int
}

// Kinds: v1 batches and v2 extractions are separate lists but run the same way.
var kinds = []execution.Kind{execution.ProductsBatch, execution.Extract}

// StartURLs starts an extraction of urls. kind is ProductsBatch (v1) or Extract (v2).
func (s *Service) StartURLs(ctx context.Context, organizationID string, kind execution.Kind, urls []string, p Parameters) (Started, error) {
	if err := checkURLs(urls, MaxURLs); err != nil {
		return Started{}, err
	}
	p.URLs, p.Vendor, p.CrawlID, p.MaxProducts = urls, "", "", nil
	id := "extract-urls-" + uuid.NewString()
	if kind == execution.ProductsBatch {
		id = "products-batch-" + uuid.NewString()
	}
	credits := s.creditsPerURL * int64(len(urls))
	if err := s.start(ctx, organizationID, kind, id, "", p, credits, urls); err != nil {
		return Started{}, err
	}
	return Started{ExecutionID: id, CreditsUsed: credits, URLCount: len(urls)}, nil
}

// checkURLs refuses a list of URLs longer than limit, empty, or holding a URL longer than
// urlnorm.MaxURLLength: such a URL is no page's, and no index could hold it. Every long
// one is named in the error's invalid_urls, by its index.
func checkURLs(urls []string, limit int) error {
	if len(urls) == 0 {
		return failure.OutOfRange("urls", "must hold at least one URL")
	}
	if len(urls) > limit {
		return failure.OutOfRange("urls", "must hold at most %d URLs, got %d", limit, len(urls))
	}
	var invalid []string
	for i, u := range urls {
		if len(u) > urlnorm.MaxURLLength {
			invalid = append(invalid, fmt.Sprintf("Index %d: %d bytes long - longer than %d", i, len(u), urlnorm.MaxURLLength))
		}
	}
	if len(invalid) > 0 {
		err := failure.OutOfRange("urls", "must hold URLs of at most %d bytes: %s", urlnorm.MaxURLLength, invalid[0])
		err.Details = map[string]any{"invalid_urls": invalid}
		return err
	}
	return nil
}

// StartVendor starts an extraction of a vendor's listings. With crawlID, it waits for that
// crawl; without, the vendor must have been crawled.
func (s *Service) StartVendor(ctx context.Context, organizationID, vendor string, p Parameters) (Started, error) {
	host, err := catalog.VendorHost(vendor)
	if err != nil {
		return Started{}, err
	}
	if p.MaxProducts != nil && *p.MaxProducts < 1 {
		return Started{}, failure.OutOfRange("max_products", "must be at least 1, got %d", *p.MaxProducts)
	}
	p.URLs, p.Vendor = nil, host
	listings, err := s.listingCount(ctx, host)
	if err != nil {
		return Started{}, err
	}
	if p.CrawlID != "" {
		crawl, err := s.executions.Get(ctx, p.CrawlID, organizationID)
		if errors.Is(err, execution.ErrNotFound) || (err == nil && crawl.Kind != execution.Crawl) {
			return Started{}, failure.NotFoundf("crawl %s not found", p.CrawlID)
		}
		if err != nil {
			return Started{}, err
		}
		if crawl.Vendor != host {
			return Started{}, failure.OutOfRange("crawl_id", "crawl %s is of vendor %s, not %s", p.CrawlID, crawl.Vendor, host)
		}
	} else if listings == 0 {
		return Started{}, failure.OutOfRange("vendor", "vendor %s has no listings: it was never crawled; start a crawl first, or pass its crawl_id", host)
	}
	toProcess := listings
	if p.MaxProducts != nil {
		toProcess = min(toProcess, *p.MaxProducts)
	}
	id := "extract-" + strings.ReplaceAll(host, ".", "-") + "-" + uuid.NewString()
	credits := s.creditsPerURL * int64(toProcess)
	if err := s.start(ctx, organizationID, execution.Extract, id, host, p, credits, nil); err != nil {
		return Started{}, err
	}
	return Started{ExecutionID: id, CreditsUsed: credits, ListingsCount: listings, ProductsToProcess: toProcess}, nil
}

func (s *Service) listingCount(ctx context.Context, host string) (int, error) {
	_, total, err := s.catalog.Listings(ctx, catalog.ListingQuery{Vendor: host, Page: page.Request{Number: 1, Size: 1}})
	return total, err
}

// start begins an execution whose inputs are urls, or the vendor's listings when urls is
// empty.
func (s *Service) start(ctx context.Context, organizationID string, kind execution.Kind, id, vendor string, p Parameters, credits int64, urls []string) error {
	params, err := json.Marshal(p)
	if err != nil {
		return err
	}
	e := execution.Execution{ID: id, Kind: kind, OrganizationID: organizationID, Vendor: vendor, Parameters: params,
		CreditsUsed: credits, Steps: []execution.Step{}, Webhook: p.Webhook}
	return unpaid(s.starter.Start(ctx, e, urls), credits)
}

// unpaid is err, or failure InsufficientCredits when the balance could not pay credits.
func unpaid(err error, credits int64) error {
	if errors.Is(err, access.ErrInsufficientCredits) {
		return &failure.Error{Kind: failure.InsufficientCredits, Message: fmt.Sprintf("this extraction costs %d credits, more than the balance", credits)}
	}
	return err
}

// Detail is an extraction as its status reads show it: the execution and what it was
// asked to do.
type Detail struct {
	Execution  execution.Execution
	Parameters Parameters
	// Progress is set while the extraction runs; Summary once it has completed.
	Progress *Progress
	Summary  *Summary
	// Requests are the HTTP requests the extraction has made so far, or made in all once
	// it has ended; nil before it started.
	Requests *fetch.Requests
}

// Get returns an extraction of kind that organizationID may read: its own, or any v1
// batch (see readableByAnyKey).
func (s *Service) Get(ctx context.Context, organizationID, id string, kind execution.Kind) (Detail, error) {
	if readableByAnyKey(kind) {
		organizationID = "" // whoever owns it
	}
	e, err := execution.Owned(ctx, s.executions, organizationID, id, kind, "execution")
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Execution: e, Progress: execution.ProgressOf[Progress](e)}
	if err := json.Unmarshal(e.Parameters, &d.Parameters); err != nil {
		return Detail{}, fmt.Errorf("read parameters of %s: %w", e.ID, err)
	}
	d.Summary, _ = execution.ResultOf[Summary](e) // one that cannot be read is shown as none
	if d.Requests = fetch.SavedRequests(e.Progress); d.Summary != nil && d.Summary.Requests != nil {
		d.Requests = d.Summary.Requests
	}
	return d, nil
}

// readableByAnyKey is the rule that any valid key may read a v1 batch (products_batch),
// whichever organization started it, as v1 had it; a v2 extraction is read by its own
// organization alone.
func readableByAnyKey(kind execution.Kind) bool { return kind == execution.ProductsBatch }

// Meta counts an extraction's inputs by outcome.
func (s *Service) Meta(ctx context.Context, id string) (Meta, error) {
	tally, err := s.items.Tally(ctx, id)
	if err != nil {
		return Meta{}, err
	}
	return MetaOf(tally), nil
}

// Items returns a page of an extraction's items in input order. With flags.SimilarProducts
// each product carries its similar products (see AttachSimilar).
func (s *Service) Items(ctx context.Context, id string, req page.Request, flags Flags) ([]Item, error) {
	items, err := s.items.Items(ctx, id, req.Offset(), req.Size)
	if err != nil || !flags.SimilarProducts {
		return items, err
	}
	products := make([]*Stored, 0, len(items))
	for _, it := range items {
		if it.Product != nil {
			products = append(products, it.Product)
		}
	}
	return items, s.AttachSimilar(ctx, products)
}

// AttachSimilar sets the Similar products of each product (an empty list where the
// catalog has none). They are looked up when results are read rather than stored at
// extraction time, so that they stay right as the catalog grows (a product extracted
// first is not left with none) and cost nothing to results that do not ask for them.
// Anything that renders catalog products with enable_similar_products calls it.
func (s *Service) AttachSimilar(ctx context.Context, products []*Stored) error {
	ids := make([]string, 0, len(products))
	for _, p := range products {
		ids = append(ids, p.ID)
	}
	if len(ids) == 0 {
		return nil
	}
	similar, err := s.items.Similar(ctx, ids, MaxSimilar)
	if err != nil {
		return err
	}
	for _, p := range products {
		p.Similar = similar[p.ID]
		if p.Similar == nil {
			p.Similar = []Similar{}
		}
	}
	return nil
}

// List returns an organization's extractions of a kind, newest first.
func (s *Service) List(ctx context.Context, organizationID string, kind execution.Kind, statuses []execution.Status, limit int) ([]execution.Execution, error) {
	return s.executions.List(ctx, execution.Filter{OrganizationID: organizationID, Kinds: []execution.Kind{kind}, Statuses: statuses, Limit: limit})
}

// Cancel stops a pending or running extraction; what it charged stays charged (the work
// done so far is kept).
func (s *Service) Cancel(ctx context.Context, organizationID, id string, kind execution.Kind) (execution.Execution, error) {
	return execution.CancelOwned(ctx, s.executions, organizationID, id, kind, "execution")
}
