package shopify

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

func TestDetect(t *testing.T) {
	for path, m := range paths(t) {
		for _, tc := range []struct {
			name   string
			header http.Header
			body   string
			want   float64
		}{
			{"header", http.Header{"X-Shopify-Stage": {"production"}}, "<html></html>", 0.95},
			{"powered-by", http.Header{"Powered-By": {"Shopify"}}, "<html></html>", 0.95},
			{"two html markers", nil, `<script>window.Shopify = {}; Shopify.theme = {}</script>`, 0.9},
			{"one html marker", nil, `<img src="https://cdn.shopify.com/x.jpg">`, 0.6},
			{"not shopify", http.Header{"Server": {"nginx"}}, `<html>WooCommerce</html>`, 0},
		} {
			home := &adapter.Document{URL: "https://s.example/", Status: 200, Header: tc.header, Body: []byte(tc.body)}
			resp, err := m.Call(context.Background(), &adapter.Request{Op: adapter.OpDetect, URL: home.URL, Docs: []*adapter.Document{home}})
			if err != nil {
				t.Fatal(err)
			}
			got := 0.0
			if resp.Detection != nil {
				got = resp.Detection.Confidence
			}
			if got != tc.want {
				t.Errorf("%s/%s: confidence %v, want %v (%+v)", path, tc.name, got, tc.want, resp.Detection)
			}
		}
	}
}

func TestDiscoverReadsCollectionsJSONAndSitemap(t *testing.T) {
	dir := filepath.Join(corpusDir, "sitemaps-purecane")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("purecane sitemaps absent")
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	base := "https://purecane.com"
	pages := sdktest.Pages{
		base + "/collections.json?limit=250": {URL: base + "/collections.json?limit=250", Status: 200,
			Body: []byte(`{"collections":[{"handle":"all","title":"All","products_count":20},{"handle":"gifts","title":"Gifts","products_count":3}]}`)},
		base + "/sitemap.xml":               {URL: base + "/sitemap.xml", Status: 200, Body: read("sitemap.xml")},
		base + "/sitemap_collections_1.xml": {URL: base + "/sitemap_collections_1.xml", Status: 200, Body: read("sitemap_collections_1.xml")},
	}
	want := strings.Count(string(read("sitemap_collections_1.xml")), "/collections/") + 1 // + gifts, only in the JSON
	for path, m := range paths(t) {
		cols := discover(t, m, base, pages)
		if len(cols) != want || cols[0].Handle != "all" || *cols[0].ProductsCount != 20 || cols[1].Handle != "gifts" {
			t.Errorf("%s: %d collections (want %d): %+v", path, len(cols), want, cols)
		}
	}
}

// A store lists the collections it made, and rarely "all", which every Shopify store
// serves: discovery adds it, so that products in no collection are found too. A store
// whose collections cannot be read at all still has it.
func TestDiscoverAddsTheCollectionOfEveryProduct(t *testing.T) {
	base := "https://shop.example"
	for name, pages := range map[string]sdktest.Pages{
		"two made": {base + "/collections.json?limit=250": {URL: base + "/collections.json?limit=250", Status: 200,
			Body: []byte(`{"collections":[{"handle":"gifts","title":"Gifts","products_count":3},{"handle":"sale","title":"Sale"}]}`)}},
		"none readable": {},
	} {
		want := []string{"gifts", "sale", "all"}
		if len(pages) == 0 {
			want = []string{"all"}
		}
		for path, m := range paths(t) {
			cols := discover(t, m, base, pages)
			var handles []string
			for _, c := range cols {
				handles = append(handles, c.Handle)
			}
			if !slices.Equal(handles, want) || cols[len(cols)-1].URL != base+"/collections/all" {
				t.Errorf("%s/%s: %+v, want %v", name, path, cols, want)
			}
		}
	}
}

