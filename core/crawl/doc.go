// Package crawl discovers a vendor's collections and every listing in them, and keeps the
// catalog that the browse endpoints serve.
//
// This comment is a tour of the package: how a crawl starts, what it does step by step,
// and where to look when changing it. RATIONALE.md keeps the measurements behind the
// choices described here.
//
// # Starting a crawl
//
// A crawl is an execution (see core/execution) of kind crawl. A Service checks the
// request, charges the organization and queues the execution; it answers with the
// execution's id, or with the id of the crawl of the same vendor already running:
//
//	started, err := crawls.Start(ctx, organizationID, "https://shop.example", nil)
//	// started.ExecutionID names the crawl; started.Existing is true when it was running already.
//
// The work itself is done by a Pipeline, which the job queue calls for every crawl
// execution:
//
//	pipeline := crawl.NewPipeline(adapters, catalogStore, runner, crawl.PipelineOptions{})
//	// job queue handlers: execution.Crawl -> pipeline.Run
//
// adapters is an adapter.Set: the loaded store-platform adapters and the fetcher that
// fetches pages for them. The pipeline never reads a page itself; it asks the adapters
// what the pages say and writes their answers to the catalog.
//
// # The four steps
//
// A crawl shows four steps to the client, in order (StepMethod and the others):
//
//  1. Determining the crawl method. The pipeline fetches the home page and asks every
//     adapter whether the site runs its platform (adapter.Set.Detect). When the home page
//     redirects within the vendor's site (to https, to or from www.), the site is read
//     where the redirect ended; a redirect to another site fails the crawl.
//  2. Discovering collections. The detected platform's adapter names the site's
//     collections from the store's own catalog (adapter.Set.Discovery), and that is all.
//     Otherwise the generic adapters name those the home page links, and the site's
//     sitemaps (core/sitemap) name more, and the product pages (see "Sitemaps" below).
//     Collections on other hosts are dropped, and a crawl that finds neither collections
//     nor product pages fails with a reason.
//  3. Analyzing collections. The collections are sorted, largest first, and counted.
//  4. Extracting listings. Every collection is paged through (adapter.Set.List) and each
//     page's listings are written to the catalog; then the sitemaps' pages that no
//     collection listed are read.
//
// The crawl's result records where its collections and listings came from
// (Method.Source: SourcePlatform, SourceLinks, SourceSitemap or SourceLinksAndSitemap) and
// why, in words (Method.Reason).
//
// # Sitemaps
//
// A store no platform adapter reads may link few of its categories from its home page,
// or none (a menu drawn by script), and may leave products out of every category. Its
// sitemaps name them: the files robots.txt announces, or the first of the usual places.
// readSitemaps reads them within sitemap.Limits and sorts each page by its address
// (classify): the detected platform adapter's patterns (adapter.Info.URLPatterns and
// CollectionPatterns) first, then the host's rules for the platforms most stores run on
// (Shopify, WooCommerce, Magento, common segments such as /p/ and /c/), then the name of
// the sitemap file that named it. Of a page in several languages (hreflang), the first
// version read is kept.
//
//   - Collections by their address are listed with the others.
//   - A menu link to a page the sitemaps show to be no collection (contact, shipping, a
//     legal page) is dropped.
//   - Once the collections are listed, the pages whose addresses said nothing are read,
//     and the pages themselves tell (probe): a product when the adapters extract one,
//     a collection when they list products from it (it is listed then).
//   - The product pages no collection listed are read one by one, through the adapters'
//     extraction at the fetcher's pace, into a collection of their own named after the
//     first sitemap (productPages). A listing a collection showed in another form (a
//     query, a category's path) counts as listed by its handle.
//
// # Listing
//
// Listing is where a crawl spends its time, and most of this package serves it.
//
// A collection's pages are listed a few at a time across the whole crawl
// (PipelineOptions.Collections). Each page needs a slot from listSlots, and pagePriority
// decides which waiting page gets the next one: pages that other pages wait on go
// first, so that a long collection is not left to page on alone at the end of the crawl.
// An adapter that knows how many pages a collection has names them all ahead
// (adapter.ListPage.Ahead), and they are listed at once; one that does not know names a
// few at a time.
//
// Listers never write to the database. They hand each page's listings to the crawl's
// single listingWriter, which gathers what has queued into one catalog write. A listing
// met again, unchanged, in another collection is only linked to that collection.
//
// # Failures
//
// The rules are chosen so that a crawl never completes with listings silently missing:
//
//   - A page the store refuses even after the fetcher's retries leaves its collection
//     unlisted for now. The other collections are listed, then that collection is listed
//     again; if it fails again, the crawl fails and names it.
//   - A collection with more than PipelineOptions.MaxPages pages fails the crawl the same
//     way, after the others are listed.
//   - A bot wall stops the whole listing at once: every further page would meet it.
//   - A page robots.txt disallows, or a first page the store answers 404 for, simply ends
//     its collection (see isCollectionEnd).
//   - A collection is saved with its first page's listings, once the store has served
//     that page: a collection the store does not serve is never recorded.
//   - A crawl that finds no collection or product page, or no listing in any, fails and
//     says so.
//   - A product page the store fails to give fails its collection as a listing page
//     does; one that is gone, or shows no product, is passed over: sitemaps name pages
//     that were products once.
//
// # Resuming
//
// The runner saves the crawl's Progress while it runs. A collection is marked done only
// once every listing it held is in the catalog, and catalog writes are upserts by vendor
// and URL. So a crawl resumed after its process died skips the collections already done
// and ends with the same catalog as a crawl that ran straight through. A resumed crawl
// that reads sitemaps asks the catalog which products its earlier run listed, and reads
// again the pages whose addresses said nothing.
package crawl
