package demostore

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
)

func (s *Store) shopifyHome(w http.ResponseWriter, r *http.Request) {
	v := pageView{Store: s.name, Base: base(r), Title: s.name, Canonical: base(r) + "/", Nav: s.nav(r),
		ShopID: s.shopID, Currency: s.currency, Heading: s.name, Intro: "Free shipping on orders over $75."}
	for i := 0; i < s.cat.Len() && i < 8; i++ {
		v.Tiles = append(v.Tiles, s.tile(r, i))
	}
	s.render(w, "shopify-home", v)
}

func (s *Store) shopifyCollectionsPage(w http.ResponseWriter, r *http.Request) {
	v := pageView{Store: s.name, Base: base(r), Title: "Collections – " + s.name, Canonical: base(r) + "/collections",
		Nav: s.nav(r), ShopID: s.shopID, Currency: s.currency, Heading: "Collections"}
	s.render(w, "shopify-collections", v)
}

func (s *Store) shopifyCollectionPage(w http.ResponseWriter, r *http.Request, handle string) {
	v := pageView{Store: s.name, Base: base(r), Nav: s.nav(r), ShopID: s.shopID, Currency: s.currency}
	col, ok := s.listing(r, &v, handle)
	if !ok {
		s.notFound(w, r)
		return
	}
	v.Title, v.Heading, v.Intro = col.Title+" – "+s.name, col.Title, col.Description
	s.render(w, "shopify-collection", v)
}

func (s *Store) shopifyProductPage(w http.ResponseWriter, r *http.Request) {
	p, ok := s.productFromPath(w, r, "/products/", "")
	if !ok {
		return
	}
	u := base(r) + "/products/" + p.Handle
	v := pageView{Store: s.name, Base: base(r), Title: p.Title + " – " + s.name, Canonical: u, Nav: s.nav(r),
		ShopID: s.shopID, Currency: s.currency, Product: s.productView(r, p), Breadcrumbs: s.breadcrumbs(r, p)}
	// The JSON-LD of Shopify's Dawn theme: a Product with one Offer per variant.
	var offers []any
	for _, vr := range p.Variants {
		offers = append(offers, map[string]any{
			"@type": "Offer", "availability": availability("http://schema.org/", vr.Available),
			"price": json.Number(vr.Price.String()), "priceCurrency": s.currency,
			"url": u + "?variant=" + strconv.FormatInt(vr.ID, 10), "sku": vr.SKU,
		})
	}
	var images []string
	for _, im := range p.Images {
		images = append(images, im.Src)
	}
	ld := map[string]any{"@context": "http://schema.org/", "@type": "Product", "name": p.Title, "url": u,
		"image": images, "description": plainText(p.BodyHTML), "sku": p.LeadVariant().SKU,
		"brand": map[string]any{"@type": "Brand", "name": p.Vendor}, "offers": offers}
	v.JSONLD = []template.JS{jsonScript(ld)}
	s.render(w, "shopify-product", v)
}

func availability(prefix string, in bool) string {
	if in {
		return prefix + "InStock"
	}
	return prefix + "OutOfStock"
}

// plainText strips tags from a description for JSON-LD and meta tags.
func plainText(h string) string {
	var b strings.Builder
	in := false
	for _, c := range h {
		switch {
		case c == '<':
			in = true
		case c == '>':
			in = false
			b.WriteByte(' ')
		case !in:
			b.WriteRune(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// Sitemaps.

type sitemapURL struct {
	Loc, Lastmod, Changefreq string
	ImageLoc, ImageTitle     string
}

func writeURLSet(w io.Writer, urls []sitemapURL) {
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">`+"\n")
	for _, u := range urls {
		fmt.Fprintf(w, "  <url>\n    <loc>%s</loc>\n", xmlText(u.Loc))
		if u.Lastmod != "" {
			fmt.Fprintf(w, "    <lastmod>%s</lastmod>\n", u.Lastmod)
		}
		if u.Changefreq != "" {
			fmt.Fprintf(w, "    <changefreq>%s</changefreq>\n", u.Changefreq)
		}
		if u.ImageLoc != "" {
			fmt.Fprintf(w, "    <image:image>\n      <image:loc>%s</image:loc>\n      <image:title>%s</image:title>\n    </image:image>\n",
				xmlText(u.ImageLoc), xmlText(u.ImageTitle))
		}
		fmt.Fprint(w, "  </url>\n")
	}
	fmt.Fprint(w, "</urlset>\n")
}

func writeSitemapIndex(w io.Writer, locs []string) {
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n")
	for _, l := range locs {
		fmt.Fprintf(w, "  <sitemap>\n    <loc>%s</loc>\n  </sitemap>\n", xmlText(l))
	}
	fmt.Fprint(w, "</sitemapindex>\n")
}

func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func sitemapChunks(n int) int { return (n + sitemapChunk - 1) / sitemapChunk }

// shopifySitemap serves /sitemap.xml and the files it lists. Products are split 5,000 per
// file, each named with the id range it covers; the first products file also lists the
// home page, as Shopify's does.
func (s *Store) shopifySitemap(w http.ResponseWriter, r *http.Request) {
	b := base(r)
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	path := r.URL.Path
	switch path {
	case "/sitemap.xml":
		var locs []string
		for k := 1; k <= sitemapChunks(s.cat.Len()); k++ {
			lo, hi := (k-1)*sitemapChunk, min(k*sitemapChunk, s.cat.Len())-1
			locs = append(locs, fmt.Sprintf("%s/sitemap_products_%d.xml?from=%d&to=%d", b, k, s.cat.Product(lo).ID, s.cat.Product(hi).ID))
		}
		locs = append(locs, b+"/sitemap_pages_1.xml", b+"/sitemap_collections_1.xml")
		writeSitemapIndex(w, locs)
	case "/sitemap_collections_1.xml":
		var urls []sitemapURL
		for _, c := range s.cat.Collections() {
			urls = append(urls, sitemapURL{Loc: b + "/collections/" + c.Handle, Lastmod: ts(epoch), Changefreq: "daily"})
		}
		writeURLSet(w, urls)
	case "/sitemap_pages_1.xml":
		var urls []sitemapURL
		for _, p := range contentPages {
			urls = append(urls, sitemapURL{Loc: b + "/pages/" + p.handle, Lastmod: ts(epoch), Changefreq: "weekly"})
		}
		writeURLSet(w, urls)
	default:
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/sitemap_products_"), ".xml"))
		if err != nil || k < 1 || k > max(1, sitemapChunks(s.cat.Len())) {
			w.Header().Del("Content-Type")
			s.notFound(w, r)
			return
		}
		var urls []sitemapURL
		if k == 1 {
			urls = append(urls, sitemapURL{Loc: b + "/", Changefreq: "daily"})
		}
		for i := (k - 1) * sitemapChunk; i < min(k*sitemapChunk, s.cat.Len()); i++ {
			p := s.cat.Product(i)
			u := sitemapURL{Loc: b + "/products/" + p.Handle, Lastmod: ts(p.UpdatedAt), Changefreq: "daily"}
			if len(p.Images) > 0 {
				u.ImageLoc, u.ImageTitle = p.Images[0].Src, p.Title
			}
			urls = append(urls, u)
		}
		writeURLSet(w, urls)
	}
}
