package server

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/search"
)

// Agentic search: the asynchronous v2 execution, the synchronous v1 search, the three minis
// and legacy /api/search. Every face reads its request into a search.Request (or legacy
// filters) and renders the core's hits in its generation's shape.

// maxSearchLimit is the largest `limit` a full search (v1, v2) accepts.
const maxSearchLimit = 100

// searchRequest reads what every search face shares: `query` (required), `customer_profile`
// (any JSON object) and the enable_* flags.
func searchRequest(b body, flagDefault bool) (search.Request, error) {
	var req search.Request
	q, err := b.String("query")
	if err != nil {
		return req, err
	}
	if strings.TrimSpace(q) == "" {
		return req, failure.Missing("query")
	}
	req.Query = q
	raw, ok, err := b.field("customer_profile")
	if err != nil {
		return req, err
	}
	if ok {
		if err := json.Unmarshal(raw, &req.Profile); err != nil {
			return req, failure.WrongType("customer_profile", "a JSON object")
		}
	}
	req.Flags, err = flagsOf(b, flagDefault)
	return req, err
}

// fullSearchRequest is searchRequest plus the optional `limit` (1 to 100) of v1 and v2.
func fullSearchRequest(b body, flagDefault bool) (search.Request, error) {
	req, err := searchRequest(b, flagDefault)
	if err != nil {
		return req, err
	}
	limit, err := b.Int("limit")
	if err != nil || limit == nil {
		return req, err
	}
	if *limit < 1 || *limit > maxSearchLimit {
		return req, failure.OutOfRange("limit", "must be between 1 and %d, got %d", maxSearchLimit, *limit)
	}
	req.Limit = *limit
	return req, nil
}

// miniRequest is searchRequest plus the mini's size parameter (`limit` in v1 and legacy,
// `page_size` in v2): default and cap search.MaxMiniResults; below 1 is refused.
func miniRequest(b body, sizeParam string) (search.Request, error) {
	req, err := searchRequest(b, false)
	if err != nil {
		return req, err
	}
	req.Limit = search.MaxMiniResults
	n, err := b.Int(sizeParam)
	if err != nil || n == nil {
		return req, err
	}
	if *n < 1 {
		return req, failure.OutOfRange(sizeParam, "must be at least 1, got %d", *n)
	}
	req.Limit = min(*n, search.MaxMiniResults)
	return req, nil
}

// legacyFilters reads the `filters` object of /api/search; a field of the wrong type is
// refused with its path (filters.min_price).
func legacyFilters(b body) (search.Filters, error) {
	var f search.Filters
	fb, err := b.Object("filters")
	if err != nil || fb == nil {
		return f, err
	}
	if f.MinPrice, err = fb.Float("min_price"); err != nil {
		return f, within("filters", err)
	}
	if f.MaxPrice, err = fb.Float("max_price"); err != nil {
		return f, within("filters", err)
	}
	for _, s := range []struct {
		name string
		dst  *string
	}{{"vendor", &f.Vendor}, {"brand", &f.Brand}, {"product_type", &f.ProductType}} {
		if *s.dst, err = fb.String(s.name); err != nil {
			return f, within("filters", err)
		}
	}
	if f.IsAvailable, err = fb.Bool("is_available"); err != nil {
		return f, within("filters", err)
	}
	if f.Tags, err = fb.Strings("tags"); err != nil {
		return f, within("filters", err)
	}
	for _, p := range []struct {
		name  string
		value *float64
	}{{"min_price", f.MinPrice}, {"max_price", f.MaxPrice}} {
		if p.value != nil && *p.value < 0 {
			return f, failure.OutOfRange("filters."+p.name, "must not be negative, got %v", *p.value)
		}
	}
	return f, nil
}

// within names a nested parameter by its path.
func within(prefix string, err error) error {
	var fe *failure.Error
	if !errors.As(err, &fe) || fe.Param == "" {
		return err
	}
	out := *fe
	out.Param = prefix + "." + fe.Param
	out.Message = prefix + "." + fe.Message
	return &out
}

// Asynchronous, v2.

func (s *Server) searchStart(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	req, err := fullSearchRequest(b, false)
	if err != nil {
		return err
	}
	if req.Webhook, err = s.startWebhook(b, execution.AgenticSearch); err != nil {
		return err
	}
	started, err := s.search.Start(c.UserContext(), principal(c).OrganizationID, req)
	if err != nil {
		return err
	}
	chargeCredits(c, started.CreditsUsed)
	return startedV2(c, started.ExecutionID, started.CreditsUsed, req.Webhook, nil)
}

func (s *Server) searchList(c *fiber.Ctx) error {
	statuses, limit, err := listFilter(c, executionListV2)
	if err != nil {
		return err
	}
	list, err := s.search.List(c.UserContext(), principal(c).OrganizationID, statuses, limit)
	if err != nil {
		return err
	}
	return c.JSON(executionsV2(list))
}

