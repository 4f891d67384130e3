package demostore

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

func (s *Store) jsonldRoute(path string) (Route, http.HandlerFunc) {
	switch path {
	case "/":
		return RouteHome, s.plainHome
	case "/robots.txt":
		return RouteRobots, s.robotsTxt
	case "/sitemap.xml", "/sitemaps/categories.xml":
		return RouteSitemap, s.jsonldSitemap
	}
	switch {
	case strings.HasPrefix(path, "/sitemaps/products-") && strings.HasSuffix(path, ".xml"):
		return RouteSitemap, s.jsonldSitemap
	case strings.HasPrefix(path, "/product/"):
		return RouteProductPage, s.jsonldProduct
	case strings.HasPrefix(path, "/category/"):
		return RouteCategoryPage, func(w http.ResponseWriter, r *http.Request) {
			s.jsonldCategory(w, r, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/category/"), "/"))
		}
	case strings.HasPrefix(path, "/media/"):
		return RouteMedia, s.mediaImage
	}
	return RouteOther, nil
}

// JSON-LD flavours. Product i uses flavour i%4, so every page of four consecutive
// products shows all of them:
//
//	0  one Product; one variant -> Offer, several -> AggregateOffer (lowPrice/highPrice)
//	1  {"@graph": [Organization, BreadcrumbList, Product with an Offer per variant]}
//	2  a top-level array [Product with the lead variant's Offer, BreadcrumbList]
//	3  ProductGroup with hasVariant (one Product + Offer per variant), BreadcrumbList apart
//
// Prices: i%5 == 0 a JSON number, i%5 == 2 a string with a decimal comma ("49,99"),
// otherwise a string with a dot ("49.99").
const (
	FlavorProduct      = 0
	FlavorGraph        = 1
	FlavorArray        = 2
	FlavorProductGroup = 3
)

// JSONLDFlavor is the flavour of product i's JSON-LD (see the Flavor constants).
func JSONLDFlavor(i int) int { return i % 4 }

func ldPrice(m Money, i int) any {
	switch i % 5 {
	case 0:
		return json.Number(m.String())
	case 2:
		return strings.Replace(m.String(), ".", ",", 1)
	}
	return m.String()
}

func (s *Store) ldOffer(u string, v Variant, i int) map[string]any {
	prefix := "https://schema.org/"
	if i%7 == 3 {
		prefix = "http://schema.org/"
	}
	o := map[string]any{"@type": "Offer", "price": ldPrice(v.Price, i), "priceCurrency": s.currency,
		"availability": availability(prefix, v.Available), "url": u, "sku": v.SKU,
		"itemCondition": "https://schema.org/NewCondition"}
	if v.CompareAtPrice > v.Price {
		o["priceSpecification"] = map[string]any{"@type": "UnitPriceSpecification",
			"priceType": "https://schema.org/StrikethroughPrice", "price": ldPrice(v.CompareAtPrice, i), "priceCurrency": s.currency}
	}
	return o
}

func (s *Store) ldBreadcrumbs(crumbs []link) map[string]any {
	var items []any
	for k, c := range crumbs {
		items = append(items, map[string]any{"@type": "ListItem", "position": k + 1, "name": c.Text, "item": c.URL})
	}
	return map[string]any{"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items}
}

func (s *Store) jsonldProduct(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/product/"), "/")
	p, ok := s.plainProduct(w, r, handle)
	if !ok {
		return
	}
	u := base(r) + "/product/" + p.Handle
	crumbs := s.breadcrumbs(r, p)
	var images []string
	for _, im := range p.Images {
		images = append(images, s.imageURL(r, p, im))
	}
	i := p.Index
	product := map[string]any{"@context": "https://schema.org", "@type": "Product", "name": p.Title, "url": u,
		"image": images, "description": plainText(p.BodyHTML), "sku": p.LeadVariant().SKU,
		"brand": map[string]any{"@type": "Brand", "name": p.Vendor}, "category": p.ProductType}
	ldRating(product, p)
	var scripts []template.JS
	switch JSONLDFlavor(i) {
	case FlavorProduct:
		if len(p.Variants) == 1 {
			product["offers"] = s.ldOffer(u, p.Variants[0], i)
		} else {
			lo, hi := p.PriceRange()
			product["offers"] = map[string]any{"@type": "AggregateOffer", "lowPrice": ldPrice(lo, i), "highPrice": ldPrice(hi, i),
				"offerCount": len(p.Variants), "priceCurrency": s.currency,
				"availability": availability("https://schema.org/", p.Available())}
		}
		scripts = append(scripts, jsonScript(product), jsonScript(s.ldBreadcrumbs(crumbs)))
	case FlavorGraph:
		var offers []any
		for _, v := range p.Variants {
			offers = append(offers, s.ldOffer(u+"?variant="+strconv.FormatInt(v.ID, 10), v, i))
		}
		delete(product, "@context")
		product["@id"] = u + "#product"
		product["offers"] = offers
		bc := s.ldBreadcrumbs(crumbs)
		delete(bc, "@context")
		scripts = append(scripts, jsonScript(map[string]any{"@context": "https://schema.org", "@graph": []any{
			map[string]any{"@type": "Organization", "@id": base(r) + "/#org", "name": s.name, "url": base(r) + "/"},
			bc, product,
		}}))
	case FlavorArray:
		product["offers"] = s.ldOffer(u, p.LeadVariant(), i)
		scripts = append(scripts, jsonScript([]any{product, s.ldBreadcrumbs(crumbs)}))
	case FlavorProductGroup:
		group := map[string]any{"@context": "https://schema.org", "@type": "ProductGroup", "name": p.Title, "url": u,
			"productGroupID": strconv.FormatInt(p.ID, 10), "description": plainText(p.BodyHTML), "image": images,
			"brand": map[string]any{"@type": "Brand", "name": p.Vendor}}
		var varies []string
		for _, o := range p.Options {
			switch o.Name {
			case "Size":
				varies = append(varies, "https://schema.org/size")
			case "Color":
				varies = append(varies, "https://schema.org/color")
			}
		}
		group["variesBy"] = varies
		ldRating(group, p)
		var variants []any
		for _, v := range p.Variants {
			vu := u + "?variant=" + strconv.FormatInt(v.ID, 10)
			vp := map[string]any{"@type": "Product", "name": p.Title + " - " + v.Title, "sku": v.SKU, "url": vu,
				"offers": s.ldOffer(vu, v, i)}
			for k, o := range p.Options {
				if k < len(v.OptionValues) {
					switch o.Name {
					case "Size":
						vp["size"] = v.OptionValues[k]
					case "Color":
						vp["color"] = v.OptionValues[k]
					}
				}
			}
			variants = append(variants, vp)
		}
		group["hasVariant"] = variants
		scripts = append(scripts, jsonScript(group), jsonScript(s.ldBreadcrumbs(crumbs)))
	}
	v := pageView{Store: s.name, Base: base(r), Title: p.Title + " | " + s.name, Canonical: u, Nav: s.nav(r),
		Currency: s.currency, Product: s.productView(r, p), Breadcrumbs: crumbs, JSONLD: scripts}
	s.render(w, "jsonld-product", v)
}

// plainProduct resolves a product of the non-Shopify kinds, serving the special handles.
func (s *Store) plainProduct(w http.ResponseWriter, r *http.Request, handle string) (Product, bool) {
	if s.specialProduct(w, r, handle, "") {
		return Product{}, false
	}
	i, ok := 0, s.cat.Len() > 0
	if handle != HandleSlow {
		i, ok = s.cat.Lookup(handle)
	}
	if !ok {
		s.notFound(w, r)
		return Product{}, false
	}
	s.markSeen(i)
	return s.cat.Product(i), true
}

func (s *Store) jsonldCategory(w http.ResponseWriter, r *http.Request, handle string) {
	v := pageView{Store: s.name, Base: base(r), Nav: s.nav(r), Currency: s.currency}
	col, ok := s.listing(r, &v, handle)
	if !ok {
		s.notFound(w, r)
		return
	}
	v.Title, v.Heading, v.Intro = col.Title+" | "+s.name, col.Title, col.Description
	var items []any
	for k, t := range v.Tiles {
		items = append(items, map[string]any{"@type": "ListItem", "position": (v.Page-1)*s.pageSize + k + 1, "url": t.URL, "name": t.Title})
	}
	n, _ := s.cat.members(col)
	v.Breadcrumbs = []link{{base(r) + "/", "Home"}, {base(r) + s.CategoryPath(handle), col.Title}}
	v.JSONLD = []template.JS{
		jsonScript(map[string]any{"@context": "https://schema.org", "@type": "ItemList", "name": col.Title,
			"numberOfItems": n, "itemListElement": items}),
		jsonScript(s.ldBreadcrumbs(v.Breadcrumbs)),
	}
	s.render(w, "jsonld-category", v)
}

// plainHome is the home page of the non-Shopify kinds: categories and a few products.
func (s *Store) plainHome(w http.ResponseWriter, r *http.Request) {
	v := pageView{Store: s.name, Base: base(r), Title: s.name, Canonical: base(r) + "/", Nav: s.nav(r),
		Currency: s.currency, Heading: s.name, Intro: "Good things, fairly priced."}
	for i := 0; i < s.cat.Len() && i < 8; i++ {
		v.Tiles = append(v.Tiles, s.tile(r, i))
	}
	if s.opts.Kind == JSONLD {
		v.JSONLD = []template.JS{jsonScript(map[string]any{"@context": "https://schema.org", "@type": "WebSite",
			"name": s.name, "url": base(r) + "/"})}
	}
	s.render(w, "plain-home", v)
}

// jsonldSitemap: /sitemap.xml indexes /sitemaps/products-N.xml (5,000 URLs each) and
// /sitemaps/categories.xml.
func (s *Store) jsonldSitemap(w http.ResponseWriter, r *http.Request) {
	b := base(r)
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	switch r.URL.Path {
	case "/sitemap.xml":
		var locs []string
		for k := 1; k <= sitemapChunks(s.cat.Len()); k++ {
			locs = append(locs, fmt.Sprintf("%s/sitemaps/products-%d.xml", b, k))
		}
		writeSitemapIndex(w, append(locs, b+"/sitemaps/categories.xml"))
	case "/sitemaps/categories.xml":
		var urls []sitemapURL
		for _, c := range s.cat.Collections() {
			urls = append(urls, sitemapURL{Loc: b + s.CategoryPath(c.Handle), Changefreq: "daily"})
		}
		writeURLSet(w, urls)
	default:
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sitemaps/products-"), ".xml"))
		if err != nil || k < 1 || k > sitemapChunks(s.cat.Len()) {
			w.Header().Del("Content-Type")
			s.notFound(w, r)
			return
		}
		var urls []sitemapURL
		for i := (k - 1) * sitemapChunk; i < min(k*sitemapChunk, s.cat.Len()); i++ {
			p := s.cat.Product(i)
			urls = append(urls, sitemapURL{Loc: b + "/product/" + p.Handle, Lastmod: p.UpdatedAt.Format("2006-01-02")})
		}
		writeURLSet(w, urls)
	}
}
