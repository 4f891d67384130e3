package woocommerce

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// List lists one page of a product category: through the Store API when it is open
// (cursors "api:ID:PAGE"), else from the storefront's category archive (cursors are page
// numbers, the archive's /page/N/).
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	base := storefront.Origin(c.URL())
	if base == "" {
		return sdk.Page{}, sdk.Fail("not a category URL: %q", c.URL())
	}
	if c.Cursor() == "" || strings.HasPrefix(c.Cursor(), apiCursor) {
		page, listed, err := listStoreAPI(c, base)
		if err != nil || listed {
			return page, err
		}
		if c.Cursor() != "" {
			return sdk.Page{}, sdk.Fail("the Store API no longer answers for %s", c.URL())
		}
	}
	return listArchive(c)
}

// listArchive lists one page of a storefront category archive.
func listArchive(c *sdk.Call) (sdk.Page, error) {
	n, err := storefront.PageNumber(c.Cursor())
	if err != nil {
		return sdk.Page{}, err
	}
	pageURL := archivePage(c.URL(), n)
	d := c.Need(pageURL)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		if n > 1 && d.Status == 404 {
			// WordPress answers 404 past an archive's last page.
			return sdk.Page{}, nil
		}
		return sdk.Page{}, sdk.Fail("category page %d: %s", n, d.Failure())
	}
	root := d.HTML()
	page := sdk.Page{Listings: tileListings(root, pageURL, sdk.PageLocale(d, pageURL).Currency())}
	if len(page.Listings) == 0 {
		return page, nil
	}
	// "Showing 1–24 of 300 results", in the store's language; "Showing all 5 results".
	page.Total = storefront.LastNumber(root.SelectOne(".woocommerce-result-count").Text())
	if root.SelectOne(".woocommerce-pagination a.next, a.next.page-numbers").Exists() {
		page.Next = strconv.Itoa(n + 1)
	}
	if n == 1 {
		// The first page is a full one: the count over its size is the last page.
		last := storefront.LastPage(page.Total, len(page.Listings))
		if last == 0 {
			last = highestPageLink(root)
		}
		page.Ahead = storefront.PagesAhead("", n, last)
		if len(page.Ahead) > 0 {
			page.Next = page.Ahead[0]
		}
	}
	return page, nil
}

// archivePage is page n of a category archive: /page/N/ after the archive's path, or the
// paged parameter on a site without pretty permalinks (?product_cat=slug).
func archivePage(archive string, n int) string {
	if n == 1 {
		return archive
	}
	u, err := url.Parse(archive)
	if err != nil {
		return archive
	}
	if u.RawQuery != "" {
		q := u.Query()
		q.Set("paged", strconv.Itoa(n))
		u.RawQuery = q.Encode()
		return u.String()
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/page/" + strconv.Itoa(n) + "/"
	return u.String()
}

// highestPageLink is the highest page number the archive's pagination links to.
func highestPageLink(root sdk.Node) int {
	highest := 0
	for _, t := range sdk.Nodes(root.Select(".woocommerce-pagination .page-numbers")).Text() {
		if n, err := strconv.Atoi(strings.TrimSpace(t)); err == nil && n > highest {
			highest = n
		}
	}
	return highest
}

// tileListings reads the product tiles of a page (ul.products li.product, leaving out
// the category tiles a shop page may show among them), the questions of every tile asked
// together. currencyHint is the currency of the page's territory.
func tileListings(root sdk.Node, pageURL, currencyHint string) []sdk.Listing {
	tiles := sdk.Nodes(root.Select("ul.products li.product:not(.product-category)"))
	if len(tiles) == 0 {
		return nil
	}
	resolve := storefront.Resolver(pageURL)
	hrefs := tiles.SelectOne("a.woocommerce-LoopProduct-link, a.woocommerce-loop-product__link, a[href]").Attr("href")
	titles := tiles.SelectOne(".woocommerce-loop-product__title, h2, h3").Text()
	ids := tiles.SelectOne("[data-product_id]").Attr("data-product_id")
	prices := tiles.SelectOne(".price")
	images := tiles.SelectOne("img")
	srcs, alts := images.Attr("src"), images.Attr("alt")
	var out []sdk.Listing
	for i := range tiles {
		u := resolve(hrefs[i])
		if u == "" {
			continue
		}
		l := sdk.Listing{URL: u, ID: ids[i], Title: titles[i], Price: shownPrice(prices[i], currencyHint)}
		if srcs[i] != "" && !strings.HasPrefix(srcs[i], "data:") {
			l.Images = []sdk.Image{{URL: resolve(srcs[i]), AltText: storefront.NonEmpty(alts[i]), Position: 1}}
		}
		out = append(out, l)
	}
	return out
}
