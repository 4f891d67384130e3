package demostore_test

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// nextData is the embedded state of a headless store's page.
var nextData = regexp.MustCompile(`(?s)<script id="__NEXT_DATA__" type="application/json">(.*?)</script>`)

func pageProps(t *testing.T, body string, into any) {
	t.Helper()
	m := nextData.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no __NEXT_DATA__ in the page")
	}
	var state struct {
		Props struct {
			PageProps json.RawMessage `json:"pageProps"`
		} `json:"props"`
	}
	if err := json.Unmarshal([]byte(m[1]), &state); err != nil {
		t.Fatalf("__NEXT_DATA__: %v", err)
	}
	if err := json.Unmarshal(state.Props.PageProps, into); err != nil {
		t.Fatalf("pageProps: %v", err)
	}
}

// A headless store's collections page their product summaries in the embedded state, a
// page size at a time, until Next.js's 404 past the last page; every product is listed
// once per collection that holds it, priced in euros.
func TestHeadlessCollectionsPageTheirProductsInTheEmbeddedState(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Headless, Products: 60}).Get(demostore.Headless)
	_, home := get(t, st.URL("/"))
	var hp struct {
		Collections []struct {
			Handle, Path  string
			ProductsCount int `json:"productsCount"`
		} `json:"collections"`
	}
	pageProps(t, home, &hp)
	if len(hp.Collections) != len(st.Catalog().Collections()) {
		t.Fatalf("%d collections in the home page's state, want %d", len(hp.Collections), len(st.Catalog().Collections()))
	}
	for k, c := range hp.Collections {
		col := st.Catalog().Collections()[k]
		if c.Path != st.CategoryPath(col.Handle) || c.ProductsCount != len(col.Products) {
			t.Errorf("collection %d: %+v, want %s with %d products", k, c, st.CategoryPath(col.Handle), len(col.Products))
		}
		seen := 0
		for page := 1; ; page++ {
			resp, body := get(t, st.URL(c.Path+"?page="+strconv.Itoa(page)))
			if resp.StatusCode == http.StatusNotFound {
				if page != st.CategoryPages(col.Handle)+1 {
					t.Errorf("%s: 404 at page %d of %d", c.Handle, page, st.CategoryPages(col.Handle))
				}
				break
			}
			var lp struct {
				Products []struct {
					Handle string
					Price  struct{ Amount, CurrencyCode string }
				}
				PageInfo struct {
					TotalCount  int  `json:"totalCount"`
					HasNextPage bool `json:"hasNextPage"`
				} `json:"pageInfo"`
			}
			pageProps(t, body, &lp)
			for _, p := range lp.Products {
				if p.Price.CurrencyCode != "EUR" || p.Price.Amount == "" {
					t.Errorf("%s: %+v", c.Handle, p)
				}
			}
			seen += len(lp.Products)
			if lp.PageInfo.TotalCount != len(col.Products) || lp.PageInfo.HasNextPage != (page < st.CategoryPages(col.Handle)) {
				t.Errorf("%s page %d: %+v", c.Handle, page, lp.PageInfo)
			}
		}
		if seen != len(col.Products) {
			t.Errorf("%s: %d products listed, want %d", c.Handle, seen, len(col.Products))
		}
	}
}

// A product page carries the product with every variant in its state, and the server
// draws its price the French way.
func TestHeadlessProductPageCarriesItsVariants(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Headless, Products: 20}).Get(demostore.Headless)
	for i := range st.Catalog().Len() {
		p := st.Catalog().Product(i)
		_, body := get(t, st.URL(st.ProductPath(i)))
		var pp struct {
			Product struct {
				Title    string
				Variants []struct {
					AvailableForSale bool `json:"availableForSale"`
				}
			}
		}
		pageProps(t, body, &pp)
		if pp.Product.Title != p.Title || len(pp.Product.Variants) != len(p.Variants) {
			t.Errorf("%s: %q with %d variants, want %q with %d", p.Handle, pp.Product.Title, len(pp.Product.Variants), p.Title, len(p.Variants))
		}
		want := regexp.MustCompile(`<p class="price text-sm"><span>[0-9\x{202f}]+,[0-9]{2}\x{a0}€</span></p>`)
		if !want.MatchString(html.UnescapeString(body)) {
			t.Errorf("%s: no displayed price like 12,50 €", p.Handle)
		}
	}
}
