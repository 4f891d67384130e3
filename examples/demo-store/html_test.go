package demostore_test

import (
	"regexp"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestHTMLProductPagesHavePricesButNoStructuredData(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.HTML, Products: 300}).Get(demostore.HTML)
	var sawOld, sawOut bool
	for i := range 60 {
		p := st.Catalog().Product(i)
		page := getOK(t, st.URL(st.ProductPath(i)))
		if strings.Contains(page, "ld+json") || strings.Contains(page, "og:price") || strings.Contains(page, "itemprop") {
			t.Fatalf("product %d has structured data", i)
		}
		v := p.LeadVariant()
		buy := page[strings.Index(page, `<div class="buy-box">`):strings.Index(page, "Add to cart")]
		if !strings.Contains(buy, `<div class="current-price">$`+v.Price.String()+`</div>`) {
			t.Errorf("product %d: buy box %q lacks %s", i, buy, v.Price)
		}
		if v.CompareAtPrice > v.Price {
			sawOld = true
			if !strings.Contains(buy, "<s>$"+v.CompareAtPrice.String()+"</s>") {
				t.Errorf("product %d: no struck-out %s", i, v.CompareAtPrice)
			}
		}
		stock := "In stock"
		if !p.Available() {
			stock, sawOut = "Out of stock", true
		}
		for _, want := range []string{stock, "SKU: " + v.SKU, `class="breadcrumbs"`, `class="related"`, `rel="canonical" href="` + st.URL(st.ProductPath(i)) + `"`} {
			if !strings.Contains(page, want) {
				t.Errorf("product %d lacks %q", i, want)
			}
		}
		// The related block shows other products' prices after the buy box.
		related := page[strings.Index(page, `class="related"`):]
		if !regexp.MustCompile(`\$\d+\.\d\d`).MatchString(related) {
			t.Errorf("product %d: related block without prices", i)
		}
	}
	if !sawOld || !sawOut {
		t.Errorf("first 60 products: struck-out price seen %v, out of stock seen %v", sawOld, sawOut)
	}
}

func TestHTMLCategoryNextLinksReachEveryProduct(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.HTML, Products: 400, PageSize: 30}).Get(demostore.HTML)
	nextLink := regexp.MustCompile(`<a class="next" href="([^"]+)">`)
	seen := map[string]bool{}
	for _, col := range st.Catalog().Collections()[:7] { // the categories partition the catalogue
		got, _ := crawlCategory(t, st.URL(st.CategoryPath(col.Handle)), nextLink, st.URL("/item/"))
		for _, u := range got {
			seen[u] = true
		}
	}
	if len(seen) != 400 {
		t.Errorf("category crawl found %d products, want 400", len(seen))
	}
	home := getOK(t, st.URL("/"))
	if !strings.Contains(home, st.URL("/shop/apparel")) {
		t.Error("home page does not link the categories")
	}
	if resp, _ := get(t, st.URL("/sitemap.xml")); resp.StatusCode != 404 {
		t.Errorf("HTML store serves a sitemap: %s", resp.Status)
	}
	if st.Stats().ProductsSeen != 0 {
		t.Errorf("listing pages marked %d products seen", st.Stats().ProductsSeen)
	}
}
