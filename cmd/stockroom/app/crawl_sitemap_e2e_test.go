package app

import (
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A store whose home page links no category is crawled to completion from its sitemaps:
// robots.txt announces a nested, partly gzipped index; its categories are listed from
// their pages, and the products no listed category holds are read from their own pages.
// Every product is found once (its German page is the same product), each collection
// holds exactly its products, and every listing has the price the store shows.
func TestCrawlOfASitemapOnlyStoreFillsTheCatalogExactly(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Sitemap, Products: 300})
	shop := s.fleet.Get(demostore.Sitemap)
	started := time.Now()
	id := s.startCrawl(shop.BaseURL)
	body := s.waitEnded("/v2/crawl/"+id, 2*time.Minute)
	if body["status"] != "completed" || body["error"] != nil {
		t.Fatalf("crawl did not complete: %v", body)
	}
	elapsed := time.Since(started)
	cat := shop.Catalog()

	// The products no category of the sitemaps holds are the sitemap's own collection.
	inCategory := map[int]bool{}
	for _, c := range shop.SitemapCategories() {
		for _, i := range c.Products {
			inCategory[int(i)] = true
		}
	}
	var orphans int
	for i := range cat.Len() {
		if !inCategory[i] {
			orphans++
		}
	}
	if orphans == 0 {
		t.Fatal("the store has no product outside its sitemap's categories: nothing is read from product pages")
	}
	wantCollections := len(shop.SitemapCategories()) + 1
	if got := num(field(body, "meta", "result", "collections_total")); got != wantCollections {
		t.Errorf("collections_total %d, want %d", got, wantCollections)
	}
	if got := num(field(body, "meta", "result", "listings_total")); got != cat.Len() {
		t.Errorf("listings_total %d, want %d", got, cat.Len())
	}
	if src := field(body, "meta", "result", "method", "source"); src != "sitemap" {
		t.Errorf("method source %v, want sitemap; reason: %v", src, field(body, "meta", "result", "method", "reason"))
	}
	reason, _ := field(body, "meta", "result", "method", "reason").(string)
	for _, says := range []string{
		// Its menu's information pages (about us, contact, shipping and returns) are
		// none, and none is taken for one.
		"the home page links no category;",
		"the sitemaps robots.txt names (" + shop.URL("/sitemaps/index.xml") + ")",
		strconv.Itoa(orphans) + " products in no category read from their own pages",
	} {
		if !strings.Contains(reason, says) {
			t.Errorf("reason %q does not say %q", reason, says)
		}
	}

	vendor := hostOf(shop.BaseURL)
	count := func(collectionURL string) int {
		q := url.Values{"vendor": {vendor}, "collection_url": {collectionURL}, "page_size": {"1"}}
		return num(field(s.do("GET", "/v2/listings?"+q.Encode(), nil).body, "pagination", "total_items"))
	}
	for _, c := range shop.SitemapCategories() {
		if got := count(shop.URL(shop.CategoryPath(c.Handle))); got != len(c.Products) {
			t.Errorf("collection %s: %d listings, want %d", c.Handle, got, len(c.Products))
		}
	}
	if got := count(shop.URL("/sitemaps/index.xml")); got != orphans {
		t.Errorf("the sitemap's collection: %d listings, want %d", got, orphans)
	}
	if got := count(shop.URL("/info/shipping-returns")); got != 0 {
		t.Errorf("the shipping page, a menu link, holds %d listings", got)
	}

	// Every listing, with its price as the store shows it. A product read from its own
	// page has its currency from the page's £; one read from a category tile has none
	// yet, as the html adapter reads tiles today (issue 42, item 4).
	seen := 0
	for page := 1; ; page++ {
		r := s.do("GET", "/v2/listings?page_size=100&page="+strconv.Itoa(page)+"&vendor="+vendor, nil)
		data, _ := r.body["data"].([]any)
		for _, d := range data {
			l := d.(map[string]any)
			seen++
			u, _ := l["url"].(string)
			i, ok := cat.Lookup(path.Base(u))
			if !ok || !strings.HasPrefix(u, shop.URL("/p/")) {
				t.Errorf("listing %s is no product of the store's", u)
				continue
			}
			p := cat.Product(i)
			lead := p.LeadVariant()
			price, _ := l["price"].(map[string]any)
			if !inCategory[i] && !p.Available() {
				// A sold-out product's page shows other products' prices, not its own:
				// the html adapter takes none.
				if price != nil {
					t.Errorf("%s, sold out, read from its page with price %v", u, price)
				}
				continue
			}
			want, _ := strconv.ParseFloat(lead.Price.String(), 64)
			if price == nil || price["current_value"] != want || price["compare_at_value"] != nil {
				t.Errorf("%s: price %v, want %v with no compare-at", u, price, want)
				continue
			}
			switch currency := price["currency"]; {
			case currency == "GBP":
			case currency == nil && inCategory[i]:
			default:
				t.Errorf("%s (in a category: %v): currency %q, want GBP", u, inCategory[i], currency)
			}
		}
		if len(data) < 100 {
			break
		}
	}
	if seen != cat.Len() {
		t.Errorf("%d listings read, want %d", seen, cat.Len())
	}

	// The figures of issue 42: every product found, at what cost in requests.
	st := shop.Stats()
	t.Logf("sitemap-only store: %d/%d listings in %d collections, %d requests (%.2f a listing: %d product pages, %d category pages, %d sitemap files), %s with no politeness delay",
		seen, cat.Len(), wantCollections, st.Requests, float64(st.Requests)/float64(cat.Len()),
		st.ByRoute[demostore.RouteProductPage], st.ByRoute[demostore.RouteCategoryPage], st.ByRoute[demostore.RouteSitemap], elapsed.Round(time.Millisecond))
	if got := st.ByRoute[demostore.RouteProductPage]; got != int64(orphans) {
		t.Errorf("%d product pages fetched, want the %d of products in no category", got, orphans)
	}
}
