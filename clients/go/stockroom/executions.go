package stockroom

import (
	"context"
	"fmt"
	"net/http"
)

// WithAPIKey sends key with every request, in the x-api-key header.
func WithAPIKey(key string) ClientOption {
	return WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set("x-api-key", key)
		return nil
	})
}

// Crawl starts a crawl of the store at url (a URL or a hostname) and waits for it to end.
// When a crawl of that hostname is running already, it waits for that one.
func (c *ClientWithResponses) Crawl(ctx context.Context, url string, w Waiting) (*CrawlExecution, error) {
	resp, err := c.StartCrawlV2WithResponse(ctx, StartCrawlV2JSONRequestBody{URL: url})
	if err != nil {
		return nil, fmt.Errorf("start crawl of %s: %w", url, err)
	}
	started, err := Answer(resp.JSON202, resp.HTTPResponse, resp.Body)
	if err != nil {
		return nil, fmt.Errorf("start crawl of %s: %w", url, err)
	}
	return c.WaitCrawl(ctx, started.ExecutionID, w)
}

// WaitCrawl waits for the crawl id to end and returns its last status.
func (c *ClientWithResponses) WaitCrawl(ctx context.Context, id string, w Waiting) (*CrawlExecution, error) {
	return waitFor(ctx, id, w, func(ctx context.Context) (*CrawlExecution, Progress, error) {
		resp, err := c.GetCrawlV2WithResponse(ctx, id)
		if err != nil {
			return nil, Progress{}, fmt.Errorf("read crawl %s: %w", id, err)
		}
		crawl, err := Answer(resp.JSON200, resp.HTTPResponse, resp.Body)
		if err != nil {
			return nil, Progress{}, fmt.Errorf("read crawl %s: %w", id, err)
		}
		progress := Progress{ExecutionID: id, Status: crawl.Status, Steps: crawl.Meta.Steps, Unit: "listings", Error: deref(crawl.Error)}
		switch {
		case crawl.Meta.Result != nil:
			progress.Done = crawl.Meta.Result.ListingsTotal
		case crawl.Meta.Progress != nil:
			progress.Done = crawl.Meta.Progress.ListingsFound
		}
		return crawl, progress, nil
	})
}

// Extract starts an extraction (of req.Urls, or of the listings of req.Vendor) and waits
// for it to end. The execution it returns holds the first page of products, up to 100;
// read the others with GetExtractV2WithResponse.
func (c *ClientWithResponses) Extract(ctx context.Context, req ExtractRequest, w Waiting) (*ExtractExecution, error) {
	resp, err := c.StartExtractV2WithResponse(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("start extraction: %w", err)
	}
	started, err := Answer(resp.JSON202, resp.HTTPResponse, resp.Body)
	if err != nil {
		return nil, fmt.Errorf("start extraction: %w", err)
	}
	return c.WaitExtract(ctx, started.ExecutionID, w)
}

// WaitExtract waits for the extraction id to end and returns its last status, with the
// first page of products (up to 100).
func (c *ClientWithResponses) WaitExtract(ctx context.Context, id string, w Waiting) (*ExtractExecution, error) {
	pageSize := 100
	return waitFor(ctx, id, w, func(ctx context.Context) (*ExtractExecution, Progress, error) {
		resp, err := c.GetExtractV2WithResponse(ctx, id, &GetExtractV2Params{PageSize: &pageSize})
		if err != nil {
			return nil, Progress{}, fmt.Errorf("read extraction %s: %w", id, err)
		}
		extract, err := Answer(resp.JSON200, resp.HTTPResponse, resp.Body)
		if err != nil {
			return nil, Progress{}, fmt.Errorf("read extraction %s: %w", id, err)
		}
		return extract, Progress{
			ExecutionID: id,
			Status:      extract.Status,
			Done:        extract.Meta.Progress.ProductsProcessed,
			Total:       extract.Meta.Progress.ProductsTotal,
			Unit:        "products",
			Error:       deref(extract.Error),
		}, nil
	})
}

// SearchStart is the body of an agentic search's start: a search request, and a webhook to
// be told of its end.
type SearchStart = StartAgenticSearchV2JSONRequestBody

// Search starts an agentic search and waits for it to end. The execution it returns holds
// the first page of results, up to 100.
func (c *ClientWithResponses) Search(ctx context.Context, req SearchStart, w Waiting) (*SearchExecution, error) {
	resp, err := c.StartAgenticSearchV2WithResponse(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("start search: %w", err)
	}
	started, err := Answer(resp.JSON202, resp.HTTPResponse, resp.Body)
	if err != nil {
		return nil, fmt.Errorf("start search: %w", err)
	}
	return c.WaitSearch(ctx, started.ExecutionID, w)
}

// WaitSearch waits for the agentic search id to end and returns its last status, with
// the first page of results (up to 100).
func (c *ClientWithResponses) WaitSearch(ctx context.Context, id string, w Waiting) (*SearchExecution, error) {
	pageSize := 100
	return waitFor(ctx, id, w, func(ctx context.Context) (*SearchExecution, Progress, error) {
		resp, err := c.GetAgenticSearchV2WithResponse(ctx, id, &GetAgenticSearchV2Params{PageSize: &pageSize})
		if err != nil {
			return nil, Progress{}, fmt.Errorf("read search %s: %w", id, err)
		}
		search, err := Answer(resp.JSON200, resp.HTTPResponse, resp.Body)
		if err != nil {
			return nil, Progress{}, fmt.Errorf("read search %s: %w", id, err)
		}
		progress := Progress{ExecutionID: id, Status: search.Status, Steps: search.Meta.Steps, Unit: "products", Error: deref(search.Error)}
		switch {
		case search.Meta.Result != nil:
			progress.Done = search.Meta.Result.ProductsTotal
		case search.Meta.Progress != nil:
			progress.Done = search.Meta.Progress.ProductsRanked
			progress.Total = search.Meta.Progress.CandidatesFound
		}
		return search, progress, nil
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
