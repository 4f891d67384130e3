// Package headless is the built-in adapter for headless storefronts: shops whose pages
// are drawn by a JavaScript application (Next.js, Nuxt) and carry the catalogue as the
// application's embedded state (<script id="__NEXT_DATA__">, Nuxt's __NUXT_DATA__ or
// window.__NUXT__). It reads collections, listing pages and products from that state,
// in the shapes commerce APIs give them (Shopify's Storefront API, which Next.js Commerce
// and most headless shops use, and the plainer names of others), whatever markup the
// application draws around it.
package headless

import (
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the headless storefront adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.2"

// Platform is the platform name the adapter detects and serves.
const Platform = "headless"

func (Adapter) Info() sdk.Info {
	return sdk.Info{
		Name:      "headless",
		Version:   Version,
		Platforms: []string{Platform},
		// The routes Next.js Commerce and Hydrogen-like storefronts give products and
		// collections.
		URLPatterns:        []string{"/product/*", "/products/*"},
		CollectionPatterns: []string{"/search/*", "/collections/*", "/category/*", "/categories/*"},
	}
}

// Detect claims a page whose embedded application state holds a catalogue: a list of
// collections or categories, a list of products or a product. An application's state alone (a blog on Next.js) is
// no store, and an application that keeps its catalogue out of its state is left to the
// other adapters.
func (Adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, nil
	}
	st, ok := readState(page)
	if !ok {
		return nil, nil
	}
	evidence := []string{st.framework + " state " + st.source}
	cols, named := findCollections(st.data)
	switch {
	case named && len(cols) > 0:
		evidence = append(evidence, "collections in the state")
	case len(findProducts(st.data)) > 0:
		evidence = append(evidence, "products in the state")
	case findProduct(st.data).Exists():
		evidence = append(evidence, "a product in the state")
	default:
		return nil, nil
	}
	return &sdk.Detection{Platform: Platform, Confidence: 0.8, Evidence: evidence}, nil
}