// discover runs m's discovery of the store at base, whose pages are pages.
func discover(t *testing.T, m adapter.Module, base string, pages sdktest.Pages) []adapter.Collection {
	t.Helper()
	home := &adapter.Document{URL: base + "/", Status: 200, Body: []byte("<html></html>")}
	set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
	cols, err := set.Discover(context.Background(), "shopify", home)
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

func TestListPagesThroughACollection(t *testing.T) {
	products := loadCatalog(t, "stanley1913-products.json")
	base := "https://shop.example"
	pages := sdktest.Pages{}
	// 284 products: a full page of 250 and a second of 34.
	for page, start := 1, 0; start < len(products); page, start = page+1, start+PageSize {
		end := min(start+PageSize, len(products))
		var body strings.Builder
		body.WriteString(`{"products":[`)
		for i, p := range products[start:end] {
			if i > 0 {
				body.WriteByte(',')
			}
			body.Write(p.raw)
		}
		body.WriteString(`]}`)
		u := base + "/collections/all/products.json?limit=250&page=" + strconv.Itoa(page)
		pages[u] = &adapter.Document{URL: u, Status: 200, Body: []byte(body.String())}
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		var all []adapter.Listing
		cursor := ""
		for {
			page, err := set.List(context.Background(), "shopify", base+"/collections/all", cursor, 0)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, page.Listings...)
			if page.Next == "" {
				break
			}
			cursor = page.Next
		}
		if len(all) != len(products) {
			t.Fatalf("%s: listed %d products, want %d", path, len(all), len(products))
		}
		first := products[0]
		if all[0].URL != base+"/products/"+first.Handle || all[0].ID != first.ID.String() || all[0].Price == nil {
			t.Errorf("%s: first listing %+v", path, all[0])
		}
		// Told the collection's size, the first page names every later one.
		sized, err := set.List(context.Background(), "shopify", base+"/collections/all", "", 3*PageSize+1)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"2", "3", "4"}; !slices.Equal(sized.Ahead, want) || sized.Next != "2" {
			t.Errorf("%s: first page of a collection of %d: ahead %q, next %q; want %q and 2", path, 3*PageSize+1, sized.Ahead, sized.Next, want)
		}
		// Not told its size, a full page names the next few.
		unsized, err := set.List(context.Background(), "shopify", base+"/collections/all", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"2", "3", "4", "5"}; !slices.Equal(unsized.Ahead, want) || unsized.Next != "2" {
			t.Errorf("%s: full first page of a collection of unknown size: ahead %q, next %q; want %q and 2", path, unsized.Ahead, unsized.Next, want)
		}
		// A count beyond belief names no more than maxAhead pages.
		huge, err := set.List(context.Background(), "shopify", base+"/collections/all", "", 1<<40)
		if err != nil {
			t.Fatal(err)
		}
		if len(huge.Ahead) != maxAhead || huge.Ahead[maxAhead-1] != strconv.Itoa(maxAhead+1) {
			t.Errorf("%s: a count of 2^40 named %d pages ahead, want %d", path, len(huge.Ahead), maxAhead)
		}
	}
}

// TestAvailabilityFromJSWhenJSONLacksIt covers /products/{handle}.json as Shopify serves it
// for one product: no variant availability, which the .js rendering supplies.
func TestAvailabilityFromJSWhenJSONLacksIt(t *testing.T) {
	base := "https://shop.example"
	pageURL := base + "/products/mug?variant=2"
	pages := sdktest.Pages{
		pageURL: {URL: pageURL, Status: 200, Body: []byte(`<html><head><script>window.Shopify={};Shopify.currency = {"active":"CAD","rate":"1.0"};</script></head></html>`)},
		base + "/products/mug.json": {URL: base + "/products/mug.json", Status: 200, Body: []byte(`{"product":{"id":1,"title":"Mug","handle":"mug","tags":"a, b",
			"options":[{"name":"Size","position":1,"values":["S","L"]}],
			"variants":[{"id":1,"title":"S","option1":"S","price":"10.00","compare_at_price":"12.00","sku":"M-S"},{"id":2,"title":"L","option1":"L","price":"14.00","compare_at_price":null,"sku":"M-L","barcode":"123"}],
			"images":[{"id":7,"src":"https://cdn.shopify.com/m.jpg","position":1,"variant_ids":[2]}]}}`)},
		base + "/products/mug.js": {URL: base + "/products/mug.js", Status: 200, Body: []byte(`{"variants":[{"id":1,"available":false},{"id":2,"available":true}]}`)},
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		res, err := set.Extract(context.Background(), pageURL, pages[pageURL])
		if err != nil || res.Product == nil {
			t.Fatalf("%s: %+v %v", path, res, err)
		}
		p := res.Product
		if *p.Variants[0].IsAvailable || !*p.Variants[1].IsAvailable || !*p.IsAvailable {
			t.Errorf("%s: availability %v %v", path, *p.Variants[0].IsAvailable, *p.Variants[1].IsAvailable)
		}
		// The URL selects variant 2: its price is the product's.
		if p.Price.Current != 14 || p.Price.CompareAt != nil || p.Price.Currency != "CAD" {
			t.Errorf("%s: price %+v", path, *p.Price)
		}
		if len(p.Tags) != 2 || p.Variants[1].Options["Size"] != "L" || *p.Variants[1].GTIN != "123" || p.Images[0].VariantIDs[0] != "2" {
			t.Errorf("%s: tags %v, options %v, images %+v", path, p.Tags, p.Variants[1].Options, p.Images)
		}
	}
}