func (s *Server) searchCancel(c *fiber.Ctx) error {
	e, err := s.search.Cancel(c.UserContext(), principal(c).OrganizationID, c.Params("execution_id"))
	if err != nil {
		return err
	}
	return c.JSON(canceledJSON(e))
}

// hitJSON is one result of a v2 search execution. Source says whether the product was
// extracted or built from a crawled listing (search.Source).
type hitJSON struct {
	URL     string        `json:"url"`
	Product *productJSON  `json:"product"`
	Source  search.Source `json:"source"`
	Score   float64       `json:"score"`
	Reasons []string      `json:"reasons"`
}

type searchProgressJSON struct {
	CandidatesFound int `json:"candidates_found"`
	ProductsRanked  int `json:"products_ranked"`
}

type searchResultJSON struct {
	ProductsTotal int      `json:"products_total"`
	Understood    any      `json:"understood"`
	Relaxed       []string `json:"relaxed"`
}

type searchMetaJSON struct {
	Query      string              `json:"query"`
	Progress   *searchProgressJSON `json:"progress"`
	Result     *searchResultJSON   `json:"result"`
	Steps      []execution.Step    `json:"steps"`
	StartDate  *string             `json:"start_date"`
	StopDate   *string             `json:"stop_date"`
	DurationMS *int64              `json:"duration_ms"`
}

// searchStatus is the v2 execution detail, with the crawl's state rules: progress only
// while running, result only once completed (null otherwise), stop_date only once ended;
// data and pagination hold the hits once completed.
func (s *Server) searchStatus(c *fiber.Ctx) error {
	pr, err := pageOf(query{c}, searchResultsV2)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	d, err := s.search.Get(ctx, principal(c).OrganizationID, c.Params("execution_id"))
	if err != nil {
		return err
	}
	e, req := d.Execution, d.Request
	meta := searchMetaJSON{
		Query:      req.Query,
		Steps:      nonNil(e.Steps),
		StartDate:  timeOrNil(e.StartedAt),
		DurationMS: durationMillis(e.Duration(time.Now())),
	}
	if e.Status.Ended() {
		meta.StopDate = timeOrNil(e.StoppedAt)
	}
	if p := d.Progress; p != nil {
		meta.Progress = &searchProgressJSON{p.CandidatesFound, p.ProductsRanked}
	}
	hits := page.Result[search.Hit]{Request: pr}
	if r := d.Result; r != nil {
		meta.Result = &searchResultJSON{r.ProductsTotal, r.Understood, nonNil(r.Relaxed)}
		if hits, err = s.search.Results(ctx, e.ID, pr); err != nil {
			return err
		}
		if err := s.attachSimilar(c, req.Flags, hits.Items); err != nil {
			return err
		}
	}
	return c.JSON(struct {
		ExecutionID string         `json:"execution_id"`
		Status      string         `json:"status"`
		Error       *string        `json:"error"`
		Data        []hitJSON      `json:"data"`
		Pagination  paginationV2   `json:"pagination"`
		Meta        searchMetaJSON `json:"meta"`
	}{
		e.ID, string(e.Status), nilIfEmpty(e.Error),
		mapItems(hits.Items, func(h search.Hit) hitJSON {
			return hitJSON{urlOf(h), renderProduct(h.Product, genV2, req.Flags), h.Source, h.Score, nonNil(h.Reasons)}
		}),
		v2Pagination(hits), meta,
	})
}

// sourcesOf lists where each hit's product comes from, in order.
func sourcesOf(hits []search.Hit) []search.Source {
	return mapItems(hits, func(h search.Hit) search.Source { return h.Source })
}

func urlOf(h search.Hit) string {
	if h.Product == nil || h.Product.Product == nil {
		return ""
	}
	return h.Product.Product.URL
}

// Synchronous: v1 search, the minis and legacy search.

// productsJSON is the v1 and legacy answer of a synchronous search:
// {products, meta: {totalItems, urls, sources}}; urls and sources follow the products.
type productsJSON struct {
	Products []*productJSON   `json:"products"`
	Meta     productsMetaJSON `json:"meta"`
}

type productsMetaJSON struct {
	TotalItems  int             `json:"totalItems"`
	URLs        []string        `json:"urls"`
	Sources     []search.Source `json:"sources"`
	Relaxed     []string        `json:"relaxed"`
	CreditsUsed int64           `json:"credits_used"`
}

func productsAnswer(a search.Answer, flags extract.Flags, credits int64) productsJSON {
	out := productsJSON{Products: make([]*productJSON, 0, len(a.Hits)), Meta: productsMetaJSON{
		TotalItems: len(a.Hits), URLs: make([]string, 0, len(a.Hits)), Sources: sourcesOf(a.Hits), Relaxed: nonNil(a.Relaxed), CreditsUsed: credits,
	}}
	for _, h := range a.Hits {
		out.Products = append(out.Products, renderProduct(h.Product, genV1, flags))
		out.Meta.URLs = append(out.Meta.URLs, urlOf(h))
	}
	return out
}

