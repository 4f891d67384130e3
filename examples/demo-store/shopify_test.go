package demostore_test

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

type listing struct {
	Products []struct {
		ID       int64  `json:"id"`
		Handle   string `json:"handle"`
		Variants []struct {
			ID             int64   `json:"id"`
			Price          string  `json:"price"`
			CompareAtPrice *string `json:"compare_at_price"`
			Available      bool    `json:"available"`
		} `json:"variants"`
	} `json:"products"`
}

func TestShopifyAnswersWithShopifyHeaders(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: 10}).Get(demostore.Shopify)
	for _, path := range []string{"/", "/products.json", "/products/" + shop.Catalog().Product(0).Handle} {
		resp, _ := get(t, shop.URL(path))
		for _, h := range []string{"X-Shopify-Stage", "X-ShopId", "Powered-By"} {
			if resp.Header.Get(h) == "" {
				t.Errorf("%s: no %s header", path, h)
			}
		}
		if resp.Header.Get("Powered-By") != "Shopify" || resp.Header.Get("X-Shopify-Stage") != "production" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
	}
}

func TestShopifyProductsJSONPaging(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: 620}).Get(demostore.Shopify)
	var l listing
	getJSON(t, shop.URL("/products.json"), &l)
	if len(l.Products) != 30 {
		t.Errorf("default page has %d products, want 30", len(l.Products))
	}
	getJSON(t, shop.URL("/products.json?limit=1000"), &l)
	if len(l.Products) != 250 {
		t.Errorf("limit=1000 gives %d products, want 250 (the cap)", len(l.Products))
	}
	seen := map[string]int{}
	for page := 1; ; page++ {
		var l listing
		getJSON(t, shop.URL(fmt.Sprintf("/products.json?limit=250&page=%d", page)), &l)
		if len(l.Products) == 0 {
			break
		}
		for _, p := range l.Products {
			seen[p.Handle]++
		}
	}
	if len(seen) != 620 {
		t.Errorf("paging found %d products, want 620", len(seen))
	}
	for h, n := range seen {
		if n != 1 {
			t.Errorf("%s listed %d times", h, n)
		}
	}
}

func TestShopifyRefusesPagesBeyond25000(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: 30_000}).Get(demostore.Shopify)
	var l listing
	getJSON(t, shop.URL("/products.json?limit=250&page=100"), &l) // 25,000 exactly is allowed
	if len(l.Products) != 250 || l.Products[249].Handle != shop.Catalog().Product(24_999).Handle {
		t.Errorf("page 100 has %d products", len(l.Products))
	}
	for _, path := range []string{"/products.json?limit=250&page=101", "/products.json?page=834"} {
		resp, body := get(t, shop.URL(path))
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "25000") {
			t.Errorf("%s: %s %.200s", path, resp.Status, body)
		}
	}
	// Collections are how clients walk past the cap: they page on.
	getJSON(t, shop.URL("/collections/all/products.json?limit=250&page=101"), &l)
	if len(l.Products) != 250 || l.Products[0].Handle != shop.Catalog().Product(25_000).Handle {
		t.Errorf("collection page 101 has %d products", len(l.Products))
	}
}

func TestShopifyCollectionsAddUpAndPageExactly(t *testing.T) {
	const n = 2000
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: n}).Get(demostore.Shopify)
	var cols struct {
		Collections []struct {
			Handle        string `json:"handle"`
			ProductsCount int    `json:"products_count"`
		} `json:"collections"`
	}
	getJSON(t, shop.URL("/collections.json?limit=250"), &cols)
	want := shop.Catalog().Collections()
	if len(cols.Collections) != len(want) {
		t.Fatalf("collections.json lists %d collections, want %d", len(cols.Collections), len(want))
	}
	categories := 0
	for k, c := range cols.Collections {
		if c.Handle != want[k].Handle || c.ProductsCount != len(want[k].Products) {
			t.Errorf("collection %d = %s (%d), want %s (%d)", k, c.Handle, c.ProductsCount, want[k].Handle, len(want[k].Products))
		}
		// Every product is in exactly one category collection; their counts sum to n.
		if k < 7 {
			categories += c.ProductsCount
		}
		// Paging /collections/{h}/products.json covers each member exactly once.
		seen := map[string]int{}
		for page := 1; ; page++ {
			var l listing
			getJSON(t, shop.URL(fmt.Sprintf("/collections/%s/products.json?limit=97&page=%d", c.Handle, page)), &l)
			if len(l.Products) == 0 {
				break
			}
			for _, p := range l.Products {
				seen[p.Handle]++
			}
		}
		if len(seen) != c.ProductsCount {
			t.Errorf("%s: paging found %d products, products_count says %d", c.Handle, len(seen), c.ProductsCount)
		}
		for _, i := range want[k].Products {
			if h := shop.Catalog().Product(int(i)).Handle; seen[h] != 1 {
				t.Errorf("%s: %s listed %d times", c.Handle, h, seen[h])
			}
		}
	}
	if categories != n {
		t.Errorf("category collections hold %d products, want %d", categories, n)
	}
	var page2 struct{ Collections []any }
	getJSON(t, shop.URL("/collections.json?limit=4&page=2"), &page2)
	if len(page2.Collections) != 4 {
		t.Errorf("collections.json?limit=4&page=2 has %d collections", len(page2.Collections))
	}
}