// Shopify pages no further than 25,000 products and says so with a 400: past that, the
// collection ends (its listing goes no further this way), where any other refusal is a
// page the store failed to give.
func TestListEndsAtShopifysPagingCap(t *testing.T) {
	base := "https://shop.example"
	capped := `{"errors":"Page * Limit exceeds the 25000 limit."}`
	pageURL := func(page int) string {
		return base + "/collections/all/products.json?limit=250&page=" + strconv.Itoa(page)
	}
	pages := sdktest.Pages{
		pageURL(101): {URL: pageURL(101), Status: 400, Body: []byte(capped)},
		pageURL(102): {URL: pageURL(102), Status: 400, Body: []byte(`{"errors":"Bad Request"}`)},
		pageURL(2):   {URL: pageURL(2), Status: 400, Body: []byte(capped)},
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		for _, tc := range []struct {
			cursor string
			ends   bool
		}{{"101", true}, {"102", false}, {"2", false}} {
			page, err := set.List(context.Background(), "shopify", base+"/collections/all", tc.cursor, 0)
			switch {
			case tc.ends && (err != nil || len(page.Listings) > 0 || page.Next != ""):
				t.Errorf("%s: page %s: %+v %v, want the collection's end", path, tc.cursor, page, err)
			case !tc.ends && (err == nil || !strings.Contains(err.Error(), "collection all page "+tc.cursor+": status 400")):
				t.Errorf("%s: page %s: %+v %v, want a failure", path, tc.cursor, page, err)
			}
		}
	}
}

// A store not open yet redirects its home page to its password page, which the host hands
// over as the home page: discovery says why there is nothing to crawl, rather than finding
// only "all" and it empty.
func TestDiscoverSaysAStoreIsPasswordProtected(t *testing.T) {
	for path, m := range paths(t) {
		home := &adapter.Document{URL: "https://shop.example/password", Status: 200, Body: []byte("<html>Opening soon</html>")}
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: sdktest.Pages{}}
		cols, err := set.Discover(context.Background(), "shopify", home)
		if err == nil || !strings.Contains(err.Error(), "the store is password protected: its pages redirect to https://shop.example/password") {
			t.Errorf("%s: %v %v, want the password page named", path, cols, err)
		}
	}
}

// Discovery gives every collection the store's currency, which products.json does not
// carry: from the home page (Shopify.currency, OpenGraph or JSON-LD), else from a product
// page the home page links to.
func TestDiscoverGivesTheStoresCurrency(t *testing.T) {
	base := "https://shop.example"
	for _, tc := range []struct {
		name, home string
		pages      sdktest.Pages
		want       string
	}{
		{"Shopify.currency", `<script>window.Shopify={};Shopify.currency = {"active":"EUR","rate":"1.0"};</script>`, nil, "EUR"},
		{"OpenGraph", `<meta property="og:price:currency" content="gbp">`, nil, "GBP"},
		{"a product page", `<a href="/products/mug">Mug</a>`, sdktest.Pages{base + "/products/mug": {URL: base + "/products/mug", Status: 200,
			Body: []byte(`<script type="application/ld+json">{"@type":"Product","offers":{"priceCurrency":"CAD","price":"9"}}</script>`)}}, "CAD"},
		{"nowhere", `<a href="/pages/about">About</a>`, nil, ""},
	} {
		for path, m := range paths(t) {
			home := &adapter.Document{URL: base + "/", Status: 200, Body: []byte("<html><head>" + tc.home + "</head></html>")}
			pages := sdktest.Pages{}
			for u, d := range tc.pages {
				pages[u] = d
			}
			set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
			cols, err := set.Discover(context.Background(), "shopify", home)
			if err != nil || len(cols) == 0 {
				t.Fatalf("%s/%s: %v %v", tc.name, path, cols, err)
			}
			for _, c := range cols {
				if c.Currency != tc.want {
					t.Errorf("%s/%s: collection %s in %q, want %q", tc.name, path, c.Handle, c.Currency, tc.want)
				}
			}
		}
	}
}
