package server

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/page"
)

// flagsOf reads the enable_* flags; absent ones take flagDefault (true in v1, false in v2).
func flagsOf(b body, flagDefault bool) (extract.Flags, error) {
	var fl extract.Flags
	flags := []struct {
		name string
		dst  *bool
	}{
		{"enable_enrichment", &fl.Enrichment}, {"enable_reviews", &fl.Reviews},
		{"enable_image_tags", &fl.ImageTags}, {"enable_similar_products", &fl.SimilarProducts},
	}
	for _, f := range flags {
		v, err := b.Bool(f.name)
		if err != nil {
			return fl, err
		}
		*f.dst = flagDefault
		if v != nil {
			*f.dst = *v
		}
	}
	return fl, nil
}

// extractParams reads the fields every extraction start shares. v1 flags default to true,
// v2 flags to false.
func extractParams(b body, flagDefault bool) (extract.Parameters, error) {
	var p extract.Parameters
	var err error
	if p.Flags, err = flagsOf(b, flagDefault); err != nil {
		return p, err
	}
	p.CountryCode, err = b.String("country_code")
	return p, err
}

// urlsOf reads the urls array; each entry must be a string.
func urlsOf(b body) ([]string, bool, error) {
	if _, ok := b.present("urls"); !ok {
		return nil, false, nil
	}
	urls, err := b.Strings("urls")
	return urls, true, err
}

// requiredURLs reads the urls array of a request that cannot do without it.
func requiredURLs(b body) ([]string, error) {
	urls, ok, err := urlsOf(b)
	if err == nil && !ok {
		err = failure.Missing("urls")
	}
	return urls, err
}

func (s *Server) productsStartV1(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	urls, err := requiredURLs(b)
	if err != nil {
		return err
	}
	p, err := extractParams(b, true)
	if err != nil {
		return err
	}
	// enable_similar_products came with v2 (service-interface.md, migration notes): a v1
	// batch has similar products only when it asks for them.
	if v, _ := b.Bool("enable_similar_products"); v == nil {
		p.SimilarProducts = false
	}
	if p.Webhook, err = s.startWebhook(b, execution.ProductsBatch); err != nil {
		return err
	}
	started, err := s.extract.StartURLs(c.UserContext(), principal(c).OrganizationID, execution.ProductsBatch, urls, p)
	if err != nil {
		return err
	}
	chargeCredits(c, started.CreditsUsed)
	return startedV1(c, started.ExecutionID, p.Webhook)
}

func (s *Server) extractStartV2(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	urls, hasURLs, err := urlsOf(b)
	if err != nil {
		return err
	}
	vendor, err := b.String("vendor")
	if err != nil {
		return err
	}
	if hasURLs == (vendor != "") {
		return failure.BadRequest("give exactly one input source: urls or vendor")
	}
	p, err := extractParams(b, false)
	if err != nil {
		return err
	}
	if p.Webhook, err = s.startWebhook(b, execution.Extract); err != nil {
		return err
	}
	org := principal(c).OrganizationID
	if hasURLs {
		started, err := s.extract.StartURLs(c.UserContext(), org, execution.Extract, urls, p)
		if err != nil {
			return err
		}
		chargeCredits(c, started.CreditsUsed)
		return startedV2(c, started.ExecutionID, started.CreditsUsed, p.Webhook, map[string]any{"url_count": started.URLCount})
	}
	if p.MaxProducts, err = b.Int("max_products"); err != nil {
		return err
	}
	if p.CrawlID, err = b.String("crawl_id"); err != nil {
		return err
	}
	started, err := s.extract.StartVendor(c.UserContext(), org, vendor, p)
	if err != nil {
		return err
	}
	chargeCredits(c, started.CreditsUsed)
	return startedV2(c, started.ExecutionID, started.CreditsUsed, p.Webhook, map[string]any{
		"listings_count": started.ListingsCount, "products_to_process": started.ProductsToProcess,
	})
}

