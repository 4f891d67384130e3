package amazon

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit/kittest"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does. The pages there are small ones of Amazon's layouts the
// development corpora do not hold (today's price-to-pay block, the apex block, the core
// price of books, a deal over a struck price, a sold-out page offering used copies, a
// search page), each on another marketplace.
func TestSavedPages(t *testing.T) {
	kittest.SavedPages(t, "guest", "amazon", "testdata", false)
}

// TestDetectReadsTheMarkupNotTheHost checks that detection claims a page by Amazon's page
// framework wherever it is served from, and leaves another platform's page alone even on
// an Amazon-like host.
func TestDetectReadsTheMarkupNotTheHost(t *testing.T) {
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}}
	for _, tc := range []struct {
		name, url, file string
		want            bool
	}{
		{"an Amazon page on a mirror's host", "https://mirror.example/dp/B0TESTLNT1", "testdata/price-to-pay.html", true},
		{"a WooCommerce page on a host that says amazon", "https://amazon-deals.example/product/lamp/", "../woocommerce/testdata/sale.html", false},
	} {
		body, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		doc := &adapter.Document{URL: tc.url, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: body}
		got, err := set.Detect(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		if claimed := len(got) > 0 && got[0].Platform == Platform; claimed != tc.want {
			t.Errorf("%s: detections %+v, want amazon claimed %v", tc.name, got, tc.want)
		}
	}
}
