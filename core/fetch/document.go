package fetch

import (
	"context"
	"errors"
	"net/http"

	"github.com/stockroom/stockroom/core/adapter"
)

// FetchDocument fetches url for the adapters: it is an adapter.Fetcher once wrapped in
// adapter.FetcherFunc. A failed fetch is answered with a Document that says why (Status 0),
// as adapters expect; only the caller's cancellation is an error. A bot wall is reported
// as a 403 whatever status it came with, so that it reads as automated access not
// permitted.
func (f *Fetcher) FetchDocument(ctx context.Context, url string) (*adapter.Document, error) {
	resp, err := f.Fetch(ctx, &Request{URL: url})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var wall *BotWallError
		if errors.As(err, &wall) {
			return &adapter.Document{URL: url, Status: http.StatusForbidden, Header: http.Header{}, Err: err.Error(), Blocked: true}, nil
		}
		// Disallowed by the site's rules, not because its robots.txt could not be read:
		// that may pass, and is a failure meanwhile.
		var robots *RobotsError
		disallowed := errors.As(err, &robots) && !robots.Unavailable
		return &adapter.Document{URL: url, Err: err.Error(), Header: http.Header{}, Disallowed: disallowed}, nil
	}
	doc := &adapter.Document{URL: url, Status: resp.Status, Header: resp.Header, Body: resp.Body}
	if resp.FinalURL != "" && resp.FinalURL != url {
		doc.FinalURL = resp.FinalURL
	}
	return doc, nil
}
