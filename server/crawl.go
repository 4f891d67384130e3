package server

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/crawl"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/fetch"
)

func (s *Server) crawlStart(v2 bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		b, err := parseBody(c)
		if err != nil {
			return err
		}
		u, err := b.String("url")
		if err != nil {
			return err
		}
		hook, err := s.startWebhook(b, execution.Crawl)
		if err != nil {
			return err
		}
		started, err := s.crawl.Start(c.UserContext(), principal(c).OrganizationID, u, hook)
		if err != nil {
			return err
		}
		chargeCredits(c, started.CreditsUsed)
		if v2 {
			return startedV2(c, started.ExecutionID, started.CreditsUsed, hook, nil)
		}
		return startedV1(c, started.ExecutionID, hook)
	}
}

func (s *Server) crawlList(bounds pageBounds, render func([]execution.Execution) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		statuses, limit, err := listFilter(c, bounds)
		if err != nil {
			return err
		}
		list, err := s.crawl.List(c.UserContext(), principal(c).OrganizationID, statuses, limit)
		if err != nil {
			return err
		}
		return c.JSON(render(list))
	}
}

func (s *Server) crawlStatus(render func(crawl.Detail) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		e, err := s.crawl.Get(c.UserContext(), principal(c).OrganizationID, c.Params("execution_id"))
		if err != nil {
			return err
		}
		return c.JSON(render(e))
	}
}

func (s *Server) crawlCancel(c *fiber.Ctx) error {
	e, err := s.crawl.Cancel(c.UserContext(), principal(c).OrganizationID, c.Params("execution_id"))
	if err != nil {
		return err
	}
	return c.JSON(canceledJSON(e))
}

// crawlV1 is exactly {status, total_listings_found}; the total is null until completion.
func crawlV1(d crawl.Detail) any {
	var total *int
	if d.Result != nil {
		total = &d.Result.ListingsTotal
	}
	return struct {
		Status             string `json:"status"`
		TotalListingsFound *int   `json:"total_listings_found"`
	}{d.Execution.Status.ListStatus(), total}
}

type crawlProgressJSON struct {
	CollectionsFound int `json:"collections_found"`
	ListingsFound    int `json:"listings_found"`
	fetchProgressJSON
}

// fetchProgressJSON is what a running execution's fetches are doing: how many URLs wait for
// their turn at the host, and the host's current pace.
type fetchProgressJSON struct {
	URLsWaitingForHost int   `json:"urls_waiting_for_host"`
	HostDelayMS        int64 `json:"host_delay_ms"`
}

func fetchProgress(m *fetch.Meter) fetchProgressJSON {
	return fetchProgressJSON{URLsWaitingForHost: m.Waiting(), HostDelayMS: m.Pace().Milliseconds()}
}

type crawlResultJSON struct {
	CollectionsTotal int           `json:"collections_total"`
	ListingsTotal    int           `json:"listings_total"`
	Method           *crawl.Method `json:"method,omitempty"`
}

type crawlMetaJSON struct {
	Vendor     *string            `json:"vendor"`
	StartDate  *string            `json:"start_date"`
	StopDate   *string            `json:"stop_date"`
	DurationMS *int64             `json:"duration_ms"`
	Progress   *crawlProgressJSON `json:"progress"`
	Steps      []execution.Step   `json:"steps"`
	Result     *crawlResultJSON   `json:"result,omitempty"`
	Requests   *fetch.Requests    `json:"requests"`
}

// crawlV2 is the crawl execution detail, with the state rules of the interface: progress
// only while running, stop_date only once ended, result only when completed.
func crawlV2(d crawl.Detail) any {
	e := d.Execution
	meta := crawlMetaJSON{
		Vendor:     nilIfEmpty(e.Vendor),
		StartDate:  timeOrNil(e.StartedAt),
		DurationMS: durationMillis(e.Duration(time.Now())),
		Steps:      e.Steps,
		Requests:   d.Requests,
	}
	if e.Status.Ended() {
		meta.StopDate = timeOrNil(e.StoppedAt)
	}
	if p := d.Progress; p != nil {
		meta.Progress = &crawlProgressJSON{p.CollectionsFound, p.ListingsFound, fetchProgress(p.Fetch)}
	}
	if r := d.Result; r != nil {
		meta.Result = &crawlResultJSON{r.CollectionsTotal, r.ListingsTotal, r.Method}
	}
	return struct {
		ExecutionID string        `json:"execution_id"`
		Status      string        `json:"status"`
		Error       *string       `json:"error"`
		Meta        crawlMetaJSON `json:"meta"`
	}{e.ID, string(e.Status), nilIfEmpty(e.Error), meta}
}
