// Package ebay is the built-in adapter for eBay's item pages, on every one of its sites.
//
// eBay is a platform of its own: one marketplace of many sellers, rendered alike on every
// country site, whose item page has had two layouts in recent years (the "vi" page with
// #prcIsum and #itemTitle, and the "x-" page with .x-price-primary and
// .x-item-title__mainTitle). The adapter reads both by their ids and classes, and the
// offer's microdata where the page gives it. See RATIONALE.md.
//
// The package is the adapter; ./guest wraps it as a WebAssembly module. Tests also run it
// natively through sdk.Native.
package ebay

import (
	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the eBay adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.1"

// Platform is the platform name the adapter detects and serves.
const Platform = "ebay"

func (Adapter) Info() sdk.Info {
	return sdk.Info{
		Name:        "ebay",
		Version:     Version,
		Platforms:   []string{Platform},
		URLPatterns: []string{"/itm/*", "/itm/*/*"},
	}
}

// Detect weighs the signs eBay's pages leave: the Open Graph type of an item
// (ebay-objects:item), static files and images from eBay's hosts (ebaystatic.com,
// ebayimg.com), and the item page's own ids and classes of either layout. One sign alone
// is not enough for a confident claim.
func (Adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, nil
	}
	var evidence []string
	for _, marker := range []struct{ text, says string }{
		{`content="ebay-objects:item"`, "og:type ebay-objects:item"},
		{"ebaystatic.com/", "static files from ebaystatic.com"},
		{"i.ebayimg.com/", "images from ebayimg.com"},
		{`id="prcIsum`, "prcIsum price block"},
		{"x-price-primary", "x-price-primary price block"},
		{`id="descItemNumber"`, "descItemNumber item number"},
	} {
		if page.Contains(marker.text) {
			evidence = append(evidence, marker.says)
		}
	}
	return storefront.MarkupDetection(Platform, evidence), nil
}
