// Package html is the built-in generic adapter. It reads any product page, whatever its
// platform, through the candidate ranker (adapters/rank), which weighs every value the
// page offers for the price, title, currency, availability and SKU (structured data, meta
// tags, the visible page) and chooses by learned weights. Among the generic adapters it
// runs first, so the ranker decides those fields; the JSON-LD adapter then fills what it
// left unknown (variants, breadcrumbs, codes, a structured description). It also reads
// the categories of stores that no platform adapter claims.
//
// The package is laid out by flow, one job to a file, so that an adapter author can copy
// it as a model:
//
//   - adapter.go: the Adapter, its name and its version.
//   - discover.go: Discover, which reads a store's categories from the menus and category
//     links of its home page.
//   - list.go: List, which reads one page of a category: its products, the next page, the
//     category's size and the later pages that can be named at once.
//   - tiles.go: the product tiles of a listing page: which links lead to products, and
//     each product's title, price and image.
//   - paging.go: the page after a listing page: the next number's page, rel="next", or a
//     link labelled "next".
//   - numbering.go: how a site numbers a category's pages (?page=2, /page/2), so that the
//     first page can name the later ones.
//   - total.go: the category's size as its page states it ("Showing 1–24 of 720").
//   - product.go: Extract, which decides whether a page is a product page and takes its
//     fields from the ranker's choices.
//   - urls.go: resolving a page's links against the page's URL.
//   - paths.go: what a link's path says: a category, a product, or the store's own pages.
//
// Every heuristic is general: none names a store. The adapter never fetches a page
// itself; it asks the host for the pages it needs. Each file's tests sit beside it, and
// testdata holds saved pages with the answers expected from Extract, which
// `stockroom adapter test` checks.
//
// The adapter runs as WebAssembly, where some plain Go is slow. The fast paths this asks
// for (links resolved without net/url, byte tables, switches instead of maps, one host
// call for all of a page's links) are explained in RATIONALE.md.
package html
