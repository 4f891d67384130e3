//go:build !wasip1

package rank

import (
	"context"
	"net/http"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/core/adapter"
)

// GatherPage reads the candidates of a saved page natively, with the code the guest runs:
// how the train command and `stockroom adapter run --explain` read pages. It returns an
// empty Page when the page holds none.
func GatherPage(ctx context.Context, pageURL string, body []byte) (*Page, error) {
	var got *Page
	mod := sdk.Native(gatherer{&got})
	doc := &adapter.Document{URL: pageURL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: body}
	if _, err := mod.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: pageURL, Docs: []*adapter.Document{doc}}); err != nil {
		return nil, err
	}
	if got == nil {
		got = &Page{}
	}
	return got, nil
}

// gatherer is an adapter that only gathers candidates.
type gatherer struct{ page **Page }

func (gatherer) Info() sdk.Info { return sdk.Info{Name: "rank-gather", Version: "0.0.0"} }

func (g gatherer) Extract(c *sdk.Call) (*sdk.Product, error) {
	*g.page = Gather(c)
	return nil, sdk.NonProduct("candidates gathered")
}
