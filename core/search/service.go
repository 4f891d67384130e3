package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
)

// Credits are what searches cost, charged at start.
type Credits struct {
	Search int64 // Start, Search, Filter
	Mini   int64
}

// Service starts, reads and cancels searches, and searches while the caller waits. It
// implements API.
type Service struct {
	executions execution.Store
	pipeline   *Pipeline
	starter    execution.Starter
	orgs       access.Store
	credits    Credits
	now        func() time.Time
}

var _ API = (*Service)(nil)

// NewService returns a Service. Searches started with it are run by pipeline.Run, which
// the starter's queue must call for execution.AgenticSearch.
func NewService(executions execution.Store, pipeline *Pipeline, starter execution.Starter, orgs access.Store, credits Credits) *Service {
	return &Service{executions: executions, pipeline: pipeline, starter: starter, orgs: orgs, credits: credits, now: time.Now}
}

// MaxQueryLength bounds a query, in bytes.
const MaxQueryLength = 1000

func checkQuery(q string, required bool) error {
	switch {
	case required && strings.TrimSpace(q) == "":
		return failure.Missing("query")
	case len(q) > MaxQueryLength:
		return failure.OutOfRange("query", "must be at most %d bytes, got %d", MaxQueryLength, len(q))
	}
	return nil
}

func (s *Service) charge(ctx context.Context, organizationID string, credits int64) error {
	return unpaid(s.orgs.Charge(ctx, organizationID, credits), credits)
}

// unpaid is err, or failure InsufficientCredits when the balance could not pay credits.
func unpaid(err error, credits int64) error {
	if errors.Is(err, access.ErrInsufficientCredits) {
		return &failure.Error{Kind: failure.InsufficientCredits, Message: fmt.Sprintf("this search costs %d credits, more than the balance", credits)}
	}
	return err
}

// Start implements API.
func (s *Service) Start(ctx context.Context, organizationID string, req Request) (Started, error) {
	if err := checkQuery(req.Query, true); err != nil {
		return Started{}, err
	}
	if req.Limit < 0 {
		return Started{}, failure.OutOfRange("limit", "must not be negative, got %d", req.Limit)
	}
	id := "agentic-" + uuid.NewString() + "-" + strconv.FormatInt(s.now().Unix(), 10)
	params, err := json.Marshal(req)
	if err != nil {
		return Started{}, err
	}
	credits := s.credits.Search
	e := execution.Execution{ID: id, Kind: execution.AgenticSearch, OrganizationID: organizationID, Parameters: params,
		CreditsUsed: credits, Steps: execution.NewSteps(StepUnderstand, StepRetrieve, StepRank, StepRelax, StepDone),
		Webhook: req.Webhook}
	if err := s.starter.Start(ctx, e, nil); err != nil {
		return Started{}, unpaid(err, credits)
	}
	return Started{ExecutionID: id, CreditsUsed: credits}, nil
}

// Get implements API.
func (s *Service) Get(ctx context.Context, organizationID, id string) (Detail, error) {
	e, err := execution.Owned(ctx, s.executions, organizationID, id, execution.AgenticSearch, "execution")
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Execution: e}
	if err := json.Unmarshal(e.Parameters, &d.Request); err != nil {
		return Detail{}, fmt.Errorf("read parameters of %s: %w", e.ID, err)
	}
	d.Progress = execution.ProgressOf[Progress](e)
	if d.Result, err = execution.ResultOf[Result](e); err != nil {
		return Detail{}, err
	}
	return d, nil
}

// Results implements API: the page's hits with their products, best first. A product
// deleted since the search is left out of its page.
func (s *Service) Results(ctx context.Context, id string, req page.Request) (page.Result[Hit], error) {
	stored, total, err := s.pipeline.store.Hits(ctx, id, req.Offset(), req.Size)
	if err != nil {
		return page.Result[Hit]{}, err
	}
	hits, err := s.load(ctx, stored)
	if err != nil {
		return page.Result[Hit]{}, err
	}
	return page.Result[Hit]{Items: hits, Request: req, TotalItems: total}, nil
}