func (s *Server) extractList(kind execution.Kind, bounds pageBounds, render func([]execution.Execution) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		statuses, limit, err := listFilter(c, bounds)
		if err != nil {
			return err
		}
		list, err := s.extract.List(c.UserContext(), principal(c).OrganizationID, kind, statuses, limit)
		if err != nil {
			return err
		}
		return c.JSON(render(list))
	}
}

func (s *Server) extractCancel(kind execution.Kind) fiber.Handler {
	return func(c *fiber.Ctx) error {
		e, err := s.extract.Cancel(c.UserContext(), principal(c).OrganizationID, c.Params("execution_id"), kind)
		if err != nil {
			return err
		}
		return c.JSON(canceledJSON(e))
	}
}

// extractionView is what both generations' status endpoints read.
type extractionView struct {
	e        execution.Execution
	params   extract.Parameters
	progress *extract.Progress
	requests *fetch.Requests
	meta     extract.Meta
	items    []extract.Item
	page     page.Request
}

func (s *Server) loadExtraction(c *fiber.Ctx, kind execution.Kind, bounds pageBounds) (extractionView, error) {
	var v extractionView
	req, err := pageOf(query{c}, bounds)
	if err != nil {
		return v, err
	}
	d, err := s.extract.Get(c.UserContext(), principal(c).OrganizationID, c.Params("execution_id"), kind)
	if err != nil {
		return v, err
	}
	e := d.Execution
	v.e, v.params, v.page, v.progress, v.requests = e, d.Parameters, req, d.Progress, d.Requests
	if v.meta, err = s.extract.Meta(c.UserContext(), e.ID); err != nil {
		return v, err
	}
	if e.Status == execution.Completed {
		if v.items, err = s.extract.Items(c.UserContext(), e.ID, req, v.params.Flags); err != nil {
			return v, err
		}
	}
	return v, nil
}

type resultItemJSON struct {
	URL      string       `json:"url"`
	Success  bool         `json:"success"`
	Product  *productJSON `json:"product"`
	Outcome  string       `json:"outcome"`
	Retry    bool         `json:"retry"`
	Message  string       `json:"message"`
	FinalURL string       `json:"final_url,omitempty"`
}

func resultItem(it extract.Item, gen generation, flags extract.Flags) resultItemJSON {
	return resultItemJSON{
		URL: it.URL, Success: it.Outcome == adapter.Success, Product: renderProduct(it.Product, gen, flags),
		Outcome: string(it.Outcome), Retry: it.Retry, Message: it.Message, FinalURL: it.FinalURL,
	}
}

func byReason(m map[adapter.Outcome]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v > 0 {
			out[string(k)] = v
		}
	}
	return out
}

func (s *Server) productsStatusV1(c *fiber.Ctx) error {
	v, err := s.loadExtraction(c, execution.ProductsBatch, resultsV1)
	if err != nil {
		return err
	}
	body := fiber.Map{
		"status": string(v.e.Status),
		"progress": fiber.Map{
			"products_processed": v.meta.Successful, "urls_completed": v.meta.Processed(),
			"total_urls": v.meta.Requested, "percent_complete": v.meta.PercentComplete(),
		},
		"error": nilIfEmpty(v.e.Error),
	}
	if v.e.Status == execution.Completed {
		products := make([]resultItemJSON, 0, len(v.items))
		for _, it := range v.items {
			products = append(products, resultItem(it, genV1, v.params.Flags))
		}
		body["results"] = fiber.Map{"products": products, "meta": fiber.Map{
			"total_requested": v.meta.Requested, "total_successful": v.meta.Successful,
			"total_failed": v.meta.Failed, "total_failed_by_reason": byReason(v.meta.FailedBy),
			"total_invalid": v.meta.Invalid, "total_invalid_by_reason": byReason(v.meta.InvalidBy),
			"total_pending": v.meta.Pending,
		}}
		r := page.Result[extract.Item]{Request: v.page, TotalItems: v.meta.Requested}
		body["pagination"] = fiber.Map{"page": r.Number, "limit": r.Size, "total_items": r.TotalItems,
			"total_pages": r.TotalPages(), "has_next": r.HasNext()}
	}
	return c.JSON(body)
}

