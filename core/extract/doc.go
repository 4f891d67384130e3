// Package extract turns product URLs, or every listing of a crawled vendor, into full
// product records, with one outcome per input URL that clients can act on.
//
// This comment is a tour of the package: the ways an extraction starts, what happens to
// each URL, and how results are counted.
//
// # Three ways in
//
// An extraction runs as an execution (see core/execution) of kind products_batch, for
// /v1/products, or extract, for /v2/extract. Both kinds run the same way; they are kept
// apart only because the two generations list them separately. A Service starts them:
//
//	started, err := extractions.StartURLs(ctx, organizationID, execution.Extract, urls, extract.Parameters{})
//	started, err := extractions.StartVendor(ctx, organizationID, "shop.example", extract.Parameters{MaxProducts: &n})
//
// StartURLs takes at most MaxURLs URLs. StartVendor extracts the listings a crawl found:
// the vendor must have been crawled, or Parameters.CrawlID names the crawl to wait for.
// The legacy endpoints extract while the caller waits instead (Service.Extract, at
// most MaxSyncURLs URLs).
//
// The work is done by a Pipeline, which the job queue calls for both kinds:
//
//	pipeline := extract.NewPipeline(adapters, items, catalogStore, executions, runner, extract.PipelineOptions{})
//	// job queue handlers: execution.ProductsBatch and execution.Extract -> pipeline.Run
//
// # One URL
//
// Pipeline.Extract handles one URL, and never returns an error: whatever happens becomes
// the URL's adapter.Outcome.
//
//  1. A URL that cannot be fetched (no scheme, no host) is malformed_url at once.
//  2. The page is fetched through the adapter set's fetcher, which keeps to robots.txt
//     and each host's politeness.
//  3. The adapters read it (adapter.Set.Extract): the platform adapter the site is
//     detected as first, then the generic adapters (JSON-LD, HTML), each filling only
//     the fields still unknown. An adapter may ask for more documents, which the set
//     fetches before calling it again.
//  4. The product's URL is made canonical, its rating and reviews are read from the
//     page's structured data, and it is saved to the catalog by vendor and URL
//     (Store.SaveProduct), where it is linked to its listing when a crawl found one.
//
// Outcomes that may pass (a bot wall, a timeout, a server error) are retried with a
// growing backoff, up to PipelineOptions.Attempts, before they are reported with
// retry: true.
//
// # A vendor's products from its crawl
//
// Where a platform's listing pages carry whole products (Shopify's collection JSON), the
// crawl keeps each as its listing's record (catalog.Record). A vendor's extraction reads
// the records of its URLs (Store.ListingRecords) and has the adapter that listed each
// build the product from it (adapter.Set.Assemble), fetching only what every product of
// the store shares, once for the whole extraction (adapter.SharedDocuments). A URL
// without a record, with one older than PipelineOptions.RecordMaxAge, or whose record the
// adapter cannot read, is extracted from its page as above.
//
// # Inputs, distinct URLs and counts
//
// An extraction's input URLs are stored in order as its items (Store.AddItems). A URL
// given twice is fetched once, and its result is recorded for every position that holds
// it (Store.SetResult). Progress and Meta count inputs, not distinct URLs, so that
// Successful + Failed + Invalid + Pending always equals Requested (see MetaOf).
//
// A resumed extraction asks the store for the URLs still pending and carries on from
// there: nothing already extracted is fetched again.
//
// # Flags
//
// Flags choose which optional parts of a product are rendered (enrichment, reviews, image
// tags, similar products). They never change what is extracted or stored: the catalog
// keeps the whole product, and a disabled part is present and null in the response.
package extract