// load reads the products of stored hits. A listing hit is served as the product an
// extraction has saved for it since the search, when there is one (and left out when
// that product is already a hit of the same page), else as a product built from the
// listing.
func (s *Service) load(ctx context.Context, stored []StoredHit) ([]Hit, error) {
	var productIDs, listingIDs []string
	for _, h := range stored {
		if h.ListingID != "" {
			listingIDs = append(listingIDs, h.ListingID)
		} else {
			productIDs = append(productIDs, h.ProductID)
		}
	}
	var listed map[string]Listed
	if len(listingIDs) > 0 {
		var err error
		if listed, err = s.pipeline.store.Listed(ctx, listingIDs); err != nil {
			return nil, err
		}
		for _, l := range listed {
			if l.ProductID != "" {
				productIDs = append(productIDs, l.ProductID)
			}
		}
	}
	products, err := s.pipeline.products.Products(ctx, productIDs)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(stored))
	served := make(map[string]bool, len(stored))
	for _, h := range stored {
		hit := Hit{Product: products[h.ProductID], Source: SourceExtraction, Score: h.Score, Reasons: h.Reasons}
		if h.ListingID != "" {
			l, ok := listed[h.ListingID]
			switch {
			case !ok:
				continue
			case l.ProductID != "":
				hit.Product = products[l.ProductID]
			default:
				hit.Product, hit.Source = listingProduct(l.Listing), SourceListing
			}
		}
		if hit.Product == nil || hit.Source == SourceExtraction && served[hit.Product.ID] {
			continue
		}
		served[hit.Product.ID] = true
		hits = append(hits, hit)
	}
	return hits, nil
}

// List implements API.
func (s *Service) List(ctx context.Context, organizationID string, statuses []execution.Status, limit int) ([]execution.Execution, error) {
	return s.executions.List(ctx, execution.Filter{OrganizationID: organizationID, Kinds: []execution.Kind{execution.AgenticSearch}, Statuses: statuses, Limit: limit})
}

// Cancel implements API. What the search charged stays charged.
func (s *Service) Cancel(ctx context.Context, organizationID, id string) (execution.Execution, error) {
	return execution.CancelOwned(ctx, s.executions, organizationID, id, execution.AgenticSearch, "execution")
}

// Search implements API.
func (s *Service) Search(ctx context.Context, organizationID string, req Request) (Answer, int64, error) {
	return s.sync(ctx, organizationID, Query{Request: req}, s.credits.Search)
}

// Mini implements API.
func (s *Service) Mini(ctx context.Context, organizationID string, req Request) (Answer, int64, error) {
	return s.sync(ctx, organizationID, Query{Request: req, Mini: true}, s.credits.Mini)
}

func (s *Service) sync(ctx context.Context, organizationID string, q Query, credits int64) (Answer, int64, error) {
	if err := checkQuery(q.Query, true); err != nil {
		return Answer{}, 0, err
	}
	if q.Limit < 0 {
		return Answer{}, 0, failure.OutOfRange("limit", "must not be negative, got %d", q.Limit)
	}
	if err := s.charge(ctx, organizationID, credits); err != nil {
		return Answer{}, 0, err
	}
	out, err := s.pipeline.Search(ctx, q)
	if err != nil {
		_ = s.orgs.Refund(context.WithoutCancel(ctx), organizationID, credits)
		return Answer{}, 0, err
	}
	hits, err := s.load(ctx, out.Hits)
	if err != nil {
		_ = s.orgs.Refund(context.WithoutCancel(ctx), organizationID, credits)
		return Answer{}, 0, err
	}
	return Answer{Hits: hits, Relaxed: out.Relaxed}, credits, nil
}

// Filter implements API. The query may be empty when a filter is given: then the filters
// alone select, newest first. With neither there is nothing to search for.
func (s *Service) Filter(ctx context.Context, organizationID, query string, f Filters, req page.Request) (page.Result[Hit], int64, error) {
	if err := checkQuery(query, f.empty()); err != nil {
		return page.Result[Hit]{}, 0, err
	}
	if f.MinPrice != nil && f.MaxPrice != nil && *f.MinPrice > *f.MaxPrice {
		return page.Result[Hit]{}, 0, failure.OutOfRange("filters.min_price", "must not exceed filters.max_price")
	}
	end := req.Offset() + req.Size
	if end > MaxPagedResults {
		return page.Result[Hit]{}, 0, failure.OutOfRange("page", "reaches past the first %d results", MaxPagedResults)
	}
	credits := s.credits.Search
	if err := s.charge(ctx, organizationID, credits); err != nil {
		return page.Result[Hit]{}, 0, err
	}
	out, err := s.pipeline.Search(ctx, Query{Request: Request{Query: query, Limit: MaxPagedResults}, Filters: f, Paged: true})
	if err != nil {
		_ = s.orgs.Refund(context.WithoutCancel(ctx), organizationID, credits)
		return page.Result[Hit]{}, 0, err
	}
	window := out.Hits[min(req.Offset(), len(out.Hits)):min(end, len(out.Hits))]
	hits, err := s.load(ctx, window)
	if err != nil {
		_ = s.orgs.Refund(context.WithoutCancel(ctx), organizationID, credits)
		return page.Result[Hit]{}, 0, err
	}
	return page.Result[Hit]{Items: hits, Request: req, TotalItems: len(out.Hits)}, credits, nil
}
