package ebay_test

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/ebay"
	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

// authored are the development pages the adapter's rules were written from (by the start
// of their ids); the other eBay pages of the development corpora are held out.
var authored = []string{"359ca699", "21e72a8e"}

// TestHeldOutEBayPages extracts every eBay page of the development corpora with the
// adapter alone and reports each labelled field page by page, the pages it was written
// from apart from the others; every field must be right.
func TestHeldOutEBayPages(t *testing.T) {
	quality.CheckSite(t, "ebay", authored, quality.SetExtractor(
		&adapter.Set{Source: sdktest.Modules{sdk.Native(ebay.Adapter{})}, Fetcher: sdktest.Pages{}}))
}
