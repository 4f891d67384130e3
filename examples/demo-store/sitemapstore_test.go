package demostore_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

var locRe = regexp.MustCompile(`<loc>([^<]+)</loc>`)

// sitemapLocs fetches a sitemap file and returns its locations, gunzipping a gzip file;
// it reports whether the file came as a gzip file and whether it came gzipped on the way.
func sitemapLocs(t *testing.T, url string) (locs []string, gzipFile, gzipped bool) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	body, _ := io.ReadAll(resp.Body)
	gzipFile = resp.Header.Get("Content-Type") == "application/x-gzip"
	gzipped = resp.Header.Get("Content-Encoding") == "gzip"
	if gzipFile || gzipped {
		z, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		if body, err = io.ReadAll(z); err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
	}
	for _, m := range locRe.FindAllStringSubmatch(string(body), -1) {
		locs = append(locs, m[1])
	}
	return locs, gzipFile, gzipped
}

// The sitemap store's home page links no category; robots.txt announces a nested,
// partly gzipped sitemap index that names every category but the first, every product
// in English, and twenty in German.
func TestSitemapStoreIsReachedOnlyThroughItsSitemaps(t *testing.T) {
	shop := start(t, demostore.Options{Kind: demostore.Sitemap, Products: 250}).Get(demostore.Sitemap)
	if shop.Currency() != "GBP" {
		t.Errorf("currency %s, want GBP by default", shop.Currency())
	}
	for _, h := range hrefs(getOK(t, shop.URL("/"))) {
		if strings.Contains(h, "/c/") {
			t.Errorf("the home page links the category %s", h)
		}
	}
	if robots := getOK(t, shop.URL("/robots.txt")); !strings.Contains(robots, "Sitemap: "+shop.URL("/sitemaps/index.xml")) {
		t.Errorf("robots.txt announces no sitemap index: %q", robots)
	}
	index, _, _ := sitemapLocs(t, shop.URL("/sitemaps/index.xml"))
	if want := []string{shop.URL("/sitemaps/catalog.xml.gz"), shop.URL("/sitemaps/pages.xml")}; !slices.Equal(index, want) {
		t.Fatalf("index names %q, want %q", index, want)
	}
	files, gzipFile, _ := sitemapLocs(t, index[0])
	if !gzipFile || len(files) != 5 { // categories, three product files, the German one
		t.Fatalf("catalog index (a gzip file: %v) names %q", gzipFile, files)
	}
	var categories, products, german []string
	for _, f := range files {
		locs, gzipFile, gzipped := sitemapLocs(t, f)
		switch {
		case strings.HasSuffix(f, "categories.xml"):
			categories = locs
		case strings.HasSuffix(f, "products-de.xml"):
			german = locs
		default:
			products = append(products, locs...)
			if strings.HasSuffix(f, ".gz") != gzipFile || gzipFile == gzipped {
				t.Errorf("%s: a gzip file %v, gzipped on the way %v", f, gzipFile, gzipped)
			}
		}
	}
	cat := shop.Catalog()
	var want []string
	for _, c := range shop.SitemapCategories() {
		want = append(want, shop.URL(shop.CategoryPath(c.Handle)))
	}
	if !slices.Equal(categories, want) || slices.Contains(categories, shop.URL(shop.CategoryPath(cat.Collections()[0].Handle))) {
		t.Errorf("categories %q, want %q", categories, want)
	}
	if len(products) != cat.Len() || products[0] != shop.URL(shop.ProductPath(0)) {
		t.Errorf("%d product pages, want %d", len(products), cat.Len())
	}
	if len(german) != 20 || german[0] != shop.URL("/de"+shop.ProductPath(0)) {
		t.Errorf("German pages %q", german)
	}
	gifts, ok := cat.Collection("gift-ideas")
	if !ok || len(gifts.Products) != 1 {
		t.Errorf("gift-ideas: %+v, want one product", gifts)
	}
	if page := getOK(t, shop.URL(shop.CategoryPath("gift-ideas"))); !strings.Contains(page, shop.URL(shop.ProductPath(int(gifts.Products[0])))) {
		t.Error("the gift-ideas page does not list its product")
	}
}
