// Package magento is the built-in adapter for Magento 2 (Adobe Commerce) stores.
//
// Magento 2 has no public catalog API a storefront leaves open, so the adapter reads the
// storefront as its Luma-derived themes render it: categories from the top menu
// (li.category-item), a category's products from its li.product-item tiles, whose price
// boxes carry the final price in data-price-amount (and a struck old price on a sale),
// pages as ?p=N. A product page gives its price box, its microdata or JSON-LD, and for a
// configurable product the children, prices and option labels of the configuration its
// swatch or drop-down script is initialised with (jsonConfig, spConfig).
//
// The package is the adapter; ./guest wraps it as a WebAssembly module. Tests also run it
// natively through sdk.Native.
package magento

import (
	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the Magento 2 adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.3"

// Platform is the platform name the adapter detects and serves.
const Platform = "magento"

func (Adapter) Info() sdk.Info {
	return sdk.Info{
		Name:      "magento",
		Version:   Version,
		Platforms: []string{Platform},
		// Magento gives products and top-level categories alike one .html segment; only
		// subcategories nest under their parents' paths, and product pages win a tie.
		URLPatterns:        []string{"/*.html", "/catalog/product/view/id/*"},
		CollectionPatterns: []string{"/*/*.html", "/*/*/*.html", "/catalog/category/view/id/*"},
	}
}

// Detect weighs the signs Magento 2's frontend leaves on every page: components
// initialised by text/x-magento-init scripts and data-mage-init attributes, static files
// of Magento_ modules and the mage/ RequireJS library, and the cache headers of its full
// page cache. One sign alone is not enough for a confident claim.
func (Adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, nil
	}
	var evidence []string
	for _, h := range []string{"x-magento-tags", "x-magento-cache-debug", "x-magento-cache-control"} {
		if page.Header(h) != "" {
			evidence = append(evidence, "header "+h)
			break
		}
	}
	for _, marker := range []struct{ text, says string }{
		{"text/x-magento-init", "x-magento-init scripts"},
		{"data-mage-init=", "data-mage-init attributes"},
		{"/Magento_", "Magento_ modules"},
		{"/mage/", "mage/ RequireJS library"},
	} {
		if page.Contains(marker.text) {
			evidence = append(evidence, marker.says)
		}
	}
	return storefront.MarkupDetection(Platform, evidence), nil
}
