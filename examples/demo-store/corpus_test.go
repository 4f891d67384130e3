package demostore_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// The real catalogues of the shared corpus (product texts belong to their stores: read
// at run time, never copied here).
const corpusDir = "/work/shared/corpus/shopify"

func corpusFiles(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*-products.json"))
	if len(files) == 0 {
		t.Skipf("no Shopify catalogues under %s", corpusDir)
	}
	return files
}

// sourcePrices reads handle -> variant id -> "price|compare_at_price" from a file as is.
func sourcePrices(t *testing.T, path string) map[string]map[int64]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type product struct {
		Handle   string `json:"handle"`
		Variants []struct {
			ID             int64   `json:"id"`
			Price          string  `json:"price"`
			CompareAtPrice *string `json:"compare_at_price"`
		} `json:"variants"`
	}
	var list []product
	if err := json.Unmarshal(data, &list); err != nil {
		var wrapped struct{ Products []product }
		if err := json.Unmarshal(data, &wrapped); err != nil {
			t.Fatal(err)
		}
		list = wrapped.Products
	}
	out := map[string]map[int64]string{}
	for _, p := range list {
		if out[p.Handle] != nil {
			continue
		}
		out[p.Handle] = map[int64]string{}
		for _, v := range p.Variants {
			ca := "null"
			if v.CompareAtPrice != nil {
				ca = *v.CompareAtPrice
			}
			out[p.Handle][v.ID] = v.Price + "|" + ca
		}
	}
	return out
}

func TestRealCatalogsAreServedWithExactPrices(t *testing.T) {
	for _, file := range corpusFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			cat, err := demostore.LoadShopify(file)
			if err != nil {
				t.Fatal(err)
			}
			want := sourcePrices(t, file)
			if cat.Len() != len(want) {
				t.Fatalf("loaded %d products, file has %d distinct handles", cat.Len(), len(want))
			}
			shop := start(t, demostore.Options{Kind: demostore.Shopify, Catalog: cat, Currency: "USD"}).Get(demostore.Shopify)

			// /products.json pages carry every price as in the file.
			served := 0
			for page := 1; ; page++ {
				var l listing
				getJSON(t, shop.URL(fmt.Sprintf("/products.json?limit=250&page=%d", page)), &l)
				if len(l.Products) == 0 {
					break
				}
				for _, p := range l.Products {
					served++
					for _, v := range p.Variants {
						ca := "null"
						if v.CompareAtPrice != nil {
							ca = *v.CompareAtPrice
						}
						if got := v.Price + "|" + ca; got != want[p.Handle][v.ID] {
							t.Errorf("%s variant %d: price|compare_at %s, file says %s", p.Handle, v.ID, got, want[p.Handle][v.ID])
						}
					}
				}
			}
			if served != len(want) {
				t.Errorf("products.json served %d products, want %d", served, len(want))
			}

			// Single-product endpoints and the page agree on the first products.
			for i := range min(cat.Len(), 15) {
				p := cat.Product(i)
				var single struct {
					Product struct {
						Variants []struct {
							ID    int64  `json:"id"`
							Price string `json:"price"`
						} `json:"variants"`
					} `json:"product"`
				}
				getJSON(t, shop.URL("/products/"+p.Handle+".json"), &single)
				for _, v := range single.Product.Variants {
					if !strings.HasPrefix(want[p.Handle][v.ID], v.Price+"|") {
						t.Errorf("%s.json variant %d: %s, file says %s", p.Handle, v.ID, v.Price, want[p.Handle][v.ID])
					}
				}
				var js struct {
					Variants []struct {
						ID    int64 `json:"id"`
						Price int64 `json:"price"`
					} `json:"variants"`
				}
				getJSON(t, shop.URL("/products/"+p.Handle+".js"), &js)
				for k, v := range js.Variants {
					if demostore.Money(v.Price) != p.Variants[k].Price {
						t.Errorf("%s.js variant %d: %d cents, want %v", p.Handle, v.ID, v.Price, p.Variants[k].Price)
					}
				}
				page := getOK(t, shop.URL("/products/"+p.Handle))
				if !strings.Contains(page, `<meta property="og:price:amount" content="`+p.LeadVariant().Price.String()+`">`) {
					t.Errorf("%s page does not show %s", p.Handle, p.LeadVariant().Price)
				}
			}

			// Derived collections list only catalogue products, and every product with a
			// product type is in its type's collection.
			for _, c := range cat.Collections() {
				var l listing
				getJSON(t, shop.URL("/collections/"+c.Handle+"/products.json?limit=250"), &l)
				if len(l.Products) != min(len(c.Products), 250) {
					t.Errorf("collection %s serves %d products, has %d", c.Handle, len(l.Products), len(c.Products))
				}
			}
		})
	}
}

func TestRealCatalogOnTheOtherKinds(t *testing.T) {
	files := corpusFiles(t)
	cat, err := demostore.LoadShopify(files[0])
	if err != nil {
		t.Fatal(err)
	}
	fleet := start(t, demostore.Options{Kind: demostore.JSONLD, Catalog: cat}, demostore.Options{Kind: demostore.HTML, Catalog: cat})
	for _, st := range fleet.Stores {
		p := cat.Product(0)
		page := getOK(t, st.URL(st.ProductPath(0)))
		if !strings.Contains(page, p.LeadVariant().Price.String()) {
			t.Errorf("%s: page of %s lacks %s", st.Kind(), p.Handle, p.LeadVariant().Price)
		}
	}
}
