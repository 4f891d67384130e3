package magento

import (
	"cmp"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Discover lists the categories of the store's top menu: Magento renders each as a
// li.category-item, at every level, so a parent category and its children are all
// collections (a parent's page lists its children's products too). The menu's other
// links, and the footer's (contact, orders and returns, legal pages), are not.
func (Adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	home := c.Page()
	if home == nil || !home.OK() {
		return nil, sdk.Fail("no home page")
	}
	site, err := url.Parse(c.URL())
	if err != nil || site.Host == "" {
		return nil, sdk.Fail("bad site URL %q", c.URL())
	}
	links := sdk.Nodes(home.HTML().Select("li.category-item > a"))
	hrefs, titles := links.Attr("href"), links.Text()
	var out []sdk.Collection
	seen := map[string]bool{}
	for i, href := range hrefs {
		ref, err := url.Parse(strings.TrimSpace(href))
		if err != nil {
			continue
		}
		u := site.ResolveReference(ref)
		u.Fragment = ""
		if u.Host != site.Host || seen[u.String()] {
			continue
		}
		seen[u.String()] = true
		handle := strings.TrimSuffix(strings.Trim(u.Path, "/"), ".html")
		out = append(out, sdk.Collection{URL: u.String(), Handle: handle, Title: titles[i]})
	}
	return out, nil
}

// List reads one page of a category; cursors are page numbers, the page's ?p=N. Magento
// answers a page number past the last with the last page again: a page that says it is
// another page than the one asked for ends the category.
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	n, err := storefront.PageNumber(c.Cursor())
	if err != nil {
		return sdk.Page{}, err
	}
	pageURL, err := categoryPage(c.URL(), n)
	if err != nil {
		return sdk.Page{}, sdk.Fail("not a category URL: %q", c.URL())
	}
	d := c.Need(pageURL)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		if n > 1 && d.Status == 404 {
			return sdk.Page{}, nil
		}
		return sdk.Page{}, sdk.Fail("category page %d: %s", n, d.Failure())
	}
	root := d.HTML()
	pager := root.SelectOne(".pages")
	if current := storefront.LastNumber(pager.SelectOne(".item.current").Text()); n > 1 && current != n {
		return sdk.Page{}, nil
	}
	currency := switcherCurrency(root)
	if currency == "" {
		currency = sdk.PageLocale(d, pageURL).Currency()
	}
	page := sdk.Page{Listings: tiles(root, pageURL, currency)}
	if len(page.Listings) == 0 {
		return page, nil
	}
	// "Items 1-12 of 48", or "5 Items" when one page holds them all.
	page.Total = storefront.LastNumber(root.SelectOne(".toolbar-amount").Text())
	if pager.SelectOne(".pages-item-next a, a.next").Exists() {
		page.Next = strconv.Itoa(n + 1)
	}
	if n == 1 {
		page.Ahead = storefront.PagesAhead("", n, storefront.LastPage(page.Total, len(page.Listings)))
		if len(page.Ahead) > 0 {
			page.Next = page.Ahead[0]
		}
	}
	return page, nil
}

// categoryPage is page n of the category at rawURL: its ?p=N.
func categoryPage(rawURL string, n int) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	q := u.Query()
	if n == 1 {
		q.Del("p")
	} else {
		q.Set("p", strconv.Itoa(n))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// tiles reads the product tiles of a category page (li.product-item), the questions of
// every tile asked together. A tile's price box holds the final price the shopper pays
// (data-price-amount of data-price-type="finalPrice", "As low as" for a configurable
// product) and, on a sale of a simple product, the old price. The currency is the one
// the symbol of the displayed price names, currencyHint being the page's (sdk.ParseAmount).
func tiles(root sdk.Node, pageURL, currencyHint string) []sdk.Listing {
	items := sdk.Nodes(root.Select("li.product-item"))
	if len(items) == 0 {
		return nil
	}
	resolve := storefront.Resolver(pageURL)
	links := items.SelectOne("a.product-item-link")
	hrefs, titles := links.Attr("href"), links.Text()
	ids := items.SelectOne(".price-box[data-product-id]").Attr("data-product-id")
	finals := items.SelectOne(`[data-price-type="finalPrice"]`).Attr("data-price-amount")
	olds := items.SelectOne(`[data-price-type="oldPrice"]`).Attr("data-price-amount")
	shown := items.SelectOne(".price").Text()
	images := items.SelectOne("img.product-image-photo")
	srcs, alts := images.Attr("src"), images.Attr("alt")
	var out []sdk.Listing
	for i := range items {
		if hrefs[i] == "" {
			continue
		}
		l := sdk.Listing{URL: resolve(hrefs[i]), ID: ids[i], Title: titles[i]}
		if final, ok := sdk.ParseMachinePrice(finals[i]); ok {
			_, currency, _ := sdk.ParseAmount(shown[i], currencyHint)
			l.Price = &sdk.Price{Current: storefront.Cents(final), Currency: cmp.Or(currency, currencyHint)}
			if old, ok := sdk.ParseMachinePrice(olds[i]); ok && storefront.Cents(old) > l.Price.Current {
				was := storefront.Cents(old)
				l.Price.CompareAt = &was
			}
		}
		if srcs[i] != "" {
			l.Images = []sdk.Image{{URL: resolve(srcs[i]), AltText: storefront.NonEmpty(alts[i]), Position: 1}}
		}
		out = append(out, l)
	}
	return out
}

// switcherCurrency is the currency a store with several shows as chosen in its currency
// switcher (<strong class="language-GBP">), or "".
func switcherCurrency(root sdk.Node) string {
	class := root.SelectOne(`.switcher-currency .switcher-trigger strong[class^="language-"]`).Attr("class")
	code, ok := strings.CutPrefix(class, "language-")
	if !ok || len(code) != 3 {
		return ""
	}
	return strings.ToUpper(code)
}
