package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// Step names, in order, as the interface fixes them.
const (
	StepMethod      = "Determining crawl method"
	StepDiscover    = "Discovering collections"
	StepAnalyze     = "Analyzing collections"
	StepListings    = "Extracting listings"
	stepMethodIdx   = 0
	stepDiscoverIdx = 1
	stepAnalyzeIdx  = 2
	stepListingsIdx = 3
)

// Parameters are what a crawl was asked to do.
type Parameters struct {
	// URL is what the client sent.
	URL string `json:"url"`
	// StartURL is the home page fetched first: the client's scheme, host and port.
	StartURL string `json:"start_url"`
}

// Progress is saved while the crawl runs.
type Progress struct {
	CollectionsFound int `json:"collections_found"`
	ListingsFound    int `json:"listings_found"`
	// Done lists the collections whose listings are all written, so that a resumed crawl
	// skips them.
	Done []string `json:"done,omitempty"`
	// Fetch counts the crawl's requests, its URLs waiting for the host and the host's pace,
	// as they are when the progress is saved.
	Fetch *fetch.Meter `json:"fetch,omitempty"`
}

// Result is saved when the crawl completes.
type Result struct {
	CollectionsTotal int     `json:"collections_total"`
	ListingsTotal    int     `json:"listings_total"`
	Method           *Method `json:"method,omitempty"`
	// Requests are the HTTP requests the crawl made, by kind.
	Requests *fetch.Requests `json:"requests,omitempty"`
}

// Method is how the crawl read the site: the platform detected and the evidence, where
// the collections and listings came from (Source, one of the Source constants), and why.
type Method struct {
	Platform   string   `json:"platform"`
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence,omitempty"`
	Source     string   `json:"source,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

// Service starts, reads and cancels crawls.
type Service struct {
	executions execution.Store
	starter    execution.Starter
	orgs       access.Store
	credits    int64
}

// NewService returns a Service. credits is what a start charges (zero by default).
func NewService(executions execution.Store, starter execution.Starter, orgs access.Store, credits int64) *Service {
	return &Service{executions: executions, starter: starter, orgs: orgs, credits: credits}
}

// Started is the answer to a start.
type Started struct {
	ExecutionID string
	// Existing is true when a crawl of the same vendor was already running.
	Existing    bool
	CreditsUsed int64
}

// Start begins a crawl of the vendor at rawURL for an organization, or returns the crawl
// of that vendor already running. hook, when not nil, is told of the crawl's end (of the
// running one's, when it is returned).
func (s *Service) Start(ctx context.Context, organizationID, rawURL string, hook *execution.Webhook) (Started, error) {
	if strings.TrimSpace(rawURL) == "" {
		return Started{}, failure.Missing("url")
	}
	if len(rawURL) > urlnorm.MaxURLLength {
		return Started{}, failure.OutOfRange("url", "must be at most %d bytes long, got %d", urlnorm.MaxURLLength, len(rawURL))
	}
	host, err := urlnorm.Host(rawURL)
	if err != nil {
		return Started{}, failure.OutOfRange("url", "must be a website URL or domain, got %q", rawURL)
	}
	start, err := startURL(rawURL, host)
	if err != nil {
		return Started{}, failure.OutOfRange("url", "%v", err)
	}
	org, err := s.orgs.Organization(ctx, organizationID)
	if err != nil {
		return Started{}, fmt.Errorf("organization: %w", err)
	}
	if !org.AutoTopUp {
		return Started{}, &failure.Error{Kind: failure.AutoTopUpRequired, Message: "crawls require auto top-up to be enabled in billing settings"}
	}
	params, _ := json.Marshal(Parameters{URL: rawURL, StartURL: start})
	e := execution.Execution{
		ID:             "crawl-" + host + "-" + uuid.NewString(),
		Kind:           execution.Crawl,
		OrganizationID: organizationID,
		Vendor:         host,
		Steps:          execution.NewSteps(StepMethod, StepDiscover, StepAnalyze, StepListings),
		Parameters:     params,
		CreditsUsed:    s.credits,
		Webhook:        hook,
	}
	var active *execution.ActiveError
	switch err := s.starter.Start(ctx, e, nil); {
	case errors.As(err, &active):
		return Started{ExecutionID: active.Existing, Existing: true}, nil
	case errors.Is(err, access.ErrInsufficientCredits):
		return Started{}, &failure.Error{Kind: failure.InsufficientCredits, Message: fmt.Sprintf("a crawl costs %d credits", s.credits)}
	case err != nil:
		return Started{}, err
	}
	return Started{ExecutionID: e.ID, CreditsUsed: s.credits}, nil
}

// startURL keeps the client's scheme and port (a store on a test port), defaulting to https.
// A URL with a user name or password is refused: a crawl reads public pages and would
// not use them, and the parameters, which keep the client's URL, would store them.
func startURL(rawURL, host string) (string, error) {
	s := strings.TrimSpace(rawURL)
	withScheme := strings.Contains(s, "://")
	if !withScheme {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	if u.User != nil {
		return "", errors.New("must not hold a user name or password")
	}
	if !withScheme {
		return "https://" + host + "/", nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("scheme must be http or https, got %q", u.Scheme)
	}
	return u.Scheme + "://" + u.Host + "/", nil
}

// Detail is a crawl as its status reads show it: the execution, with what the crawl has
// found so far while it runs and in all once it has completed.
type Detail struct {
	Execution execution.Execution
	// Progress is set while the crawl runs: zero counts until its first report.
	Progress *Progress
	// Result is set once the crawl has completed (and its result could be read).
	Result *Result
	// Requests are the HTTP requests the crawl has made so far, or made in all once it has
	// ended; nil before it started.
	Requests *fetch.Requests
}

// Get returns a crawl of the organization; another organization's crawl is not found.
func (s *Service) Get(ctx context.Context, organizationID, id string) (Detail, error) {
	e, err := execution.Owned(ctx, s.executions, organizationID, id, execution.Crawl, "crawl")
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Execution: e, Progress: execution.ProgressOf[Progress](e)}
	d.Result, _ = execution.ResultOf[Result](e) // one that cannot be read is shown as none
	if d.Requests = fetch.SavedRequests(e.Progress); d.Result != nil && d.Result.Requests != nil {
		d.Requests = d.Result.Requests
	}
	return d, nil
}

// List returns an organization's crawls, newest first.
func (s *Service) List(ctx context.Context, organizationID string, statuses []execution.Status, limit int) ([]execution.Execution, error) {
	return s.executions.List(ctx, execution.Filter{OrganizationID: organizationID, Kinds: []execution.Kind{execution.Crawl}, Statuses: statuses, Limit: limit})
}

// Cancel stops a pending or running crawl; its runner notices within a second.
func (s *Service) Cancel(ctx context.Context, organizationID, id string) (execution.Execution, error) {
	return execution.CancelOwned(ctx, s.executions, organizationID, id, execution.Crawl, "crawl")
}
