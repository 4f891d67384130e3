package woocommerce

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// The Store API is WooCommerce's public, unauthenticated REST API for storefronts
// (/wp-json/wc/store/v1/). A store may close it (a security plugin, a robots.txt rule, a
// login wall), and then it answers 401, 403 or 404 and the storefront is read instead.

// storeAPIPageSize is the most products the Store API answers a page.
const storeAPIPageSize = 100

// storeAPI is the Store API's root on the site at base: WordPress serves its REST API
// under /wp-json/ with pretty permalinks, the setting stores run on.
func storeAPI(base string) string { return base + "/wp-json/wc/store/v1" }

// categoriesURL lists every product category with its permalink and product count.
func categoriesURL(base string) string { return storeAPI(base) + "/products/categories" }

// productsURL is one page of the products of a category.
func productsURL(base, category string, page int) string {
	q := url.Values{"category": {category}, "per_page": {strconv.Itoa(storeAPIPageSize)}, "page": {strconv.Itoa(page)}}
	return storeAPI(base) + "/products?" + q.Encode()
}

// category is a product category as the Store API describes it.
type category struct {
	id, slug, name, permalink string
	count                     int
}

// categories reads the Store API's category list; ok is false when the document is not
// one (the API is closed, or something else answered).
func categories(d *sdk.Doc) (out []category, ok bool) {
	if !d.OK() {
		return nil, false
	}
	list := d.JSON()
	if list.Kind() != sdk.Array {
		return nil, false
	}
	for _, v := range list.Array() {
		f := v.Strings("id", "slug", "permalink", "count")
		if f[0] == "" || f[2] == "" {
			continue
		}
		n, _ := strconv.Atoi(f[3])
		out = append(out, category{id: f[0], slug: f[1], name: v.Get("name").HTMLText(), permalink: f[2], count: n})
	}
	return out, true
}

// samePage reports whether two URLs name the same page: WordPress links a category with
// a trailing slash and may be asked without one.
func samePage(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// listStoreAPI lists one page of a category through the Store API. The first page
// (cursor "") finds the category's id in the category list; later cursors carry it
// ("api:ID:PAGE"). ok is false when the API is closed or does not know the category, and
// the storefront is read instead.
func listStoreAPI(c *sdk.Call, base string) (page sdk.Page, ok bool, err error) {
	id, n := "", 1
	if rest, found := strings.CutPrefix(c.Cursor(), apiCursor); found {
		var num string
		id, num, _ = strings.Cut(rest, ":")
		if n, err = storefront.PageNumber(num); err != nil || id == "" {
			return sdk.Page{}, false, sdk.Fail("bad cursor %q", c.Cursor())
		}
	} else {
		d := c.Need(categoriesURL(base))
		if d == nil {
			return sdk.Page{}, false, sdk.ErrPending
		}
		cats, open := categories(d)
		if !open {
			return sdk.Page{}, false, nil
		}
		for _, cat := range cats {
			if samePage(cat.permalink, c.URL()) {
				id = cat.id
				break
			}
		}
		if id == "" {
			return sdk.Page{}, false, nil
		}
	}
	d := c.Need(productsURL(base, id, n))
	if d == nil {
		return sdk.Page{}, false, sdk.ErrPending
	}
	products := d.JSON()
	if !d.OK() || products.Kind() != sdk.Array {
		if n > 1 && (d.Status == 400 || d.Status == 404) {
			// Past the last page: WordPress answers rest_post_invalid_page_number.
			return sdk.Page{}, true, nil
		}
		return sdk.Page{}, false, sdk.Fail("Store API products of category %s, page %d: %s", id, n, d.Failure())
	}
	for _, p := range products.Array() {
		if l, ok := apiListing(p); ok {
			page.Listings = append(page.Listings, l)
		}
	}
	pages, _ := strconv.Atoi(d.Header("X-WP-TotalPages"))
	page.Total, _ = strconv.Atoi(d.Header("X-WP-Total"))
	if n < pages {
		page.Next = apiCursor + id + ":" + strconv.Itoa(n+1)
		if n == 1 {
			page.Ahead = storefront.PagesAhead(apiCursor+id+":", n, pages)
		}
	}
	return page, true, nil
}

// apiCursor starts the cursors of pages listed through the Store API.
const apiCursor = "api:"

// apiListing reads a product of the Store API. Its prices are strings of minor units
// ("1250" is 12.50 with currency_minor_unit 2). A variable product's price is its
// cheapest variation's; the regular price counts as a compare-at price only when all its
// variations cost the same, as its tile shows a struck price only then.
func apiListing(p sdk.Value) (sdk.Listing, bool) {
	f := p.Strings("permalink", "id", "prices.price", "prices.regular_price", "prices.currency_code",
		"prices.currency_minor_unit", "prices.price_range.min_amount", "images.0.src", "images.0.alt")
	link, id, price, regular, currency, unit, low, image, alt := f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]
	if link == "" {
		return sdk.Listing{}, false
	}
	l := sdk.Listing{URL: link, ID: id, Title: p.Get("name").HTMLText()}
	decimals, err := strconv.Atoi(unit)
	if err != nil {
		decimals = 2
	}
	if current, ok := minorUnits(price, decimals); ok {
		if lowest, ok := minorUnits(low, decimals); ok {
			current = lowest
		}
		l.Price = &sdk.Price{Current: current, Currency: strings.ToUpper(currency)}
		if was, ok := minorUnits(regular, decimals); ok && was > current && low == "" {
			l.Price.CompareAt = &was
		}
	}
	if image != "" {
		l.Images = []sdk.Image{{URL: image, AltText: storefront.NonEmpty(alt), Position: 1}}
	}
	return l, true
}

// minorUnits reads an amount in minor units ("1250") with unit decimals.
func minorUnits(s string, unit int) (float64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, false
	}
	return float64(n) / math.Pow10(unit), true
}
