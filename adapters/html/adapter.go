// Package html is the built-in generic adapter of last resort: heuristics over the markup
// of pages with little structured data (OpenGraph and product meta tags, itemprop
// attributes, the page heading). It runs after the platform and JSON-LD adapters and only
// fills their gaps.
// When the markup says little, it reads the page as a shopper does (signals.go): the
// displayed price after the title, the stock line, the buy button, a labelled SKU.
// For stores no platform adapter claims it also discovers categories and lists their
// products (browse.go), so such stores can be crawled.
package html

import (
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the HTML heuristics adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.6.2"

func (Adapter) Info() sdk.Info { return sdk.Info{Name: "html", Version: Version} }
