package demostore_test

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// The Store API lists every category with its permalink and count, and pages through a
// category's products a hundred at a time, the paging in its headers.
func TestWooCommerceStoreAPIListsEveryCategory(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.WooCommerce, Products: 250}).Get(demostore.WooCommerce)
	var cats []struct {
		ID        int    `json:"id"`
		Slug      string `json:"slug"`
		Count     int    `json:"count"`
		Permalink string `json:"permalink"`
	}
	getJSON(t, st.URL("/wp-json/wc/store/v1/products/categories"), &cats)
	if len(cats) != len(st.Catalog().Collections()) {
		t.Fatalf("%d categories, want %d", len(cats), len(st.Catalog().Collections()))
	}
	for k, c := range cats {
		col := st.Catalog().Collections()[k]
		if c.Slug != col.Handle || c.Count != len(col.Products) || c.Permalink != st.URL(st.CategoryPath(col.Handle)) {
			t.Errorf("category %d: %+v, want %s with %d products", k, c, col.Handle, len(col.Products))
		}
		seen := 0
		for page := 1; ; page++ {
			resp, body := get(t, st.URL("/wp-json/wc/store/v1/products?category="+strconv.Itoa(c.ID)+"&per_page=100&page="+strconv.Itoa(page)))
			var products []struct {
				Permalink string `json:"permalink"`
				Prices    struct {
					Price        string `json:"price"`
					CurrencyCode string `json:"currency_code"`
				} `json:"prices"`
			}
			if err := json.Unmarshal([]byte(body), &products); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("page %d: %s %v", page, resp.Status, err)
			}
			if len(products) == 0 {
				break
			}
			if resp.Header.Get("X-WP-Total") != strconv.Itoa(c.Count) || resp.Header.Get("X-WP-TotalPages") != strconv.Itoa((c.Count+99)/100) {
				t.Errorf("%s page %d: X-WP-Total %s, X-WP-TotalPages %s", c.Slug, page, resp.Header.Get("X-WP-Total"), resp.Header.Get("X-WP-TotalPages"))
			}
			for _, p := range products {
				if p.Prices.CurrencyCode != "EUR" || p.Prices.Price == "" || !strings.HasSuffix(p.Permalink, "/") {
					t.Errorf("%s: %+v", c.Slug, p)
				}
			}
			seen += len(products)
		}
		if seen != c.Count {
			t.Errorf("%s: %d products listed, want %d", c.Slug, seen, c.Count)
		}
	}
	if resp, _ := get(t, st.URL("/wp-json/wc/store/v1/products?per_page=101")); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("per_page=101: %s, want 400", resp.Status)
	}
}

// Category archives page as WordPress does: /page/N/, 404 past the last page, redirects
// to the canonical path.
func TestWooCommerceArchivesPageAsWordPressDoes(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.WooCommerce, Products: 200, PageSize: 16}).Get(demostore.WooCommerce)
	col := st.Catalog().Collections()[0]
	pages := st.CategoryPages(col.Handle)
	if pages < 2 {
		t.Fatalf("%s spans %d page: the test needs more", col.Handle, pages)
	}
	tile := regexp.MustCompile(`<li class="product type-product post-\d+`)
	archive := st.URL(st.CategoryPath(col.Handle))
	listed := 0
	for n := 1; n <= pages; n++ {
		u := archive
		if n > 1 {
			u += "page/" + strconv.Itoa(n) + "/"
		}
		page := getOK(t, u)
		listed += len(tile.FindAllString(page, -1))
		if n == 1 && !strings.Contains(page, "Zeige 1&ndash;16 von "+strconv.Itoa(len(col.Products))+" Ergebnissen") {
			t.Errorf("page 1 lacks its result count")
		}
		if hasNext := strings.Contains(page, `class="next page-numbers"`); hasNext != (n < pages) {
			t.Errorf("page %d of %d: next link %v", n, pages, hasNext)
		}
	}
	if listed != len(col.Products) {
		t.Errorf("%d tiles over %d pages, want %d", listed, pages, len(col.Products))
	}
	for u, want := range map[string]int{
		archive + "page/" + strconv.Itoa(pages+1) + "/":     http.StatusNotFound,
		archive + "page/1/":                                 http.StatusMovedPermanently,
		strings.TrimSuffix(archive, "/"):                    http.StatusMovedPermanently,
		st.URL(strings.TrimSuffix(st.ProductPath(0), "/")):  http.StatusMovedPermanently,
		st.URL("/produkt/" + demostore.HandleMissing + "/"): http.StatusNotFound,
		st.URL("/kontakt/"):                                 http.StatusOK,
	} {
		if resp, _ := get(t, u); resp.StatusCode != want {
			t.Errorf("%s: %s, want %d", u, resp.Status, want)
		}
	}
}

// Product pages carry WooCommerce's markup in German: prices "1.234,56 €", a sale's
// regular price struck with the screen-reader sentences, a variable product's variations
// in data-product_variations, and the JSON-LD WooCommerce prints.
func TestWooCommerceProductPages(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.WooCommerce, Products: 120}).Get(demostore.WooCommerce)
	variations := regexp.MustCompile(`data-product_variations="([^"]*)"`)
	var sawSale, sawVariable, sawSimple bool
	for i := range 60 {
		p := st.Catalog().Product(i)
		page := getOK(t, st.URL(st.ProductPath(i)))
		if !strings.Contains(page, `<meta name="generator" content="WooCommerce`) || !strings.Contains(page, `class="product_title entry-title">`+html.EscapeString(p.Title)+`</h1>`) {
			t.Fatalf("product %d: no WooCommerce product page", i)
		}
		ld := jsonLD(t, page)
		if len(ld) != 1 {
			t.Fatalf("product %d: %d JSON-LD blocks", i, len(ld))
		}
		simple := len(p.Options) == 1 && p.Options[0].Name == "Title"
		if m := variations.FindStringSubmatch(page); simple == (m != nil) {
			t.Fatalf("product %d: simple %v, variations form %v", i, simple, m != nil)
		} else if m != nil {
			sawVariable = true
			var vs []map[string]any
			if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &vs); err != nil || len(vs) != len(p.Variants) {
				t.Errorf("product %d: %d variations (%v), want %d", i, len(vs), err, len(p.Variants))
			}
			continue
		}
		sawSimple = true
		v := p.Variants[0]
		if v.CompareAtPrice > v.Price {
			sawSale = true
			if !strings.Contains(page, "Ursprünglicher Preis war: "+german(v.CompareAtPrice)+"&nbsp;€.") ||
				!strings.Contains(page, "Aktueller Preis ist: "+german(v.Price)+"&nbsp;€.") {
				t.Errorf("product %d: no sale sentences for %s and %s", i, german(v.CompareAtPrice), german(v.Price))
			}
		}
		if !strings.Contains(page, `<bdi>`+german(v.Price)+`&nbsp;<span class="woocommerce-Price-currencySymbol">€</span></bdi>`) {
			t.Errorf("product %d: no price %s", i, german(v.Price))
		}
	}
	if !sawSale || !sawVariable || !sawSimple {
		t.Errorf("first 60 products: sale %v, variable %v, simple %v", sawSale, sawVariable, sawSimple)
	}
}

// german writes m as de_DE does: "1.234,56".
func german(m demostore.Money) string {
	s := strings.Replace(m.String(), ".", ",", 1)
	whole, cents, _ := strings.Cut(s, ",")
	for k := len(whole) - 3; k > 0; k -= 3 {
		whole = whole[:k] + "." + whole[k:]
	}
	return whole + "," + cents
}
