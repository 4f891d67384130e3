package html

import (
	"context"
	"net/http"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit/kittest"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

const site = "https://corner.example"

func htmlDoc(u, body string) *adapter.Document {
	return &adapter.Document{URL: u, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(body)}
}

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does.
func TestSavedPages(t *testing.T) {
	kittest.SavedPages(t, "guest", "html", "testdata", false)
}

// A product's price names its currency where its page says, in its markup or in how the
// price is written.
func TestExtractNamesThePricesCurrency(t *testing.T) {
	for _, tc := range []struct{ lang, price, want string }{
		{"en", "$24.50", "USD"},
		{"en-AU", "$24.50", "AUD"},
		{"de", "24,50 €", "EUR"},
		{"fr-CH", "24.50", "CHF"},
	} {
		u := site + "/products/boot"
		page := htmlDoc(u, `<html lang="`+tc.lang+`"><body><h1>Boot</h1><div class="price">`+tc.price+`</div><button>Add to cart</button></body></html>`)
		set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{}}
		res, err := set.Extract(context.Background(), u, page)
		if err != nil || res.Product == nil || res.Product.Price == nil || res.Product.Price.Current != 24.5 || res.Product.Price.Currency != tc.want {
			t.Errorf("%s %q: %+v %v, want 24.5 %s", tc.lang, tc.price, res.Product, err, tc.want)
		}
	}
}