func (s *Server) extractStatusV2(c *fiber.Ctx) error {
	v, err := s.loadExtraction(c, execution.Extract, resultsV2)
	if err != nil {
		return err
	}
	data := make([]resultItemJSON, 0, len(v.items))
	for _, it := range v.items {
		data = append(data, resultItem(it, genV2, v.params.Flags))
	}
	total := 0
	if v.e.Status == execution.Completed {
		total = v.meta.Requested
	}
	progress := fiber.Map{"products_processed": v.meta.Processed(), "products_total": v.meta.Requested,
		"percent_complete": v.meta.PercentComplete()}
	if v.progress != nil {
		f := fetchProgress(v.progress.Fetch)
		progress["urls_waiting_for_host"], progress["host_delay_ms"] = f.URLsWaitingForHost, f.HostDelayMS
	}
	meta := fiber.Map{
		"progress": progress,
		"result": fiber.Map{
			"products_requested": v.meta.Requested, "products_successful": v.meta.Successful,
			"products_failed": v.meta.Failed, "products_failed_by_reason": byReason(v.meta.FailedBy),
			"products_invalid": v.meta.Invalid, "products_invalid_by_reason": byReason(v.meta.InvalidBy),
			"products_pending": v.meta.Pending,
		},
		"start_date":  timeOrNil(v.e.StartedAt),
		"stop_date":   nil,
		"duration_ms": durationMillis(v.e.Duration(time.Now())),
		"requests":    v.requests,
	}
	if v.e.Status.Ended() {
		meta["stop_date"] = timeOrNil(v.e.StoppedAt)
	}
	if v.params.CrawlID != "" && v.e.Status == execution.Pending {
		meta["waiting_for"] = v.params.CrawlID
	}
	if v.params.Vendor != "" {
		meta["vendor"] = v.params.Vendor
	}
	return c.JSON(fiber.Map{
		"execution_id": v.e.ID, "status": string(v.e.Status), "error": nilIfEmpty(v.e.Error),
		"data": data, "pagination": v2Pagination(page.Result[extract.Item]{Request: v.page, TotalItems: total}),
		"meta": meta,
	})
}

// Legacy, synchronous.

func (s *Server) legacyProduct(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	u, err := b.String("url")
	if err != nil {
		return err
	}
	if u == "" {
		return failure.Missing("url")
	}
	items, credits, err := s.extract.Extract(c.UserContext(), principal(c).OrganizationID, []string{u})
	chargeCredits(c, credits)
	if err != nil {
		return err
	}
	it := items[0]
	return c.JSON(fiber.Map{
		"product": renderProduct(it.Product, genV1, extract.Flags{}),
		"meta":    fiber.Map{"found": it.Outcome == adapter.Success, "url": u, "outcome": string(it.Outcome), "message": it.Message},
	})
}

func (s *Server) legacyProducts(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	urls, err := requiredURLs(b)
	if err != nil {
		return err
	}
	items, credits, err := s.extract.Extract(c.UserContext(), principal(c).OrganizationID, urls)
	chargeCredits(c, credits)
	if err != nil {
		return err
	}
	products := make([]fiber.Map, 0, len(items))
	ok2 := 0
	for _, it := range items {
		success := it.Outcome == adapter.Success
		if success {
			ok2++
		}
		products = append(products, fiber.Map{"url": it.URL, "success": success, "product": renderProduct(it.Product, genV1, extract.Flags{}),
			"outcome": string(it.Outcome), "message": it.Message})
	}
	return c.JSON(fiber.Map{"products": products, "meta": fiber.Map{
		"total_requested": len(items), "total_successful": ok2, "total_failed": len(items) - ok2,
	}})
}
