package demostore_test

import (
	"encoding/xml"
	"regexp"
	"sort"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// crawlCategory follows a category's next links and returns the product URLs it lists.
func crawlCategory(t *testing.T, first string, next *regexp.Regexp, productPrefix string) (products []string, pages int) {
	t.Helper()
	for u := first; u != ""; pages++ {
		if pages > 1000 {
			t.Fatal("pagination does not end")
		}
		page := getOK(t, u)
		u = ""
		for _, h := range hrefs(page) {
			if strings.HasPrefix(h, productPrefix) && strings.Contains(page, `product-tile"><a href="`+h) {
				products = append(products, h)
			}
		}
		if m := next.FindStringSubmatch(page); m != nil {
			u = m[1]
		}
	}
	return products, pages
}

func TestJSONLDCategoryPagesListEachMemberOnce(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.JSONLD, Products: 500}).Get(demostore.JSONLD)
	linkNext := regexp.MustCompile(`<link rel="next" href="([^"]+)">`)
	for _, col := range st.Catalog().Collections() {
		got, pages := crawlCategory(t, st.URL(st.CategoryPath(col.Handle)), linkNext, st.URL("/product/"))
		var want []string
		for _, i := range col.Products {
			want = append(want, st.URL(st.ProductPath(int(i))))
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: pages list %d products, want %d", col.Handle, len(got), len(want))
		}
		if pages != st.CategoryPages(col.Handle) {
			t.Errorf("%s: %d pages, CategoryPages says %d", col.Handle, pages, st.CategoryPages(col.Handle))
		}
	}
	// The ItemList JSON-LD names the same products as the tiles.
	page := getOK(t, st.URL(st.CategoryPath("toys")+"?page=2"))
	list := jsonLD(t, page)[0].(map[string]any)
	items := list["itemListElement"].([]any)
	first := items[0].(map[string]any)
	if list["@type"] != "ItemList" || len(items) != 24 || first["position"].(float64) != 25 {
		t.Errorf("ItemList: %v", list)
	}
	if !strings.Contains(page, `<link rel="prev"`) {
		t.Error("page 2 has no rel=prev")
	}
	if resp, _ := get(t, st.URL(st.CategoryPath("toys")+"?page=999")); resp.StatusCode != 404 {
		t.Errorf("page past the end: %s", resp.Status)
	}
}

func TestJSONLDProductPagesVaryTheirMarkup(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.JSONLD, Products: 50}).Get(demostore.JSONLD)
	for i := range 20 {
		p := st.Catalog().Product(i)
		page := getOK(t, st.URL(st.ProductPath(i)))
		docs := jsonLD(t, page)
		var product map[string]any
		switch demostore.JSONLDFlavor(i) {
		case demostore.FlavorProduct:
			product = docs[0].(map[string]any)
			if docs[1].(map[string]any)["@type"] != "BreadcrumbList" {
				t.Errorf("product %d: second block is not a BreadcrumbList", i)
			}
		case demostore.FlavorGraph:
			graph := docs[0].(map[string]any)["@graph"].([]any)
			product = graph[2].(map[string]any)
		case demostore.FlavorArray:
			product = docs[0].([]any)[0].(map[string]any)
		case demostore.FlavorProductGroup:
			product = docs[0].(map[string]any)
			if product["@type"] != "ProductGroup" || len(product["hasVariant"].([]any)) != len(p.Variants) {
				t.Errorf("product %d: %v", i, product["@type"])
			}
			continue
		}
		if product["@type"] != "Product" || product["name"] != p.Title {
			t.Errorf("product %d: JSON-LD names %v %v", i, product["@type"], product["name"])
			continue
		}
		// The offer (or the first of several) carries the lead variant's price in the
		// page's price style.
		var offer map[string]any
		switch o := product["offers"].(type) {
		case map[string]any:
			offer = o
		case []any:
			offer = o[0].(map[string]any)
		}
		price := offer["price"]
		if offer["@type"] == "AggregateOffer" {
			price = offer["lowPrice"]
		}
		want := p.LeadVariant().Price.String()
		if offer["@type"] == "AggregateOffer" {
			lo, _ := p.PriceRange()
			want = lo.String()
		} else if demostore.JSONLDFlavor(i) == demostore.FlavorGraph {
			want = p.Variants[0].Price.String()
		}
		switch i % 5 {
		case 0:
			if _, ok := price.(float64); !ok {
				t.Errorf("product %d: price %v is not a number", i, price)
			}
		case 2:
			want = strings.Replace(want, ".", ",", 1)
			fallthrough
		default:
			if price != want {
				t.Errorf("product %d: price %v, want %q", i, price, want)
			}
		}
		if !strings.Contains(page, "Add to cart") || !strings.Contains(page, p.LeadVariant().SKU) {
			t.Errorf("product %d: page lacks the buy box", i)
		}
	}
}

func TestJSONLDSitemapListsEveryProduct(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.JSONLD, Products: 7_500}).Get(demostore.JSONLD)
	var index sitemapIndex
	if err := xml.Unmarshal([]byte(getOK(t, st.URL("/sitemap.xml"))), &index); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, sm := range index.Sitemaps {
		var set urlset
		if err := xml.Unmarshal([]byte(getOK(t, sm.Loc)), &set); err != nil {
			t.Fatal(err)
		}
		for _, u := range set.URLs {
			if strings.Contains(u.Loc, "/product/") {
				seen[u.Loc] = true
			}
		}
	}
	if len(seen) != 7_500 {
		t.Errorf("sitemaps list %d products, want 7500", len(seen))
	}
}

// Product pages carry their rating data in the Product (or ProductGroup) node, as review
// apps do: every third product none, every third an aggregate only, the rest an aggregate
// and the first reviews.
func TestJSONLDProductPagesCarryTheirRatings(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.JSONLD, Products: 12}).Get(demostore.JSONLD)
	withReviews := 0
	for i := range 12 {
		p := st.Catalog().Product(i)
		want := demostore.RatingOf(p)
		var node map[string]any
		var find func(v any)
		find = func(v any) {
			switch x := v.(type) {
			case []any:
				for _, e := range x {
					find(e)
				}
			case map[string]any:
				if (x["@type"] == "Product" || x["@type"] == "ProductGroup") && node == nil {
					node = x
				}
				find(x["@graph"])
			}
		}
		find(jsonLD(t, getOK(t, st.URL(st.ProductPath(i)))))
		if node == nil {
			t.Fatalf("product %d: no Product node", i)
		}
		agg, _ := node["aggregateRating"].(map[string]any)
		reviews, _ := node["review"].([]any)
		switch {
		case want == nil:
			if agg != nil || reviews != nil {
				t.Errorf("product %d: rating data %v %v, want none", i, agg, reviews)
			}
		case agg == nil:
			t.Errorf("product %d: no aggregateRating, want %v", i, want.Average)
		case len(reviews) != len(want.Reviews):
			t.Errorf("product %d: %d reviews, want %d", i, len(reviews), len(want.Reviews))
		}
		if len(reviews) > 0 {
			withReviews++
			if r := reviews[0].(map[string]any); r["name"] != want.Reviews[0].Title || r["datePublished"] != want.Reviews[0].Date {
				t.Errorf("product %d: first review %v, want %+v", i, r, want.Reviews[0])
			}
		}
	}
	if withReviews != 4 {
		t.Errorf("%d of 12 products list reviews, want 4", withReviews)
	}
}
