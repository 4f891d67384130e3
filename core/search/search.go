package search

import (
	"context"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/page"
)

// MaxMiniResults is the most results a mini search returns.
const MaxMiniResults = 10

// Request is one search as a client asked it.
type Request struct {
	Query string `json:"query"`
	// Profile is the free-form customer profile (service-interface.md, "Customer profile").
	Profile map[string]any `json:"customer_profile,omitempty"`
	extract.Flags
	// Limit is how many results to keep at most; 0 takes the service default.
	Limit int `json:"limit,omitempty"`
	// Webhook, when not nil, is told of an asynchronous search's end. It is not kept with
	// the request.
	Webhook *execution.Webhook `json:"-"`
}

// Hit is one result: a catalog product, its score and the reasons it was chosen.
type Hit struct {
	Product *extract.Stored
	// Source says whether Product was extracted or built from a crawled listing.
	Source Source
	Score  float64
	// Reasons name the constraints and profile points the product matched, in words a
	// client can show ("under $150", "color: not black", "profile: prefers waterproof").
	Reasons []string
}

// Source says where a result's product comes from.
type Source string

const (
	// SourceExtraction is a product an extraction saved.
	SourceExtraction Source = "extraction"
	// SourceListing is a product built from a crawled listing that no extraction has
	// replaced: its id is the listing's, and only its URL, vendor, title (the listing's
	// name), price and images are known. Once an extraction saves the product, a search
	// serves that product instead, also for the hits it saved before.
	SourceListing Source = "listing"
)

// Answer is what a search found.
type Answer struct {
	Hits []Hit
	// Relaxed lists the soft constraints dropped to find enough results, in the order
	// they were dropped.
	Relaxed []string
}

// Started is the answer to an asynchronous start.
type Started struct {
	ExecutionID string
	CreditsUsed int64
}

// Filters are the structured filters of legacy /api/search.
type Filters struct {
	MinPrice    *float64
	MaxPrice    *float64
	Vendor      string
	Brand       string
	ProductType string
	IsAvailable *bool
	Tags        []string
}

// empty reports whether no filter is set.
func (f Filters) empty() bool {
	return f.MinPrice == nil && f.MaxPrice == nil && f.Vendor == "" && f.Brand == "" && f.ProductType == "" &&
		f.IsAvailable == nil && len(f.Tags) == 0
}

// API is what the HTTP layer calls. *Service implements it.
type API interface {
	// Start begins an asynchronous search (v2) and charges credits.agentic_search.
	// The execution id is agentic-{uuid}-{unix seconds}.
	Start(ctx context.Context, organizationID string, req Request) (Started, error)
	// Get returns a search execution of the organization, with its request, progress and
	// result read; failure NotFound otherwise.
	Get(ctx context.Context, organizationID, id string) (Detail, error)
	// Results returns a page of a completed search's hits, best first.
	Results(ctx context.Context, id string, req page.Request) (page.Result[Hit], error)
	// List returns the organization's searches, newest first.
	List(ctx context.Context, organizationID string, statuses []execution.Status, limit int) ([]execution.Execution, error)
	// Cancel stops a pending or running search (failure NotRunning when it has ended).
	Cancel(ctx context.Context, organizationID, id string) (execution.Execution, error)
	// Search searches while the caller waits (v1 agentic search), charging
	// credits.agentic_search; it returns what it charged.
	Search(ctx context.Context, organizationID string, req Request) (Answer, int64, error)
	// Mini searches while the caller waits, at most MaxMiniResults results, charging
	// credits.agentic_search_mini.
	Mini(ctx context.Context, organizationID string, req Request) (Answer, int64, error)
	// Filter is legacy /api/search: the query understood as Search does, plus the client's
	// structured filters (all hard), paged; charges credits.agentic_search.
	Filter(ctx context.Context, organizationID, query string, f Filters, req page.Request) (page.Result[Hit], int64, error)
}

// Step names of a search execution, in order.
const (
	StepUnderstand = "Understanding query"
	StepRetrieve   = "Retrieving candidates"
	StepRank       = "Ranking"
	StepRelax      = "Relaxing constraints"
	StepDone       = "Done"
)

// Progress is the execution's progress document while it runs.
type Progress struct {
	CandidatesFound int `json:"candidates_found"`
	ProductsRanked  int `json:"products_ranked"`
}

// Detail is a search execution as its status read shows it.
type Detail struct {
	Execution execution.Execution
	// Request is what the search was asked.
	Request Request
	// Progress is set while the search runs: zero counts until its first report.
	Progress *Progress
	// Result is set once the search has completed.
	Result *Result
}

// Result is the execution's result document once it completes. The hits themselves are
// read with Results.
type Result struct {
	ProductsTotal int `json:"products_total"`
	// Understood is how the query was read (terms, constraints, price bounds, sort), for
	// clients that want to show it.
	Understood any      `json:"understood"`
	Relaxed    []string `json:"relaxed"`
}
