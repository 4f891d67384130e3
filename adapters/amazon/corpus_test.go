package amazon_test

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/amazon"
	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

// authored are the development pages the adapter's rules were written from (by the start
// of their ids). Every other Amazon page of the development corpora is held out: the
// adapter was not looked at on them until it was written, and they are reported apart.
var authored = []string{"2eca89a9", "01efbb74", "0094967f"}

// TestHeldOutAmazonPages extracts every Amazon page of the development corpora with the
// adapter alone and reports each labelled field page by page, the pages it was written
// from apart from the others; every field must be right.
func TestHeldOutAmazonPages(t *testing.T) {
	quality.CheckSite(t, "amazon", authored, quality.SetExtractor(
		&adapter.Set{Source: sdktest.Modules{sdk.Native(amazon.Adapter{})}, Fetcher: sdktest.Pages{}}))
}
