package crawl

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/sitemap"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// Where a crawl's collections and listings came from (Method.Source).
const (
	// SourcePlatform: the platform's own adapter named the collections, from the store's
	// own catalog (Shopify's collections.json and its collection of every product).
	SourcePlatform = "platform"
	// SourceLinks: the generic adapters read them from the home page's links, and the
	// site's sitemaps added nothing (or it has none).
	SourceLinks = "links"
	// SourceSitemap: the site's sitemaps named the collections and product pages; the
	// home page links none.
	SourceSitemap = "sitemap"
	// SourceLinksAndSitemap: the home page's links named some collections, and the
	// sitemaps named more, or product pages no collection holds.
	SourceLinksAndSitemap = "links+sitemap"
)

// sitemapPlan is what a site's sitemaps add to a crawl.
type sitemapPlan struct {
	report sitemap.Report
	// collections are the pages the sitemaps name that are collections by their address.
	collections []adapter.Collection
	// pages are the product pages, and the pages whose address says nothing, that the
	// sitemaps name: each once, the first of its language versions, in the order read.
	// Those no collection lists are read one by one (see sitemapPages).
	pages []sitemapPage
	// others are the canonical URLs of the pages the sitemaps show to be neither (the
	// store's machinery, its editorial pages): a menu link to one is no collection.
	others map[string]bool
}

// sitemapPage is a page a sitemap names that may be a product's.
type sitemapPage struct {
	// url is the page's address as the sitemap gives it; key is its canonical form.
	url, key string
	kind     pageKind // productPage or unknownPage
}

// readSitemaps reads the sitemaps of the site whose home page is home, and sorts the
// pages they name on the vendor's host by what their addresses say. It fails only when
// ctx ends; a site without sitemaps gives an empty plan.
func (p *Pipeline) readSitemaps(ctx context.Context, st *crawlState, home *adapter.Document) (*sitemapPlan, error) {
	var rules urlRules
	rules.products, rules.collections = p.adapters.Patterns(st.platform)
	plan := &sitemapPlan{others: map[string]bool{}}
	seen := map[string]bool{}
	// alternates are the canonical URLs of the other language versions of the pages
	// kept: a store that lists each product in four languages has one product, not four.
	alternates := map[string]bool{}
	visit := func(e sitemap.Entry) {
		key, err := urlnorm.Page(e.URL)
		if err != nil || !sameVendor(key, st.vendor) || seen[key] || alternates[key] {
			return
		}
		seen[key] = true
		for _, a := range e.Alternates {
			if k, err := urlnorm.Page(a.URL); err == nil && k != key {
				alternates[k] = true
			}
		}
		switch kind := rules.classify(e); kind {
		case collectionPage:
			plan.collections = append(plan.collections, adapter.Collection{URL: e.URL, Handle: handleOf(key)})
		case otherPage:
			plan.others[key] = true
		default:
			plan.pages = append(plan.pages, sitemapPage{url: e.URL, key: key, kind: kind})
		}
	}
	reader := sitemap.Reader{Fetcher: p.adapters.Fetcher, Limits: p.opts.Sitemaps}
	report, err := reader.ReadSite(ctx, siteURL(home), visit)
	if err != nil {
		return nil, err
	}
	plan.report = report
	if report.Stopped != "" || len(report.Skipped) > 0 {
		p.opts.Logger.Warn("sitemaps not read whole", "execution_id", st.job.ID, "stopped_at", report.Stopped, "skipped", report.Skipped)
	}
	return plan, nil
}

// siteURL is the address the site answered its home page on.
func siteURL(home *adapter.Document) string {
	if home.FinalURL != "" {
		return home.FinalURL
	}
	return home.URL
}

// handleOf is the last segment of a URL's path, without an .html ending: a collection's
// handle as stores write it in their addresses.
func handleOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	base := path.Base(strings.TrimSuffix(u.Path, "/"))
	if base == "/" || base == "." {
		return ""
	}
	return strings.TrimSuffix(strings.TrimSuffix(base, ".html"), ".htm")
}

// discoverySources is what each source gave a crawl's discovery, for Method.Source and
// Method.Reason.
type discoverySources struct {
	// adapter names the adapter that discovered collections from the home page, and
	// platform reports whether it is the platform's own.
	adapter  string
	platform bool
	linked   int // collections the home page (or the platform) named, on the vendor's host
	// dropped are linked collections the sitemaps show to be other pages.
	dropped int
	plan    *sitemapPlan // nil when the sitemaps were not read
	added   int          // collections the sitemaps named that the links did not
	// found are the pages the sitemaps name that turned out to be collections when read;
	// read are the products listed from their own pages.
	found, read int
}

// source is the crawl's Method.Source.
func (d *discoverySources) source() string {
	switch {
	case d.platform:
		return SourcePlatform
	case d.plan == nil || d.added+d.found+d.read == 0:
		return SourceLinks
	case d.linked-d.dropped > 0:
		return SourceLinksAndSitemap
	}
	return SourceSitemap
}

// reason says in words where the crawl's collections and listings came from.
func (d *discoverySources) reason() string {
	if d.platform {
		return fmt.Sprintf("the %s adapter named %s from the store's own catalog", d.adapter, counted(d.linked, "collection", "collections"))
	}
	var b strings.Builder
	switch n := d.linked - d.dropped; {
	case n == 0:
		b.WriteString("the home page links no category")
	default:
		fmt.Fprintf(&b, "the home page links %s", counted(n, "category", "categories"))
	}
	if d.dropped > 0 {
		fmt.Fprintf(&b, " (and %s its sitemaps show to be none)", counted(d.dropped, "page", "pages"))
	}
	if d.plan == nil {
		return b.String()
	}
	rep := d.plan.report
	switch {
	case len(rep.Roots) == 0:
		fmt.Fprintf(&b, "; no sitemap found (robots.txt names none, and there is none at %s)", strings.Join(sitemap.UsualPlaces(), ", "))
		return b.String()
	case rep.Announced:
		fmt.Fprintf(&b, "; the sitemaps robots.txt names (%s)", strings.Join(rep.Roots, ", "))
	default:
		fmt.Fprintf(&b, "; the sitemap at %s", rep.Roots[0])
	}
	more := ""
	if d.linked-d.dropped > 0 {
		more = " more"
	}
	fmt.Fprintf(&b, ", %s of %s, name %s%s and %s that may be products", counted(rep.Files, "file", "files"),
		counted(rep.URLs, "URL", "URLs"), counted(d.added, "category", "categories"), more, counted(len(d.plan.pages), "page", "pages"))
	if d.found > 0 {
		fmt.Fprintf(&b, ", of which %s", counted(d.found, "was a category", "were categories"))
	}
	fmt.Fprintf(&b, "; %s in no category read from their own pages", counted(d.read, "product", "products"))
	if rep.Stopped != "" {
		fmt.Fprintf(&b, "; reading the sitemaps stopped at %s", rep.Stopped)
	}
	if n := len(rep.Skipped); n > 0 {
		fmt.Fprintf(&b, "; %s not read whole, such as %s", counted(n, "sitemap file", "sitemap files"), rep.Skipped[0])
	}
	return b.String()
}

// counted is n followed by the word for one or for several.
func counted(n int, one, several string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, several)
}
