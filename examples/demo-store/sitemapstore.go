package demostore

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The sitemap kind: a shop whose home page links no category at all (its menu holds
// only its information pages, as a store whose category menu is drawn by script), so
// that a crawler finds its categories and products only through its sitemaps. robots.txt
// announces an index, which nests a gzipped index of the categories and of the products;
// the product files are gzip files and gzipped answers by turns, and give each product's
// pictures and its German page (hreflang). Pages are plain markup (as the HTML kind's),
// with prices in pounds by default.
//
// The catalogue's first category is in no sitemap: its products that no other
// collection holds are reachable only from the product sitemaps, as the products a store
// leaves out of every category are. A collection of a single product, "gift-ideas", is
// added to the catalogue.
//
//	/robots.txt                     Sitemap: /sitemaps/index.xml
//	/sitemaps/index.xml             -> catalog.xml.gz, pages.xml
//	/sitemaps/catalog.xml.gz        -> categories.xml, products-1.xml.gz, products-2.xml, ..., products-de.xml
//	/c/{handle}?page=N              category pages
//	/p/{handle}, /de/p/{handle}     product pages
//	/info/{handle}                  information pages

// Sitemap is the kind of a shop that only its sitemaps lead through.
const Sitemap Kind = "sitemap"

const (
	// sitemapStoreChunk is the products per product sitemap of the sitemap kind, few
	// so that a few hundred products make several files, gzipped in both ways.
	sitemapStoreChunk = 100
	// germanProducts is how many products the German sitemap names.
	germanProducts = 20
	// singleProductCollection is the handle of the collection holding one product.
	singleProductCollection = "gift-ideas"
)

// setUpSitemapKind sets up a store of the sitemap kind.
func (s *Store) setUpSitemapKind() {
	s.router = s.sitemapRoute
	if s.name == "" {
		s.name = "Atlas & Finch"
	}
	if s.opts.Currency == "" {
		s.currency = "GBP"
	}
	if s.cat.Len() > 0 {
		s.cat = withCollection(s.cat, Collection{Handle: singleProductCollection, Title: "Gift Ideas",
			Description: "One gift we love.", Products: []int32{int32(s.cat.Len() - 1)}})
	}
}

// withCollection is c with one more collection.
func withCollection(c *Catalog, col Collection) *Catalog {
	out := *c
	col.ID = collectionID(c.seed, len(c.collections))
	out.collections = append(slices.Clone(c.collections), col)
	out.index()
	return &out
}

// SitemapCategories are the collections the sitemap kind's sitemaps name: every
// collection but the catalogue's first.
func (s *Store) SitemapCategories() []Collection {
	cols := s.cat.Collections()
	if len(cols) == 0 {
		return nil
	}
	return cols[1:]
}

func (s *Store) sitemapRoute(path string) (Route, http.HandlerFunc) {
	switch path {
	case "/":
		return RouteHome, s.sitemapHome
	case "/robots.txt":
		return RouteRobots, s.sitemapRobots
	}
	switch {
	case strings.HasPrefix(path, "/sitemaps/"):
		return RouteSitemap, s.sitemapFiles
	case strings.HasPrefix(path, "/p/"), strings.HasPrefix(path, "/de/p/"):
		return RouteProductPage, s.sitemapProduct
	case strings.HasPrefix(path, "/c/"):
		return RouteCategoryPage, func(w http.ResponseWriter, r *http.Request) {
			s.htmlCategory(w, r, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/c/"), "/"))
		}
	case strings.HasPrefix(path, "/info/"):
		return RoutePage, s.sitemapInfoPage
	case strings.HasPrefix(path, "/media/"):
		return RouteMedia, s.mediaImage
	}
	return RouteOther, nil
}

// infoLinks are the information pages, the only links of the home page's menu.
func (s *Store) infoLinks(r *http.Request) []link {
	var out []link
	for _, p := range contentPages {
		out = append(out, link{base(r) + "/info/" + p.handle, p.title})
	}
	return out
}

func (s *Store) sitemapHome(w http.ResponseWriter, r *http.Request) {
	v := pageView{Store: s.name, Base: base(r), Title: s.name, Canonical: base(r) + "/", Nav: s.infoLinks(r),
		Currency: s.currency, Heading: s.name, Intro: "Well-made things, chosen with care."}
	for i := 0; i < s.cat.Len() && i < 6; i++ {
		v.Tiles = append(v.Tiles, s.tile(r, i))
	}
	s.render(w, "sitemap-home", v)
}

func (s *Store) sitemapInfoPage(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimPrefix(r.URL.Path, "/info/")
	for _, p := range contentPages {
		if p.handle == handle {
			s.render(w, "content", pageView{Store: s.name, Base: base(r), Title: p.title + " – " + s.name,
				Canonical: base(r) + r.URL.Path, Heading: p.title, Intro: p.text, Nav: s.infoLinks(r), Currency: s.currency})
			return
		}
	}
	s.notFound(w, r)
}

// sitemapProduct serves a product page, in English at /p/ and in German at /de/p/ (the
// same page: only the sitemap's hreflang tells them apart).
func (s *Store) sitemapProduct(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/de")
	handle := strings.TrimSuffix(strings.TrimPrefix(path, "/p/"), "/")
	p, ok := s.plainProduct(w, r, handle)
	if !ok {
		return
	}
	v := pageView{Store: s.name, Base: base(r), Title: p.Title + " - " + s.name, Canonical: base(r) + r.URL.Path,
		Nav: s.infoLinks(r), Currency: s.currency, Product: s.productView(r, p), Breadcrumbs: s.breadcrumbs(r, p)}
	s.render(w, "html-product", v)
}

func (s *Store) sitemapRobots(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /basket\nDisallow: /checkout\n")
	for _, p := range s.opts.Faults.RobotsDisallow {
		b.WriteString("Disallow: " + p + "\n")
	}
	b.WriteString("\nSitemap: " + base(r) + "/sitemaps/index.xml\n")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, b.String())
}

// productFiles is the number of English product sitemaps.
func (s *Store) productFiles() int { return (s.cat.Len() + sitemapStoreChunk - 1) / sitemapStoreChunk }

// productFileName is the name of the k-th English product sitemap (from 1): odd ones are
// gzip files, even ones XML the server gzips on the way.
func productFileName(k int) string {
	if k%2 == 1 {
		return "products-" + strconv.Itoa(k) + ".xml.gz"
	}
	return "products-" + strconv.Itoa(k) + ".xml"
}

// sitemapFiles serves /sitemaps/: .gz files as gzip files, product sitemaps gzipped on
// the way to a client that accepts it, the others as they are.
func (s *Store) sitemapFiles(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/sitemaps/")
	write := s.sitemapFile(r, name)
	if write == nil {
		s.notFound(w, r)
		return
	}
	out := io.Writer(w)
	switch {
	case strings.HasSuffix(name, ".gz"):
		w.Header().Set("Content-Type", "application/x-gzip")
	case strings.HasPrefix(name, "products-") && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"):
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
	default:
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	}
	if strings.HasSuffix(name, ".gz") || w.Header().Get("Content-Encoding") == "gzip" {
		z := gzip.NewWriter(w)
		defer z.Close()
		out = z
	}
	write(out)
}

// sitemapFile returns what writes the sitemap file name, or nil when there is none.
func (s *Store) sitemapFile(r *http.Request, name string) func(io.Writer) {
	b := base(r) + "/sitemaps/"
	products := func(from, to int, german bool) func(io.Writer) {
		return func(w io.Writer) {
			var entries []sitemapEntry
			for i := from; i < to; i++ {
				entries = append(entries, s.productEntry(r, i, german))
			}
			writeEntries(w, entries)
		}
	}
	switch name {
	case "index.xml":
		return func(w io.Writer) { writeSitemapIndex(w, []string{b + "catalog.xml.gz", b + "pages.xml"}) }
	case "catalog.xml.gz":
		locs := []string{b + "categories.xml"}
		for k := 1; k <= s.productFiles(); k++ {
			locs = append(locs, b+productFileName(k))
		}
		return func(w io.Writer) { writeSitemapIndex(w, append(locs, b+"products-de.xml")) }
	case "categories.xml":
		var entries []sitemapEntry
		for _, c := range s.SitemapCategories() {
			entries = append(entries, sitemapEntry{loc: base(r) + s.CategoryPath(c.Handle)})
		}
		return func(w io.Writer) { writeEntries(w, entries) }
	case "pages.xml":
		entries := []sitemapEntry{{loc: base(r) + "/"}}
		for _, l := range s.infoLinks(r) {
			entries = append(entries, sitemapEntry{loc: l.URL})
		}
		return func(w io.Writer) { writeEntries(w, entries) }
	case "products-de.xml":
		return products(0, min(germanProducts, s.cat.Len()), true)
	}
	for k := 1; k <= s.productFiles(); k++ {
		if name == productFileName(k) {
			return products((k-1)*sitemapStoreChunk, min(k*sitemapStoreChunk, s.cat.Len()), false)
		}
	}
	return nil
}

// sitemapEntry is a <url> of a sitemap, with its pictures and its other languages' pages.
type sitemapEntry struct {
	loc, lastmod string
	images       []string
	alternates   [][2]string // hreflang, href
}

// productEntry is product i's entry, for its German page when german is set.
func (s *Store) productEntry(r *http.Request, i int, german bool) sitemapEntry {
	p := s.cat.Product(i)
	en, de := base(r)+"/p/"+p.Handle, base(r)+"/de/p/"+p.Handle
	e := sitemapEntry{loc: en, lastmod: p.UpdatedAt.Format("2006-01-02")}
	if german {
		e.loc = de
	}
	for _, im := range p.Images {
		e.images = append(e.images, s.imageURL(r, p, im))
	}
	if i < germanProducts {
		e.alternates = [][2]string{{"en-GB", en}, {"de", de}, {"x-default", en}}
	}
	return e
}

func writeEntries(w io.Writer, entries []sitemapEntry) {
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`+
		` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">`+"\n")
	for _, e := range entries {
		fmt.Fprintf(w, "  <url>\n    <loc>%s</loc>\n", xmlText(e.loc))
		if e.lastmod != "" {
			fmt.Fprintf(w, "    <lastmod>%s</lastmod>\n", e.lastmod)
		}
		for _, a := range e.alternates {
			fmt.Fprintf(w, "    <xhtml:link rel=\"alternate\" hreflang=\"%s\" href=\"%s\"/>\n", a[0], xmlText(a[1]))
		}
		for _, im := range e.images {
			fmt.Fprintf(w, "    <image:image><image:loc>%s</image:loc></image:image>\n", xmlText(im))
		}
		fmt.Fprint(w, "  </url>\n")
	}
	fmt.Fprint(w, "</urlset>\n")
}
