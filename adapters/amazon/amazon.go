// Package amazon is the built-in adapter for Amazon's product pages, on every one of its
// marketplaces.
//
// Amazon is a platform of its own: one storefront, rendered by the same page framework on
// every marketplace, whose product pages have changed layout over the years while keeping
// their element ids. The adapter reads those ids (#productTitle, the price blocks of each
// layout, #availability, the ASIN of the add-to-cart form) rather than what a generic
// reading guesses, and names the currency by the marketplace the page says it belongs
// to. See RATIONALE.md.
//
// The package is the adapter; ./guest wraps it as a WebAssembly module. Tests also run it
// natively through sdk.Native.
package amazon

import (
	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the Amazon adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.1"

// Platform is the platform name the adapter detects and serves.
const Platform = "amazon"

func (Adapter) Info() sdk.Info {
	return sdk.Info{
		Name:        "amazon",
		Version:     Version,
		Platforms:   []string{Platform},
		URLPatterns: []string{"/dp/*", "/*/dp/*", "/gp/product/*"},
	}
}

// Detect weighs the signs Amazon's page framework leaves on every page: the page
// metrics script's variables (ue_id, ue_mid, ue_sn), the navigation bar's ids, images
// served from Amazon's media hosts, and on a product page the detail page's container
// and its add-to-cart form's ASIN. One sign alone is not enough for a confident claim.
func (Adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, nil
	}
	var evidence []string
	for _, marker := range []struct{ text, says string }{
		{"var ue_id", "ue_id page metrics script"},
		{"ue_mid", "ue_mid marketplace id"},
		{`id="nav-logo-sprites"`, "nav-logo-sprites navigation bar"},
		{"media-amazon.com/images/", "images from Amazon's media host"},
		{`id="ASIN"`, "ASIN of the add-to-cart form"},
		{`id="dp-container"`, "dp-container detail page"},
	} {
		if page.Contains(marker.text) {
			evidence = append(evidence, marker.says)
		}
	}
	return storefront.MarkupDetection(Platform, evidence), nil
}