type urlset struct {
	URLs []struct {
		Loc string `xml:"loc"`
	} `xml:"url"`
}

type sitemapIndex struct {
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func TestShopifySitemapsListEveryProductOnce(t *testing.T) {
	const n = 10_000
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: n}).Get(demostore.Shopify)
	var index sitemapIndex
	if err := xml.Unmarshal([]byte(getOK(t, shop.URL("/sitemap.xml"))), &index); err != nil {
		t.Fatal(err)
	}
	products := map[string]int{}
	var files []string
	for _, sm := range index.Sitemaps {
		files = append(files, sm.Loc[len(shop.BaseURL):])
		var set urlset
		if err := xml.Unmarshal([]byte(getOK(t, sm.Loc)), &set); err != nil {
			t.Fatal(err)
		}
		inFile := 0
		for _, u := range set.URLs {
			if strings.HasPrefix(u.Loc, shop.BaseURL+"/products/") {
				products[u.Loc]++
				inFile++
			}
		}
		if inFile > 5000 {
			t.Errorf("%s lists %d products, more than 5,000", sm.Loc, inFile)
		}
	}
	if len(products) != n {
		t.Errorf("sitemaps list %d product URLs, want %d", len(products), n)
	}
	for u, k := range products {
		if k != 1 {
			t.Errorf("%s listed %d times", u, k)
		}
	}
	want := []string{"/sitemap_products_1.xml?from=", "/sitemap_products_2.xml?from=", "/sitemap_pages_1.xml", "/sitemap_collections_1.xml"}
	if len(files) != len(want) {
		t.Fatalf("sitemap index lists %v", files)
	}
	for k := range want {
		if !strings.HasPrefix(files[k], want[k]) {
			t.Errorf("sitemap %d is %s, want %s...", k, files[k], want[k])
		}
	}
	robots := getOK(t, shop.URL("/robots.txt"))
	if !strings.Contains(robots, "Sitemap: "+shop.BaseURL+"/sitemap.xml") {
		t.Errorf("robots.txt does not name the sitemap:\n%s", robots)
	}
}

