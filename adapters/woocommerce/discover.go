package woocommerce

import (
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// categoryBases are the path segments WooCommerce puts before a product category's slug,
// in English and as its translations set them (German, French, Spanish, Italian, Dutch).
var categoryBases = []string{"product-category", "produkt-kategorie", "categorie-produit", "categoria-producto",
	"categoria-prodotto", "productcategorie"}

// Discover lists the store's product categories: from the Store API when it is open,
// each with its permalink and product count; else from the home page's links to category
// archives.
func (Adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	base := storefront.Origin(c.URL())
	if base == "" {
		return nil, sdk.Fail("bad site URL %q", c.URL())
	}
	d := c.Need(categoriesURL(base))
	if d == nil {
		return nil, sdk.ErrPending
	}
	if cats, open := categories(d); open && len(cats) > 0 {
		out := make([]sdk.Collection, 0, len(cats))
		for _, cat := range cats {
			n := cat.count
			out = append(out, sdk.Collection{URL: cat.permalink, Handle: cat.slug, Title: cat.name, ProductsCount: &n})
		}
		return out, nil
	}
	home := c.Page()
	if home == nil || !home.OK() {
		return nil, sdk.Fail("no home page")
	}
	return menuCategories(home, c.URL()), nil
}

// menuCategories are the product categories a storefront page links to: its menu items
// for product categories (WordPress marks them menu-item-object-product_cat), the
// category tiles of a shop page (li.product-category, with the count they show), the
// product categories widget, and any other link under a category base. Contact, cart,
// account and legal pages are none of these.
func menuCategories(page *sdk.Doc, pageURL string) []sdk.Collection {
	root := page.HTML()
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	var out []sdk.Collection
	seen := map[string]int{}
	links := root.Select(`li.menu-item-object-product_cat > a, li.product-category > a, li.cat-item > a, a[href*="-kategorie/"], a[href*="-category/"], a[href*="categorie-produit/"], a[href*="categoria-"], a[href*="productcategorie/"]`)
	hrefs := sdk.Nodes(links).Attr("href")
	for i, a := range links {
		ref, err := url.Parse(strings.TrimSpace(hrefs[i]))
		if err != nil {
			continue
		}
		u := base.ResolveReference(ref)
		u.Fragment = ""
		if u.Host != base.Host || !isCategoryPath(u.Path, a) {
			continue
		}
		key := u.String()
		title, count := categoryTitle(a)
		if k, ok := seen[key]; ok {
			// A menu and a category tile both link it: keep the count the tile shows.
			if out[k].ProductsCount == nil && count != nil {
				out[k].ProductsCount = count
			}
			continue
		}
		seen[key] = len(out)
		out = append(out, sdk.Collection{URL: key, Handle: lastSegment(u.Path), Title: title, ProductsCount: count})
	}
	return out
}

// isCategoryPath reports whether a link is a product category archive: its path is under
// a category base, or the menu marks it as one (a store may rename the base).
func isCategoryPath(path string, a sdk.Node) bool {
	for _, seg := range strings.Split(path, "/") {
		for _, b := range categoryBases {
			if seg == b {
				return true
			}
		}
	}
	return a.Ancestor("li.menu-item-object-product_cat, li.product-category").Exists()
}

// categoryTitle is a category link's name and, on a category tile ("Kleidung (12)"), the
// count it shows.
func categoryTitle(a sdk.Node) (string, *int) {
	heading := a.SelectOne(".woocommerce-loop-category__title")
	if !heading.Exists() {
		return a.Text(), nil
	}
	var count *int
	if mark := heading.SelectOne("mark.count"); mark.Exists() {
		if n := storefront.LastNumber(mark.Text()); n > 0 {
			count = &n
		}
	}
	return strings.TrimSpace(strings.Join(heading.Texts("mark"), " ")), count
}

// lastSegment is the last non-empty segment of a path ("/a/b/" is "b").
func lastSegment(path string) string {
	path = strings.TrimSuffix(path, "/")
	return path[strings.LastIndexByte(path, '/')+1:]
}
