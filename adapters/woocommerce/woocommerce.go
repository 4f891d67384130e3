// Package woocommerce is the built-in adapter for WooCommerce stores (WordPress).
//
// It lists a store through the Store API (/wp-json/wc/store/v1/) when the store leaves it
// open: the API answers a category's products a hundred at a time, with prices in minor
// units, the store's currency and the page count in its headers. When the API is closed
// it reads the storefront instead: the categories its menus link to, their ul.products
// tiles and their /page/N/ pages. Products are read from their pages: WooCommerce's
// JSON-LD, the price block and, for a variable product, the variations its form carries
// in data-product_variations.
//
// The package is the adapter; ./guest wraps it as a WebAssembly module. Tests also run it
// natively through sdk.Native.
package woocommerce

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the WooCommerce adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.2"

// Platform is the platform name the adapter detects and serves.
const Platform = "woocommerce"

func (Adapter) Info() sdk.Info {
	return sdk.Info{
		Name:      "woocommerce",
		Version:   Version,
		Platforms: []string{Platform},
		// The product and category bases in English, German, French, Spanish and Italian,
		// as WooCommerce's translations set them; subcategories nest under their parents.
		URLPatterns: []string{"/product/*", "/produkt/*", "/produit/*", "/producto/*", "/prodotto/*"},
		CollectionPatterns: []string{
			"/product-category/*", "/product-category/*/*",
			"/produkt-kategorie/*", "/produkt-kategorie/*/*",
			"/categorie-produit/*", "/categorie-produit/*/*",
			"/categoria-producto/*", "/categoria-producto/*/*",
			"/categoria-prodotto/*", "/categoria-prodotto/*/*",
		},
	}
}

// Detect weighs the signs a WooCommerce storefront leaves on any of its pages: the
// plugin's generator tag (decisive), the classes it puts on <body>, its assets under
// wp-content, and the Store API its blocks read. WordPress alone (wp-content, the REST
// API link) is not WooCommerce, and is not claimed.
func (Adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, nil
	}
	root := page.HTML()
	var evidence []string
	strong := false
	if gen := root.SelectOne(`meta[name="generator"][content^="WooCommerce"]`); gen.Exists() {
		evidence = append(evidence, "generator "+gen.Attr("content"))
		strong = true
	}
	for _, class := range strings.Fields(root.SelectOne("body").Attr("class")) {
		if class == "woocommerce" || class == "woocommerce-page" || class == "woocommerce-js" || class == "woocommerce-no-js" {
			evidence = append(evidence, "body class "+class)
			break
		}
	}
	if page.Contains("/wp-content/plugins/woocommerce/") {
		evidence = append(evidence, "assets of the woocommerce plugin")
	}
	if page.Contains("wc/store/v1") || page.Contains(`wc\/store\/v1`) {
		evidence = append(evidence, "Store API")
	}
	var confidence float64
	switch {
	case strong:
		confidence = 0.95
	case len(evidence) >= 2:
		confidence = 0.9
	case len(evidence) == 1:
		confidence = 0.6
	default:
		return nil, nil
	}
	return &sdk.Detection{Platform: Platform, Confidence: confidence, Evidence: evidence}, nil
}
