package render

import (
	"context"
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/core/adapter"
)

// Always returns a fetcher that renders every successful HTML page of the vendors named
// (host names, as vendors are named) and fetches everything else through next as it is:
// for stores whose pages hold some markup but draw their products by script, which the
// shell check would not catch. A page that fails to render is returned as fetched.
func (r *Renderer) Always(next adapter.Fetcher, vendors []string) adapter.Fetcher {
	if len(vendors) == 0 {
		return next
	}
	always := map[string]bool{}
	for _, v := range vendors {
		always[strings.ToLower(v)] = true
	}
	return adapter.FetcherFunc(func(ctx context.Context, rawURL string) (*adapter.Document, error) {
		doc, err := next.Fetch(ctx, rawURL)
		if err != nil || doc.Status != 200 || doc.Rendered || !adapter.IsHTML(doc) {
			return doc, err
		}
		u, perr := url.Parse(doc.Landed())
		if perr != nil || !always[strings.ToLower(u.Hostname())] {
			return doc, nil
		}
		drawn, err := r.Render(ctx, doc)
		if err != nil {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			return doc, nil // Render logged why
		}
		return drawn, nil
	})
}
