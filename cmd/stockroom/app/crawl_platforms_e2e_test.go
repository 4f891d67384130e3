package app

import (
	"fmt"
	"math"
	"net/url"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/urlnorm"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// platformCase is a demo store of a platform the built-in adapters know, and what a crawl
// and an extraction of it must find.
type platformCase struct {
	name     string
	store    demostore.Options
	platform string
	currency string
	// listing is the price a product's tile shows; product the price its page shows and
	// the variants it carries.
	listing func(p demostore.Product) (current, compareAt demostore.Money)
	product func(p demostore.Product) (current, compareAt demostore.Money, variants int)
	// check looks at the store's counters after the crawl.
	check func(t *testing.T, shop *demostore.Running)
}

// TestCrawlOfPlatformStoresFillsTheCatalogExactly crawls a WooCommerce store through its
// Store API, the same store with the API closed to crawlers (robots.txt) through its
// category archives, a Magento store through its category pages and a headless
// (Next.js) store through its pages' embedded state, each to completion: every collection and listing found, every listing's price and currency as
// its tile shows it. Then ten products of each, sale items, variable products and
// products sold out among them, are extracted through the API and checked field by
// field.
func TestCrawlOfPlatformStoresFillsTheCatalogExactly(t *testing.T) {
	for _, c := range []platformCase{
		{
			name: "woocommerce", platform: "woocommerce", currency: "EUR",
			store:   demostore.Options{Kind: demostore.WooCommerce, Products: 300},
			listing: wooListingPrice, product: leadProduct,
			check: func(t *testing.T, shop *demostore.Running) {
				// Through the API: a page of a hundred per category, no archive page.
				pages := 0
				for _, col := range shop.Catalog().Collections() {
					pages += (len(col.Products) + 99) / 100
				}
				st := shop.Stats()
				if st.ByRoute[demostore.RouteProductsJSON] != int64(pages) || st.ByRoute[demostore.RouteCategoryPage] != 0 {
					t.Errorf("%d Store API product pages and %d archive pages read, want %d and none",
						st.ByRoute[demostore.RouteProductsJSON], st.ByRoute[demostore.RouteCategoryPage], pages)
				}
			},
		},
		{
			name: "woocommerce without the Store API", platform: "woocommerce", currency: "EUR",
			store:   demostore.Options{Kind: demostore.WooCommerce, Products: 300, Faults: demostore.Faults{RobotsDisallow: []string{"/wp-json/"}}},
			listing: wooListingPrice, product: leadProduct,
			check: func(t *testing.T, shop *demostore.Running) {
				st := shop.Stats()
				if st.Disallowed != 0 || st.ByRoute[demostore.RouteCategoryPage] != int64(archivePages(shop)) {
					t.Errorf("%d requests robots.txt disallows, %d archive pages read, want none and %d", st.Disallowed,
						st.ByRoute[demostore.RouteCategoryPage], archivePages(shop))
				}
			},
		},
		{
			name: "magento", platform: "magento", currency: "GBP",
			store:   demostore.Options{Kind: demostore.Magento, Products: 300},
			listing: mageListingPrice, product: mageProduct,
			check: func(t *testing.T, shop *demostore.Running) {
				// Every category page once: none past the last, which Magento would answer
				// with the last page again.
				if got := shop.Stats().ByRoute[demostore.RouteCategoryPage]; got != int64(archivePages(shop)) {
					t.Errorf("%d category pages read, want %d", got, archivePages(shop))
				}
			},
		},
		{
			name: "headless", platform: "headless", currency: "EUR",
			store:   demostore.Options{Kind: demostore.Headless, Products: 300},
			listing: leadPrice, product: leadProduct,
			check: func(t *testing.T, shop *demostore.Running) {
				// Every listing page once, the later ones named by the first page's page
				// info, none past the last.
				if got := shop.Stats().ByRoute[demostore.RouteCategoryPage]; got != int64(archivePages(shop)) {
					t.Errorf("%d listing pages read, want %d", got, archivePages(shop))
				}
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func (c platformCase) run(t *testing.T) {
	s := newStack(t, c.store)
	shop := s.fleet.Stores[0]
	cat := shop.Catalog()
	started := time.Now()
	body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), 2*time.Minute)
	elapsed := time.Since(started)
	if body["status"] != "completed" || body["error"] != nil {
		t.Fatalf("crawl did not complete: %v", body)
	}
	if got := field(body, "meta", "result", "method", "platform"); got != c.platform {
		t.Errorf("crawl method %v, want the %s adapter", field(body, "meta", "result", "method"), c.platform)
	}
	collections := cat.Collections()
	if got := num(field(body, "meta", "result", "collections_total")); got != len(collections) {
		t.Errorf("collections_total %d, want %d", got, len(collections))
	}
	found := num(field(body, "meta", "result", "listings_total"))
	if found != cat.Len() {
		t.Errorf("listings_total %d, want %d", found, cat.Len())
	}
	vendor := hostOf(shop.BaseURL)
	for _, col := range collections {
		q := url.Values{"vendor": {vendor}, "collection_url": {shop.URL(shop.CategoryPath(col.Handle))}, "page_size": {"1"}}
		r := s.do("GET", "/v2/listings?"+q.Encode(), nil)
		if got := num(field(r.body, "pagination", "total_items")); got != len(col.Products) {
			t.Errorf("collection %s: %d listings, want %d", col.Handle, got, len(col.Products))
		}
	}
	c.check(t, shop)
	requests := shop.Stats().Requests
	t.Logf("%s: %d listings of %d, %d collections, %d requests (%.3f a listing), %s", c.name, found, cat.Len(),
		len(collections), requests, float64(requests)/float64(max(found, 1)), elapsed.Round(time.Millisecond))

	// Every listing's price and currency, as its tile shows them.
	listings := s.listingsOf(vendor)
	for i := range cat.Len() {
		p := cat.Product(i)
		// The catalog keeps URLs in their canonical form (without WordPress's trailing slash).
		u, err := urlnorm.Page(shop.URL(shop.ProductPath(i)))
		if err != nil {
			t.Fatal(err)
		}
		l, ok := listings[u]
		if !ok {
			t.Errorf("no listing at %s", u)
			continue
		}
		current, compareAt := c.listing(p)
		if l["name"] != p.Title || !samePrice(l["price"], current, compareAt, c.currency) {
			t.Errorf("listing %s: %v %v, want %q %s %s %s", u, l["name"], l["price"], p.Title, current, compareAt, c.currency)
		}
	}

	// Ten products, extracted exactly.
	picked := pickProducts(cat, 10)
	urls := make([]string, len(picked))
	for k, i := range picked {
		urls[k] = shop.URL(shop.ProductPath(i))
	}
	r := s.do("POST", "/v2/extract", map[string]any{"urls": urls})
	if r.status != 202 {
		t.Fatalf("start extraction: %d %s", r.status, r.raw)
	}
	done := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=100", 2*time.Minute)
	items, _ := done["data"].([]any)
	if len(items) != len(picked) {
		t.Fatalf("%d results for %d products", len(items), len(picked))
	}
	for k, i := range picked {
		p := cat.Product(i)
		item := items[k].(map[string]any)
		got, _ := item["product"].(map[string]any)
		if got == nil {
			t.Errorf("product %s: %v", urls[k], item)
			continue
		}
		current, compareAt, variants := c.product(p)
		gotVariants, _ := got["variants"].([]any)
		if got["title"] != p.Title || !samePrice(got["price"], current, compareAt, c.currency) || got["is_available"] != p.Available() ||
			len(gotVariants) != variants {
			t.Errorf("product %s: %q %v available %v, %d variants; want %q %s %s %s, available %v, %d variants", urls[k],
				got["title"], got["price"], got["is_available"], len(gotVariants), p.Title, current, compareAt, c.currency, p.Available(), variants)
		}
	}
}

// The platform adapters claim only their own platforms: the other demo stores are read
// as before, by the Shopify adapter and the generic ones.
func TestPlatformAdaptersLeaveTheOtherDemoStores(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.Shopify, Products: 30}, demostore.Options{Kind: demostore.JSONLD, Products: 30},
		demostore.Options{Kind: demostore.HTML, Products: 30})
	for _, want := range []struct {
		kind     demostore.Kind
		platform string
	}{{demostore.Shopify, "shopify"}, {demostore.JSONLD, ""}, {demostore.HTML, ""}} {
		shop := s.fleet.Get(want.kind)
		body := s.waitEnded("/v2/crawl/"+s.startCrawl(shop.BaseURL), time.Minute)
		if got := field(body, "meta", "result", "method", "platform"); body["status"] != "completed" || got != want.platform {
			t.Errorf("%s store: %v, method %v, want platform %q", want.kind, body["status"], field(body, "meta", "result", "method"), want.platform)
		}
	}
}

// samePrice reports whether an API price object holds exactly current, compareAt (0: none)
// and currency.
func samePrice(v any, current, compareAt demostore.Money, currency string) bool {
	p, ok := v.(map[string]any)
	if !ok || p["currency"] != currency || !sameMoney(p["current_value"], current) {
		return false
	}
	if compareAt == 0 {
		return p["compare_at_value"] == nil
	}
	return sameMoney(p["compare_at_value"], compareAt)
}

func sameMoney(v any, m demostore.Money) bool {
	f, ok := v.(float64)
	return ok && math.Round(f*100) == float64(m)
}

// pickProducts picks n products of the catalogue, two of each kind while there are: on
// sale with one price, on sale with options, without options, with options, sold out.
func pickProducts(cat *demostore.Catalog, n int) []int {
	kinds := []func(p demostore.Product) bool{
		func(p demostore.Product) bool { return simple(p) && onSale(p) && p.Available() },
		func(p demostore.Product) bool { return !simple(p) && onSale(p) && p.Available() },
		func(p demostore.Product) bool { return simple(p) && !onSale(p) && p.Available() },
		func(p demostore.Product) bool { return !simple(p) && !onSale(p) && p.Available() },
		func(p demostore.Product) bool { return !p.Available() },
	}
	var out []int
	taken := map[int]bool{}
	for len(out) < n {
		before := len(out)
		for _, kind := range kinds {
			for i := range cat.Len() {
				if !taken[i] && kind(cat.Product(i)) {
					taken[i] = true
					out = append(out, i)
					break
				}
			}
			if len(out) == n {
				break
			}
		}
		if len(out) == before {
			panic(fmt.Sprintf("the catalogue has %d products, fewer than %d", len(out), n))
		}
	}
	return out
}

// simple reports whether p has no options: a simple product on both platforms.
func simple(p demostore.Product) bool { return len(p.Options) == 1 && p.Options[0].Name == "Title" }

func onSale(p demostore.Product) bool {
	v := p.LeadVariant()
	return v.CompareAtPrice > v.Price
}

// archivePages is the number of listing pages of all the store's collections.
func archivePages(shop *demostore.Running) int {
	n := 0
	for _, col := range shop.Catalog().Collections() {
		n += shop.CategoryPages(col.Handle)
	}
	return n
}

// wooListingPrice is a WooCommerce tile's price: the lowest price, and the regular price
// struck only when every variation costs the same and is on sale.
func wooListingPrice(p demostore.Product) (current, compareAt demostore.Money) {
	var high, lowRegular, highRegular demostore.Money
	for k, v := range p.Variants {
		regular := max(v.CompareAtPrice, v.Price)
		if k == 0 {
			current, high, lowRegular, highRegular = v.Price, v.Price, regular, regular
		}
		current, high = min(current, v.Price), max(high, v.Price)
		lowRegular, highRegular = min(lowRegular, regular), max(highRegular, regular)
	}
	if current == high && lowRegular == highRegular && lowRegular > current {
		compareAt = lowRegular
	}
	return current, compareAt
}

// leadPrice is the price of the variant a product page starts on: the first in stock,
// else the first.
func leadPrice(p demostore.Product) (current, compareAt demostore.Money) {
	v := p.LeadVariant()
	if v.CompareAtPrice > v.Price {
		compareAt = v.CompareAtPrice
	}
	return v.Price, compareAt
}

// leadProduct is a product page's price, that of the variant it starts on (a WooCommerce
// variable product's form, a headless page's first variant in stock), and its variants:
// none for a product without options.
func leadProduct(p demostore.Product) (current, compareAt demostore.Money, variants int) {
	current, compareAt = leadPrice(p)
	if !simple(p) {
		variants = len(p.Variants)
	}
	return current, compareAt, variants
}

// mageListingPrice is a Luma tile's price: a simple product's, with its old price on a
// sale; the cheapest child in stock of a configurable product (of all of them when none
// is), without an old price.
func mageListingPrice(p demostore.Product) (current, compareAt demostore.Money) {
	if simple(p) {
		v := p.Variants[0]
		if v.CompareAtPrice > v.Price {
			compareAt = v.CompareAtPrice
		}
		return v.Price, compareAt
	}
	first := true
	for _, v := range p.Variants {
		if (v.Available || !p.Available()) && (first || v.Price < current) {
			current, first = v.Price, false
		}
	}
	return current, 0
}

// mageProduct is a Luma product page's price and children: a configurable product in
// stock is priced as its first child in stock; one sold out shows only its price box,
// without its children.
func mageProduct(p demostore.Product) (current, compareAt demostore.Money, variants int) {
	if simple(p) || p.Available() {
		current, compareAt = leadPrice(p)
		if !simple(p) {
			variants = len(p.Variants)
		}
		return current, compareAt, variants
	}
	current, _ = mageListingPrice(p)
	return current, 0, 0
}
