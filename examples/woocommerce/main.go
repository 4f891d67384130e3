// Command woocommerce is an example third-party Stockroom adapter for WooCommerce stores
// (WordPress). It is written only against adapters/sdk and adapters/ABI.md, as an outside
// author would, and builds with the standard Go toolchain:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o woocommerce-example.wasm .
//	stockroom adapter test woocommerce-example.wasm testdata
//	stockroom adapter install --adapters DIR woocommerce-example.wasm
//
// It reads the markup every WooCommerce theme keeps from the plugin's templates: the
// menu's product categories, the category archive's product tiles and its next-page link,
// and on a product page the title, the price block (a sale shows the regular price in
// <del> and the sale price in <ins>), the SKU, the stock line and the gallery. Stockroom
// has its own built-in WooCommerce adapter; this one is named woocommerce-example so that
// the two can be installed side by side.
package main

import (
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

type adapter struct{}

func (adapter) Info() sdk.Info {
	return sdk.Info{
		Name:        "woocommerce-example",
		Version:     "0.1.1",
		Platforms:   []string{"woocommerce"},
		URLPatterns: []string{"/product/*"},
	}
}

// Detect looks for the plugin's fingerprints: its generator tag, its assets and the
// classes its templates put on <body>.
func (adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	root := c.Page().HTML()
	var evidence []string
	if gen := root.FindOne("//meta[@name='generator' and starts-with(@content, 'WooCommerce')]"); gen.Exists() {
		evidence = append(evidence, "generator "+gen.Attr("content"))
	}
	if root.FindOne("//link[contains(@href, '/plugins/woocommerce/')] | //script[contains(@src, '/plugins/woocommerce/')]").Exists() {
		evidence = append(evidence, "woocommerce plugin assets")
	}
	if strings.Contains(" "+root.FindOne("//body").Attr("class")+" ", " woocommerce ") {
		evidence = append(evidence, "body class woocommerce")
	}
	if len(evidence) == 0 {
		return nil, nil
	}
	return &sdk.Detection{Platform: "woocommerce", Confidence: 0.5 + 0.2*float64(len(evidence)), Evidence: evidence}, nil
}

// Discover reads the product categories of the home page's menus: WordPress marks a menu
// item for a product category with the class menu-item-object-product_cat.
func (adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	var out []sdk.Collection
	for _, a := range c.Page().HTML().Select("li.menu-item-object-product_cat > a[href]") {
		out = append(out, sdk.Collection{URL: c.Resolve(a.Attr("href")), Title: a.Text()})
	}
	return out, nil
}

// List reads one page of a category archive: its product tiles and the link to the next
// page, which is the next cursor ("" is the archive's first page).
func (adapter) List(c *sdk.Call) (sdk.Page, error) {
	pageURL := c.Cursor()
	if pageURL == "" {
		pageURL = c.URL()
	}
	d := c.Need(pageURL)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		return sdk.Page{}, sdk.Fail("category page %s: %s", pageURL, d.Failure())
	}
	root := d.HTML()
	locale := root.SelectOne("html").Attr("lang")
	var page sdk.Page
	for _, tile := range root.Select("ul.products li.product") {
		link := tile.SelectOne("a[href]")
		l := sdk.Listing{URL: d.Resolve(link.Attr("href")), Title: tile.SelectOne(".woocommerce-loop-product__title").Text()}
		price := tile.SelectOne(".price")
		current := price.SelectOne("ins .amount")
		if !current.Exists() {
			current = price.SelectOne(".amount")
		}
		if f, ok := amount(current); ok {
			l.Price = &sdk.Price{Current: f, Currency: currency(current, locale)}
			if was, ok := amount(price.SelectOne("del .amount")); ok {
				l.Price.CompareAt = &was
			}
		}
		page.Listings = append(page.Listings, l)
	}
	if next, ok := root.SelectOne("a.next.page-numbers").AttrOK("href"); ok {
		page.Next = d.Resolve(next)
	}
	return page, nil
}

func (adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	root := c.Page().HTML()
	// Single product pages carry the "single-product" body class and a div.product.
	box := root.FindOne("//div[starts-with(@id, 'product-') and contains(concat(' ', @class, ' '), ' product ')]")
	if !box.Exists() {
		return nil, sdk.NonProduct("no WooCommerce product block")
	}
	platform := "woocommerce"
	p := &sdk.Product{
		ID:       strings.TrimPrefix(box.Attr("id"), "product-"),
		Platform: &platform,
	}
	p.PlatformID = &p.ID
	if t := box.TextOf(".//h1[contains(@class, 'product_title')]"); t != "" {
		p.Title = &t
	}
	if sku := box.TextOf(".//span[@class='sku']"); sku != "" && sku != "N/A" {
		p.SKU = &sku
	}
	if d := box.FindOne(".//div[contains(@class, 'woocommerce-product-details__short-description')]"); d.Exists() {
		text := d.Text()
		p.Description = &text
	}

	priceBlock := box.FindOne(".//p[contains(@class, 'price')]")
	current := priceBlock.FindOne(".//ins//span[contains(@class, 'woocommerce-Price-amount')]")
	regular := priceBlock.FindOne(".//del//span[contains(@class, 'woocommerce-Price-amount')]")
	if !current.Exists() {
		current = priceBlock.FindOne(".//span[contains(@class, 'woocommerce-Price-amount')]")
	}
	if f, ok := amount(current); ok {
		p.Price = &sdk.Price{Current: f, Currency: currency(current, root.FindOne("//html").Attr("lang"))}
		if r, ok := amount(regular); ok {
			p.Price.CompareAt = &r
		}
	}

	switch stock := box.FindOne(".//p[contains(@class, 'stock')]").Attr("class"); {
	case strings.Contains(stock, "out-of-stock"):
		f := false
		p.IsAvailable = &f
	case strings.Contains(stock, "in-stock"), box.FindOne(".//button[@name='add-to-cart']").Exists():
		t := true
		p.IsAvailable = &t
	}

	for i, a := range box.Find(".//div[contains(@class, 'woocommerce-product-gallery__image')]/a") {
		img := a.FindOne(".//img")
		p.Images = append(p.Images, sdk.Image{URL: c.Resolve(a.Attr("href")), Position: i + 1, AltText: nonEmpty(img.Attr("alt"))})
	}
	for _, crumb := range root.Find("//nav[contains(@class, 'woocommerce-breadcrumb')]/a") {
		p.Breadcrumbs = append(p.Breadcrumbs, sdk.Breadcrumb{Name: crumb.Text(), URL: c.Resolve(crumb.Attr("href"))})
	}
	return p, nil
}

// amount reads a WooCommerce price: the text of the amount without its currency symbol,
// with the thousands separator "," and the decimal point "." of the default settings.
func amount(n sdk.Node) (float64, bool) {
	if !n.Exists() {
		return 0, false
	}
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r == '.' {
			return r
		}
		return -1
	}, n.Text())
	f, err := strconv.ParseFloat(digits, 64)
	return f, err == nil
}

// currency names the currency of a WooCommerce price amount by its symbol, as a page in
// the language locale writes it ("$" is CAD on an en-CA page); "" when the symbol names
// none surely.
func currency(amount sdk.Node, locale string) string {
	return sdk.CurrencyForSymbol(amount.SelectOne(".woocommerce-Price-currencySymbol").Text(), locale)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func init() { sdk.Serve(adapter{}) }

func main() {}
