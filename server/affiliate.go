package server

import (
	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/affiliate"
	"github.com/stockroom/stockroom/core/page"
)

// affiliateLinks serves POST /v1/affiliate and /v2/affiliate: the same core call, each
// generation's shape. Without a network both answer 503 before reading the request.
func (s *Server) affiliateLinks(render func(*fiber.Ctx, affiliate.Batch) any) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := s.affiliate.Available(); err != nil {
			return err
		}
		b, err := parseBody(c)
		if err != nil {
			return err
		}
		urls, err := requiredURLs(b)
		if err != nil {
			return err
		}
		batch, err := s.affiliate.Links(urls)
		if err != nil {
			return err
		}
		return c.JSON(render(c, batch))
	}
}

// affiliateItem is one URL's answer; affiliate_link is null and error set when it has no link.
type affiliateItem struct {
	AffiliateLink *string `json:"affiliate_link"`
	OriginalURL   string  `json:"original_url"`
	Success       bool    `json:"success"`
	Error         string  `json:"error,omitempty"`
}

func affiliateItems(results []affiliate.Result) []affiliateItem {
	items := make([]affiliateItem, len(results))
	for i, r := range results {
		items[i] = affiliateItem{OriginalURL: r.OriginalURL, Success: r.Err == nil}
		if r.Err != nil {
			items[i].Error = r.Err.Error()
		} else {
			link := r.Link
			items[i].AffiliateLink = &link
		}
	}
	return items
}

// affiliateCounts are the totals both generations report, at the root (v1) or in meta (v2).
type affiliateCounts struct {
	TotalProcessed int `json:"total_processed"`
	Successful     int `json:"successful"`
	Failed         int `json:"failed"`
}

func countsOf(b affiliate.Batch) affiliateCounts {
	return affiliateCounts{TotalProcessed: len(b.Results), Successful: b.Successful, Failed: b.Failed}
}

func affiliateV1Shape(_ *fiber.Ctx, b affiliate.Batch) any {
	return struct {
		Results []affiliateItem `json:"results"`
		affiliateCounts
	}{affiliateItems(b.Results), countsOf(b)}
}

// affiliateV2Shape is the v2 envelope; every item is on its one page.
func affiliateV2Shape(c *fiber.Ctx, b affiliate.Batch) any {
	type meta struct {
		affiliateCounts
		RequestID string `json:"request_id"`
	}
	n := len(b.Results)
	onePage := page.Result[affiliate.Result]{Items: b.Results, Request: page.Request{Number: 1, Size: n}, TotalItems: n}
	return listV2[affiliateItem, meta]{
		Data:       affiliateItems(b.Results),
		Pagination: v2Pagination(onePage),
		Meta:       meta{countsOf(b), requestID(c)},
	}
}
