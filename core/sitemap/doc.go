// Package sitemap reads the sitemaps a web site publishes (sitemaps.org protocol 0.9): the
// files robots.txt announces, or those at the usual places, and the indexes they nest.
//
// A crawl uses it to find the pages of a store that its home page does not link to:
//
//	r := sitemap.Reader{Fetcher: fetcher}
//	report, err := r.ReadSite(ctx, "https://shop.example/", func(e sitemap.Entry) {
//		// e.URL, e.Images, e.Alternates, e.File (the file that named it)
//	})
//	// report.Roots, report.Files, report.URLs; report.Stopped and report.Skipped say
//	// what was not read, and why.
//
// ReadSite reads the sitemaps robots.txt announces, or the first of UsualPlaces that is
// one; Read reads the sitemaps at the addresses it is given.
//
// Every file comes through the Fetcher, so the crawl's address guard, robots.txt rules and
// politeness apply to sitemaps as to any page. A file is read as a stream of entries with
// encoding/xml, gzipped or not (by its content, whatever its name or headers say), and no
// file is held whole once decompressed.
//
// Reading is bounded (Limits): by default 50,000 URLs and 50 MB per file, as the protocol
// allows, indexes nested three deep below the first file, 1,000 files and 500,000 URLs in
// all. At a limit, reading stops cleanly: the entries read so far have been visited, and
// the Report says which limit stopped it. A file that is missing, malformed or not a
// sitemap at all is skipped and named in the Report; only the caller's cancellation is an
// error.
//
// The image (image:image) and hreflang (xhtml:link rel="alternate") extensions are read
// when present and carried on each Entry; nothing needs them.
package sitemap
