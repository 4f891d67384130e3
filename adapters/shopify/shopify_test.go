package shopify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// corpusDir holds real Shopify catalogs (see its README); tests skip without it.
const corpusDir = "/work/shared/corpus/shopify"

// corpusProduct is the part of a storefront product the expectations are computed from,
// decoded independently of the adapter.
type corpusProduct struct {
	ID       json.Number `json:"id"`
	Handle   string      `json:"handle"`
	Variants []struct {
		ID             json.Number `json:"id"`
		Price          string      `json:"price"`
		CompareAtPrice *string     `json:"compare_at_price"`
		Available      bool        `json:"available"`
	} `json:"variants"`
	Images  []json.RawMessage `json:"images"`
	Options []json.RawMessage `json:"options"`
	raw     json.RawMessage
}

func loadCatalog(t *testing.T, file string) []corpusProduct { return loadCatalogB(t, file) }

func loadCatalogB(t testing.TB, file string) []corpusProduct {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, file))
	if os.IsNotExist(err) {
		t.Skipf("corpus %s absent", file)
	}
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		var wrapped struct{ Products []json.RawMessage }
		if err := json.Unmarshal(b, &wrapped); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		raws = wrapped.Products
	}
	out := make([]corpusProduct, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			t.Fatalf("%s product %d: %v", file, i, err)
		}
		out[i].raw = r
	}
	return out
}

const shop = "https://shop.example"

// pagesFor serves what a Shopify store would for product p: its page (with the currency
// only there, as on real stores) and /products/{handle}.json.
func pagesFor(p corpusProduct) (string, sdktest.Pages) {
	pageURL := shop + "/products/" + p.Handle
	page := fmt.Sprintf(`<html><head><link rel="canonical" href="%s">
<meta property="og:price:currency" content="EUR">
<script src="//cdn.shopify.com/s/shop.js"></script><script>window.Shopify = {};</script></head>
<body><h1>x</h1></body></html>`, pageURL)
	return pageURL, sdktest.Pages{
		pageURL: {URL: pageURL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(page)},
		shop + "/products/" + p.Handle + ".json": {URL: shop + "/products/" + p.Handle + ".json", Status: 200,
			Body: append(append([]byte(`{"product":`), p.raw...), '}')},
	}
}

// paths runs each test through the WebAssembly guest and natively.
func paths(t *testing.T) map[string]adapter.Module {
	return map[string]adapter.Module{
		"wasm":   sdktest.Load(t, "guest", wasm.Config{}),
		"native": sdk.Native(Adapter{}),
	}
}

func TestCatalogsExtractExactly(t *testing.T) {
	for path, m := range paths(t) {
		for _, file := range []string{"mylubie-products.json", "kiidskingdom-products.json", "stanley1913-products.json"} {
			t.Run(path+"/"+file, func(t *testing.T) {
				products := loadCatalog(t, file)
				variants := 0
				for _, want := range products {
					pageURL, pages := pagesFor(want)
					set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
					res, err := set.Extract(context.Background(), pageURL, pages[pageURL])
					if err != nil || res.Product == nil {
						t.Fatalf("%s: %+v, %v", want.Handle, res, err)
					}
					checkProduct(t, want, res.Product)
					variants += len(want.Variants)
				}
				t.Logf("%d products, %d variants", len(products), variants)
			})
		}
	}
}

func checkProduct(t *testing.T, want corpusProduct, got *sdk.Product) {
	t.Helper()
	h := want.Handle
	if got.ID != want.ID.String() || got.Handle != h {
		t.Errorf("%s: id %q handle %q", h, got.ID, got.Handle)
	}
	if len(got.Variants) != len(want.Variants) || len(got.Images) != len(want.Images) || len(got.Options) != len(want.Options) {
		t.Fatalf("%s: variants/images/options = %d/%d/%d, want %d/%d/%d", h,
			len(got.Variants), len(got.Images), len(got.Options), len(want.Variants), len(want.Images), len(want.Options))
	}
	anyAvailable := false
	for i, wv := range want.Variants {
		gv := got.Variants[i]
		price, _ := strconv.ParseFloat(wv.Price, 64)
		if gv.ID != wv.ID.String() || gv.Price == nil || gv.Price.Current != price || gv.Price.Currency != "EUR" {
			t.Errorf("%s variant %s: %+v, want price %v EUR", h, wv.ID, gv.Price, price)
			continue
		}
		switch {
		case wv.CompareAtPrice == nil || *wv.CompareAtPrice == "":
			if gv.Price.CompareAt != nil {
				t.Errorf("%s variant %s: compare-at %v, want none", h, wv.ID, *gv.Price.CompareAt)
			}
		default:
			cmp, _ := strconv.ParseFloat(*wv.CompareAtPrice, 64)
			if gv.Price.CompareAt == nil || *gv.Price.CompareAt != cmp {
				t.Errorf("%s variant %s: compare-at %v, want %v", h, wv.ID, gv.Price.CompareAt, cmp)
			}
		}
		if *gv.IsAvailable != wv.Available {
			t.Errorf("%s variant %s: available %v, want %v", h, wv.ID, *gv.IsAvailable, wv.Available)
		}
		anyAvailable = anyAvailable || wv.Available
	}
	if len(want.Variants) > 0 && *got.IsAvailable != anyAvailable {
		t.Errorf("%s: available %v, want %v", h, *got.IsAvailable, anyAvailable)
	}
	if got.Sources["price"] != "shopify" || got.Price.Currency != "EUR" {
		t.Errorf("%s: price %+v from %q", h, got.Price, got.Sources["price"])
	}
}