// searchNow is POST /v1/agentic-search: the full search while the caller waits. v1 flags
// default to true, as in v1 extraction.
func (s *Server) searchNow(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	req, err := fullSearchRequest(b, true)
	if err != nil {
		return err
	}
	a, credits, err := s.search.Search(c.UserContext(), principal(c).OrganizationID, req)
	chargeCredits(c, credits)
	if err == nil {
		err = s.attachSimilar(c, req.Flags, a.Hits)
	}
	if err != nil {
		return err
	}
	return c.JSON(productsAnswer(a, req.Flags, credits))
}

// miniV1 serves POST /v1/agentic-search-mini and the legacy /api/agentic-search-mini.
func (s *Server) miniV1(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	req, err := miniRequest(b, "limit")
	if err != nil {
		return err
	}
	a, credits, err := s.mini(c, req)
	if err != nil {
		return err
	}
	return c.JSON(productsAnswer(a, req.Flags, credits))
}

type miniItemJSON struct {
	URL     string        `json:"url"`
	Product *productJSON  `json:"product"`
	Source  search.Source `json:"source"`
}

type miniMetaJSON struct {
	Query       string   `json:"query"`
	Relaxed     []string `json:"relaxed"`
	CreditsUsed int64    `json:"credits_used"`
	RequestID   string   `json:"request_id"`
}

// miniV2 is POST /v2/agentic-search-mini: {data: [{url, product}], pagination, meta}, one
// page of page_size (default and cap 10).
func (s *Server) miniV2(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	req, err := miniRequest(b, "page_size")
	if err != nil {
		return err
	}
	a, credits, err := s.mini(c, req)
	if err != nil {
		return err
	}
	r := page.Result[search.Hit]{Items: a.Hits, Request: page.Request{Number: 1, Size: req.Limit}, TotalItems: len(a.Hits)}
	return c.JSON(v2List(r, func(h search.Hit) miniItemJSON {
		return miniItemJSON{urlOf(h), renderProduct(h.Product, genV2, req.Flags), h.Source}
	}, miniMetaJSON{Query: req.Query, Relaxed: nonNil(a.Relaxed), CreditsUsed: credits, RequestID: requestID(c)}))
}

// mini runs a mini search and notes its credits; it never returns more than the cap, even
// if the core were to.
func (s *Server) mini(c *fiber.Ctx, req search.Request) (search.Answer, int64, error) {
	a, credits, err := s.search.Mini(c.UserContext(), principal(c).OrganizationID, req)
	chargeCredits(c, credits)
	if len(a.Hits) > req.Limit {
		a.Hits = a.Hits[:req.Limit]
	}
	if err == nil {
		err = s.attachSimilar(c, req.Flags, a.Hits)
	}
	return a, credits, err
}

// attachSimilar looks up the similar products of hits when the request asked for them
// (extract.Service.AttachSimilar, the one lookup every product rendering uses).
func (s *Server) attachSimilar(c *fiber.Ctx, flags extract.Flags, hits []search.Hit) error {
	if !flags.SimilarProducts || s.extract == nil {
		return nil
	}
	products := make([]*extract.Stored, 0, len(hits))
	for _, h := range hits {
		if h.Product != nil {
			products = append(products, h.Product)
		}
	}
	return s.extract.AttachSimilar(c.UserContext(), products)
}

// legacySearch is POST /api/search {query, page, limit, filters}:
// {products, meta: {totalItems, totalPages, currentPage, pageSize}} with v1 products. The
// query may be empty when a filter is given: the filters alone then select.
func (s *Server) legacySearch(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	q, err := b.String("query")
	if err != nil {
		return err
	}
	flags, err := flagsOf(b, false)
	if err != nil {
		return err
	}
	f, err := legacyFilters(b)
	if err != nil {
		return err
	}
	pr, err := pageOf(b, legacySearchPage)
	if err != nil {
		return err
	}
	r, credits, err := s.search.Filter(c.UserContext(), principal(c).OrganizationID, q, f, pr)
	chargeCredits(c, credits)
	if err == nil {
		err = s.attachSimilar(c, flags, r.Items)
	}
	if err != nil {
		return err
	}
	type legacyMeta struct {
		TotalItems  int             `json:"totalItems"`
		TotalPages  int             `json:"totalPages"`
		CurrentPage int             `json:"currentPage"`
		PageSize    int             `json:"pageSize"`
		Sources     []search.Source `json:"sources"`
		CreditsUsed int64           `json:"credits_used"`
	}
	return c.JSON(struct {
		Products []*productJSON `json:"products"`
		Meta     legacyMeta     `json:"meta"`
	}{
		mapItems(r.Items, func(h search.Hit) *productJSON { return renderProduct(h.Product, genV1, flags) }),
		legacyMeta{r.TotalItems, r.TotalPages(), r.Number, r.Size, sourcesOf(r.Items), credits},
	})
}
