// Command woocommerce is an example third-party Stockroom adapter for WooCommerce stores
// (WordPress). It is written only against adapters/sdk and adapters/ABI.md, as an outside
// author would, and builds with the standard Go toolchain:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o woocommerce.wasm .
//	stockroom adapter test woocommerce.wasm testdata
//
// It reads the markup every WooCommerce theme keeps from the plugin's templates: the
// product title, the price block (a sale shows the regular price in <del> and the sale
// price in <ins>), the SKU, the stock line and the gallery.
package main

import (
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

type adapter struct{}

func (adapter) Info() sdk.Info {
	return sdk.Info{
		Name:        "woocommerce",
		Version:     "0.1.0",
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
		p.Price = &sdk.Price{Current: f, Currency: currency(current.TextOf(".//span[contains(@class, 'woocommerce-Price-currencySymbol')]"))}
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

// currency maps the common symbols to ISO codes; an unknown symbol stays unknown rather
// than guessed.
func currency(symbol string) string {
	switch strings.TrimSpace(symbol) {
	case "$":
		return "USD"
	case "€", "&euro;":
		return "EUR"
	case "£", "&pound;":
		return "GBP"
	}
	return ""
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func init() { sdk.Serve(adapter{}) }

func main() {}