// hasKeys reports the keys of want missing from m.
func missingKeys(m map[string]any, keys string) []string {
	var out []string
	for _, k := range strings.Fields(keys) {
		if _, ok := m[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

func TestShopifyJSONShapes(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: 40}).Get(demostore.Shopify)
	var list struct{ Products []map[string]any }
	getJSON(t, shop.URL("/products.json"), &list)
	p := list.Products[0]
	if m := missingKeys(p, "id title handle body_html published_at created_at updated_at vendor product_type tags variants images options"); m != nil {
		t.Errorf("products.json product lacks %v", m)
	}
	v := p["variants"].([]any)[0].(map[string]any)
	if m := missingKeys(v, "id title option1 option2 option3 sku requires_shipping taxable featured_image available price grams compare_at_price position product_id created_at updated_at"); m != nil {
		t.Errorf("products.json variant lacks %v", m)
	}
	if _, ok := v["price"].(string); !ok {
		t.Errorf("variant price is %T, want a decimal string", v["price"])
	}
	if _, ok := v["available"].(bool); !ok {
		t.Errorf("variant available is %T, want a boolean", v["available"])
	}
	img := p["images"].([]any)[0].(map[string]any)
	if m := missingKeys(img, "id created_at position updated_at product_id variant_ids src width height"); m != nil {
		t.Errorf("image lacks %v", m)
	}
	opt := p["options"].([]any)[0].(map[string]any)
	if m := missingKeys(opt, "name position values"); m != nil {
		t.Errorf("option lacks %v", m)
	}

	handle := p["handle"].(string)
	var single map[string]map[string]any
	getJSON(t, shop.URL("/products/"+handle+".json"), &single)
	if m := missingKeys(single["product"], "id title body_html vendor product_type handle tags variants options images image"); m != nil {
		t.Errorf("/products/%s.json lacks %v", handle, m)
	}
	sv := single["product"]["variants"].([]any)[0].(map[string]any)
	if m := missingKeys(sv, "id price compare_at_price image_id option1 sku"); m != nil {
		t.Errorf("/products/%s.json variant lacks %v", handle, m)
	}

	var js map[string]any
	getJSON(t, shop.URL("/products/"+handle+".js"), &js)
	prod := shop.Catalog().Product(0)
	if js["price"].(float64) != float64(minPrice(prod)) {
		t.Errorf(".js price = %v, want %d cents", js["price"], minPrice(prod))
	}
	jv := js["variants"].([]any)[0].(map[string]any)
	if jv["price"].(float64) != float64(prod.Variants[0].Price) {
		t.Errorf(".js variant price = %v, want %d", jv["price"], prod.Variants[0].Price)
	}
	jo := js["options"].([]any)[0].(map[string]any)
	if m := missingKeys(jo, "name position values"); m != nil {
		t.Errorf(".js option lacks %v", m)
	}
	for _, img := range js["images"].([]any) {
		if !strings.HasPrefix(img.(string), "//cdn.shopify.com/") {
			t.Errorf(".js image %v is not protocol-relative", img)
		}
	}
}

func TestShopifyProductPageCarriesCurrencyAndJSONLD(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: 20, Currency: "EUR"}).Get(demostore.Shopify)
	for i := range 4 {
		p := shop.Catalog().Product(i)
		page := getOK(t, shop.URL("/products/"+p.Handle))
		for _, want := range []string{`<meta property="og:price:currency" content="EUR">`, `"active":"EUR"`, "window.Shopify", "cdn.shopify.com", "Add to cart", `rel="canonical" href="` + shop.URL("/products/"+p.Handle)} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %s", p.Handle, want)
			}
		}
		docs := jsonLD(t, page)
		if len(docs) != 1 {
			t.Fatalf("%s has %d JSON-LD blocks", p.Handle, len(docs))
		}
		ld := docs[0].(map[string]any)
		offers := ld["offers"].([]any)
		if ld["@type"] != "Product" || len(offers) != len(p.Variants) {
			t.Fatalf("%s JSON-LD: %v", p.Handle, ld)
		}
		for k, o := range offers {
			o := o.(map[string]any)
			if got := fmt.Sprintf("%.2f", o["price"].(float64)); got != p.Variants[k].Price.String() || o["priceCurrency"] != "EUR" {
				t.Errorf("%s offer %d: %v %v, want %s EUR", p.Handle, k, o["price"], o["priceCurrency"], p.Variants[k].Price)
			}
		}
		// The same product inside a collection path is the same page with the same canonical URL.
		if p.Category != "" {
			alt := getOK(t, shop.URL("/collections/"+p.Category+"/products/"+p.Handle))
			if !strings.Contains(alt, `rel="canonical" href="`+shop.URL("/products/"+p.Handle)) {
				t.Errorf("collection product path of %s has another canonical URL", p.Handle)
			}
		}
	}
}

func TestShopifyCollectionPagesLinkEveryMember(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Shopify, Products: 300, PageSize: 20}).Get(demostore.Shopify)
	col := shop.Catalog().Collections()[1]
	var found []string
	next := shop.URL(shop.CategoryPath(col.Handle))
	for pages := 0; next != ""; pages++ {
		if pages > 100 {
			t.Fatal("pagination does not end")
		}
		page := getOK(t, next)
		next = ""
		for _, h := range hrefs(page) {
			if strings.Contains(h, "/products/") && !contains(found, h) && strings.Contains(page, `product-tile"><a href="`+h) {
				found = append(found, h)
			}
		}
		if m := relNext.FindStringSubmatch(page); m != nil {
			next = m[1]
		}
	}
	var want []string
	for _, i := range col.Products {
		want = append(want, shop.URL(shop.ProductPath(int(i))))
	}
	sort.Strings(found)
	sort.Strings(want)
	if strings.Join(found, "\n") != strings.Join(want, "\n") {
		t.Errorf("collection pages link %d products, collection has %d", len(found), len(want))
	}
	if pages := shop.CategoryPages(col.Handle); pages != (len(col.Products)+19)/20 {
		t.Errorf("CategoryPages = %d", pages)
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func minPrice(p demostore.Product) demostore.Money {
	lo, _ := p.PriceRange()
	return lo
}
