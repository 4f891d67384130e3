// Package sdk is what an adapter author imports to write a Stockroom store-platform
// adapter in Go. It hides the WebAssembly ABI (adapters/ABI.md): buffers, handles and the
// JSON exchanged with the host.
//
// This comment is a tour of writing an adapter. The Example is a whole adapter run
// natively; examples/woocommerce is a complete third-party adapter; RATIONALE.md explains
// the SDK's own tricks for running fast as a guest.
//
// # An adapter
//
// An adapter is a value that implements Adapter plus any of Detector, Discoverer, Lister
// and Extractor; the operations it implements are its capabilities. A guest program
// registers it in init and builds as a WASI reactor:
//
//	package main
//
//	import "github.com/stockroom/stockroom/adapters/sdk"
//
//	type shop struct{}
//
//	func (shop) Info() sdk.Info { return sdk.Info{Name: "shop", Version: "1.0.0"} }
//
//	func (shop) Extract(c *sdk.Call) (*sdk.Product, error) {
//		title := c.Page().HTML().TextOf("//h1")
//		if title == "" {
//			return nil, sdk.NonProduct("no title")
//		}
//		return &sdk.Product{Title: &title}, nil
//	}
//
//	func init() { sdk.Serve(shop{}) }
//
//	func main() {}
//
//	// GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o shop.wasm .
//
// Put shop.wasm beside a manifest, shop.json, in the server's adapters.dir, and the
// server loads it without a restart. `stockroom adapter new NAME` writes a starting point.
//
// # Reading documents
//
// Adapters are pure: they are given documents and never fetch, read files or look at the
// clock. Call.Page is the page the operation is about, and a Doc offers it in the form
// the adapter needs, parsed once by the host:
//
//	root := c.Page().HTML()
//	title := root.TextOf("//h1")                    // XPath
//	price := root.SelectOne(".product .price").Text() // CSS
//	for _, e := range c.Page().JSONLD().Array() {      // JSON-LD entities, repaired and flattened
//		name := e.Get("name").String()
//	}
//
// Node queries HTML (Find and FindOne take XPath, Select and SelectOne take CSS) and
// Value reads JSON (Get takes a dotted path). Helpers read what stores display:
// ParsePrice reads "1.299,00 €" and its many spellings, DisplayedSKU finds a code after an
// "SKU:" label, BuyButtons counts enabled and disabled buy buttons.
//
// # Asking for more documents
//
// To read another URL, Call.Need records it and returns nil until the host has fetched
// it; the operation returns ErrPending, and the host calls it again with the document
// added. A List call starts with no document at all, so a lister always asks for its
// page first:
//
//	func (shop) List(c *sdk.Call) (sdk.Page, error) {
//		n := 1
//		if c.Cursor() != "" {
//			n, _ = strconv.Atoi(c.Cursor())
//		}
//		doc := c.Need(c.URL() + "?page=" + strconv.Itoa(n))
//		if doc == nil {
//			return sdk.Page{}, sdk.ErrPending
//		}
//		var page sdk.Page
//		for _, a := range doc.HTML().Select("a.product") {
//			page.Listings = append(page.Listings, sdk.Listing{URL: c.Resolve(a.Attr("href")), Title: a.Text()})
//		}
//		if len(page.Listings) > 0 {
//			page.Next = strconv.Itoa(n + 1)
//		}
//		return page, nil
//	}
//
// A lister that knows how many pages a collection has (Call.Total, or a count its first
// page states in Page.Total) should name the later pages in Page.Ahead, so that the host
// lists them at once instead of one after another.
//
// # Saying why there is no product
//
// Extract returns an error made by NonProduct (not a product page), Blocked (a bot wall
// answered) or Fail (an unexpected state that may pass), and the service reports it as
// the URL's outcome. Any other error, or a panic, fails the call.
//
// # Testing and debugging
//
// The same source built natively (any GOOS but wasip1) runs through Native, which calls
// the host's document library directly: that is how adapters are unit-tested, debugged
// with ordinary Go tools, and compared with their WebAssembly build. Package sdktest
// builds and loads guests in tests, and `stockroom adapter test` checks an adapter
// against saved pages.
//
// # Speed
//
// Every query is a call into the host, and in a WebAssembly guest each call, and each
// string copied back, has a fixed cost. An adapter that reads many fields reads them
// together with Value.Strings; one that turns a long list (a product's variants, a page's
// listings) into its answer describes the result with Value.Shape and hands it over with
// Call.Splice, so the host does the walk and nothing crosses.
package sdk
