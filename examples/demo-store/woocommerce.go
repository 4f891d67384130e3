package demostore

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

// The WooCommerce kind: a German WordPress shop on the Storefront theme. Its pages carry
// WooCommerce's markup (ul.products tiles, <del>/<ins> sale prices with their
// screen-reader sentences, /page/N/ archives, data-product_variations on a variable
// product's form, WooCommerce's JSON-LD), its prices are written "1.234,56 €", and its
// Store API (/wp-json/wc/store/v1/) is open.

const (
	wooProductBase  = "/produkt/"
	wooCategoryBase = "/produkt-kategorie/"
	wooStoreAPI     = "/wp-json/wc/store/v1"
	// wooUploads is where WordPress serves the media library.
	wooUploads = "/wp-content/uploads/2024/05/"
	// wooVersion is the WooCommerce version the pages announce.
	wooVersion = "9.1.4"
)

func (s *Store) wooRoute(path string) (Route, http.HandlerFunc) {
	switch path {
	case "/":
		return RouteHome, s.wooHome
	case "/robots.txt":
		return RouteRobots, s.wooRobots
	case "/wp-sitemap.xml", "/wp-sitemap-taxonomies-product_cat-1.xml":
		return RouteSitemap, s.wooSitemap
	case wooStoreAPI + "/products":
		return RouteProductsJSON, s.wooAPIProducts
	case wooStoreAPI + "/products/categories":
		return RouteCollectionsJSON, s.wooAPICategories
	}
	switch {
	case strings.HasPrefix(path, "/wp-sitemap-posts-product-") && strings.HasSuffix(path, ".xml"):
		return RouteSitemap, s.wooSitemap
	case strings.HasPrefix(path, wooProductBase):
		return RouteProductPage, s.wooProduct
	case strings.HasPrefix(path, wooCategoryBase):
		return RouteCategoryPage, s.wooCategoryPage
	case strings.HasPrefix(path, wooUploads):
		return RouteMedia, s.uploadedImage
	}
	for _, p := range wooPages {
		if path == "/"+p.slug+"/" {
			return RoutePage, s.wooContentPage
		}
	}
	return RouteOther, nil
}

// wooPages are the shop's other pages: the menu's and footer's links that are not
// categories.
var wooPages = []struct{ slug, title, text string }{
	{"kontakt", "Kontakt", "Schreiben Sie uns, wir antworten innerhalb eines Werktags."},
	{"ueber-uns", "Über uns", "Ein kleines Team aus dem Erzgebirge."},
	{"warenkorb", "Warenkorb", "Ihr Warenkorb ist gegenwärtig leer."},
	{"mein-konto", "Mein Konto", "Anmelden"},
	{"impressum", "Impressum", "Bergwerk Laden GmbH, Musterstraße 1, 09456 Annaberg-Buchholz."},
	{"datenschutzerklaerung", "Datenschutzerklärung", "Wir speichern nur, was wir für Ihre Bestellung brauchen."},
	{"agb", "AGB", "Es gelten unsere Allgemeinen Geschäftsbedingungen."},
}

// wooPrice writes an amount as WooCommerce's wc_price() does in the shop's locale.
func (s *Store) wooPrice(m Money) string {
	return `<span class="woocommerce-Price-amount amount"><bdi>` + germanPrices.number(m) +
		`&nbsp;<span class="woocommerce-Price-currencySymbol">` + html.EscapeString(currencySymbol(s.currency)) + `</span></bdi></span>`
}

// wooItem is a catalogue product as WooCommerce holds it: a simple product (one variant,
// no options), or a variable product whose variants are its variations.
type wooItem struct {
	Product
	id       int
	variable bool
	// low and high are the lowest and highest price, lowRegular and highRegular the
	// lowest and highest regular price (the compare-at price on a sale, else the price).
	low, high, lowRegular, highRegular Money
}

func (s *Store) wooItem(p Product) wooItem {
	it := wooItem{Product: p, id: wooID(p.Index), variable: !isSimple(p)}
	for i, v := range p.Variants {
		regular := max(v.CompareAtPrice, v.Price)
		if i == 0 || v.Price < it.low {
			it.low = v.Price
		}
		if i == 0 || regular < it.lowRegular {
			it.lowRegular = regular
		}
		it.high, it.highRegular = max(it.high, v.Price), max(it.highRegular, regular)
	}
	return it
}

// wooID is the post id of product i; its variations are numbered after wooVariationID.
func wooID(i int) int { return 100 + i }

func wooVariationID(i, k int) int { return 1_000_000 + i*100 + k }

// isSimple reports whether p is a product without options: one variant, Shopify's
// "Default Title".
func isSimple(p Product) bool {
	return len(p.Variants) == 1 && len(p.Options) == 1 && p.Options[0].Name == "Title"
}

// onSale reports whether the product's price block strikes a regular price: a product
// whose one price (or whose every variation's price) is below the same regular price.
func (it wooItem) onSale() bool {
	return it.low == it.high && it.lowRegular == it.highRegular && it.lowRegular > it.low
}

// priceHTML is the product's price as get_price_html() writes it: a range for a variable
// product whose variations cost different amounts, a struck regular price on a sale, each
// followed by the sentence WooCommerce writes for screen readers.
func (s *Store) priceHTML(it wooItem) template.HTML {
	said := func(m Money) string {
		return germanPrices.number(m) + "&nbsp;" + html.EscapeString(currencySymbol(s.currency))
	}
	switch {
	case it.low != it.high:
		return template.HTML(`<span aria-hidden="true">` + s.wooPrice(it.low) + ` &ndash; ` + s.wooPrice(it.high) + `</span>` +
			`<span class="screen-reader-text">Preisspanne: ` + said(it.low) + ` bis ` + said(it.high) + `</span>`)
	case it.onSale():
		return template.HTML(`<del aria-hidden="true">` + s.wooPrice(it.lowRegular) + `</del> <span class="screen-reader-text">Ursprünglicher Preis war: ` +
			said(it.lowRegular) + `.</span><ins aria-hidden="true">` + s.wooPrice(it.low) + `</ins><span class="screen-reader-text">Aktueller Preis ist: ` +
			said(it.low) + `.</span>`)
	}
	return template.HTML(s.wooPrice(it.low))
}

// wooImage is the media library's URL of a product image.
func wooImage(r *http.Request, p Product, im Image, size string) string {
	return base(r) + wooUploads + p.Handle + "-" + strconv.Itoa(im.Position) + size + ".jpg"
}

// wooTileView is a product tile of ul.products.
type wooTileView struct {
	ID                         int
	URL, Title, Image, Classes string
	SKU, Button, ButtonClass   string
	ButtonURL                  string
	Price                      template.HTML
	Sale                       bool
}

func (s *Store) wooTile(r *http.Request, i int) wooTileView {
	p := s.cat.Product(i)
	it := s.wooItem(p)
	t := wooTileView{ID: it.id, URL: base(r) + s.productPath(p.Handle), Title: p.Title, Price: s.priceHTML(it), Sale: it.onSale(),
		SKU: p.LeadVariant().SKU}
	stock := "instock"
	if !p.Available() {
		stock = "outofstock"
	}
	kind := "simple"
	if it.variable {
		kind = "variable"
	}
	t.Classes = fmt.Sprintf("product type-product post-%d status-publish %s product_cat-%s has-post-thumbnail", it.id, stock, p.Category)
	if t.Sale {
		t.Classes += " sale"
	}
	t.Classes += " shipping-taxable purchasable product-type-" + kind
	switch {
	case it.variable:
		t.Button, t.ButtonURL, t.ButtonClass = "Ausführung wählen", t.URL, "button product_type_variable add_to_cart_button"
	case p.Available():
		t.Button, t.ButtonURL, t.ButtonClass = "In den Warenkorb", "?add-to-cart="+strconv.Itoa(it.id), "button product_type_simple add_to_cart_button ajax_add_to_cart"
	default:
		t.Button, t.ButtonURL, t.ButtonClass = "Weiterlesen", t.URL, "button product_type_simple"
	}
	if len(p.Images) > 0 {
		t.Image = wooImage(r, p, p.Images[0], "-324x324")
	}
	return t
}

// wooView is what the WooCommerce templates see.
type wooView struct {
	Store, Base, Title, Canonical, BodyClass, Version string
	Menu, Breadcrumbs                                 []link
	Heading, Intro                                    string
	Categories                                        []wooCategoryView
	Tiles                                             []wooTileView
	ResultCount                                       template.HTML
	Pager                                             []wooPageLink
	Next                                              string
	Product                                           *wooProductView
	JSONLD                                            []template.JS
}

type wooCategoryView struct {
	URL, Title, Image string
	Count             int
}

// wooPageLink is an item of an archive's pagination: a page number, the current one, or
// the dots between distant numbers.
type wooPageLink struct {
	URL     string
	Number  int
	Current bool
	Dots    bool
}

func (s *Store) wooView(r *http.Request, title string) wooView {
	v := wooView{Store: s.name, Base: base(r), Title: title + " – " + s.name, Version: wooVersion}
	for _, c := range s.cat.Collections() {
		v.Menu = append(v.Menu, link{base(r) + s.CategoryPath(c.Handle), c.Title})
	}
	return v
}

func (s *Store) wooHome(w http.ResponseWriter, r *http.Request) {
	v := s.wooView(r, "Startseite")
	v.Title, v.Canonical = s.name+" – Handgemachtes aus dem Erzgebirge", base(r)+"/"
	v.BodyClass = "home page-template page-template-template-homepage page page-id-7 wp-custom-logo theme-storefront woocommerce-no-js storefront-align-wide right-sidebar woocommerce-active"
	for _, c := range s.cat.Collections() {
		n, _ := s.cat.members(c)
		v.Categories = append(v.Categories, wooCategoryView{URL: base(r) + s.CategoryPath(c.Handle), Title: c.Title, Count: n})
	}
	for i := 0; i < s.cat.Len() && i < 4; i++ {
		v.Tiles = append(v.Tiles, s.wooTile(r, i))
	}
	s.render(w, "woo-home", v)
}

// wooCategoryPage serves /produkt-kategorie/{handle}/ and its /page/N/, as WordPress
// does: a path without its trailing slash, or page 1 named, is redirected; a page past the
// last is 404.
func (s *Store) wooCategoryPage(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, wooCategoryBase)
	handle, paging, _ := strings.Cut(rest, "/")
	n := 1
	if paging != "" {
		num, ok := strings.CutPrefix(paging, "page/")
		var err error
		if n, err = strconv.Atoi(strings.TrimSuffix(num, "/")); !ok || err != nil || n < 1 {
			s.notFound(w, r)
			return
		}
	}
	switch {
	case !strings.HasSuffix(r.URL.Path, "/"):
		http.Redirect(w, r, base(r)+r.URL.Path+"/", http.StatusMovedPermanently)
	case paging != "" && n == 1:
		http.Redirect(w, r, base(r)+s.CategoryPath(handle), http.StatusMovedPermanently)
	default:
		s.wooCategory(w, r, handle, n)
	}
}

func (s *Store) wooCategory(w http.ResponseWriter, r *http.Request, handle string, n int) {
	col, ok := s.cat.Collection(handle)
	pages := s.CategoryPages(handle)
	if !ok || handle == "all" || n > pages {
		s.notFound(w, r)
		return
	}
	total, at := s.cat.members(col)
	v := s.wooView(r, col.Title)
	archive := base(r) + s.CategoryPath(handle)
	v.Canonical = archive
	if n > 1 {
		v.Canonical = archive + "page/" + strconv.Itoa(n) + "/"
	}
	v.BodyClass = fmt.Sprintf("archive tax-product_cat term-%s term-%d wp-custom-logo theme-storefront woocommerce woocommerce-page woocommerce-no-js storefront-align-wide right-sidebar woocommerce-active",
		handle, wooCategoryID(s.cat, handle))
	v.Heading, v.Intro = col.Title, col.Description
	v.Breadcrumbs = []link{{base(r), "Startseite"}, {"", col.Title}}
	first, last := (n-1)*s.pageSize, min(n*s.pageSize, total)
	for k := first; k < last; k++ {
		v.Tiles = append(v.Tiles, s.wooTile(r, at(k)))
	}
	switch {
	case total == 1:
		v.ResultCount = "Zeige das einzige Ergebnis"
	case pages == 1:
		v.ResultCount = template.HTML(fmt.Sprintf("Zeige alle %d Ergebnisse", total))
	default:
		v.ResultCount = template.HTML(fmt.Sprintf("Zeige %d&ndash;%d von %d Ergebnissen", first+1, last, total))
	}
	if pages > 1 {
		v.Pager = wooPagination(archive, n, pages)
		if n < pages {
			v.Next = archive + "page/" + strconv.Itoa(n+1) + "/"
		}
	}
	s.render(w, "woo-category", v)
}

// wooPagination is paginate_links() with WooCommerce's settings: the first and last
// three pages and three on each side of the current one, dots between.
func wooPagination(archive string, current, pages int) []wooPageLink {
	var out []wooPageLink
	dots := false
	for k := 1; k <= pages; k++ {
		if k > 3 && k < pages-2 && (k < current-3 || k > current+3) {
			if !dots {
				out = append(out, wooPageLink{Dots: true})
				dots = true
			}
			continue
		}
		dots = false
		u := archive
		if k > 1 {
			u += "page/" + strconv.Itoa(k) + "/"
		}
		out = append(out, wooPageLink{URL: u, Number: k, Current: k == current})
	}
	return out
}

// wooCategoryID is a category's term id: its place among the collections.
func wooCategoryID(cat *Catalog, handle string) int {
	for k, c := range cat.Collections() {
		if c.Handle == handle {
			return 15 + k
		}
	}
	return 0
}

// wooProductView is a single product page.
type wooProductView struct {
	ID                int
	Title, SKU, Short string
	Classes           string
	Body              template.HTML
	Price             template.HTML
	Sale, Available   bool
	Variable          bool
	Images            []wooImageView
	Attributes        []wooAttributeView
	Variations        string // the JSON of data-product_variations
	Category, Canon   link
	Related           []wooTileView
}

type wooImageView struct {
	Full, Thumb, Medium, Alt string
}

type wooAttributeView struct {
	Key, Label, Name string
	Options          []link // value (slug) and text
}

// wooAttribute is the global attribute WooCommerce stores a catalogue option as: its
// taxonomy (pa_...) and its label in the shop's language.
func wooAttribute(option string) (taxonomy, label string) {
	switch option {
	case "Size":
		return "pa_groesse", "Größe"
	case "Color":
		return "pa_farbe", "Farbe"
	}
	return "pa_" + slug(option), option
}

func (s *Store) wooProduct(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, wooProductBase), "/")
	switch {
	case handle == "" || strings.Contains(handle, "/"):
		s.notFound(w, r)
		return
	case !strings.HasSuffix(r.URL.Path, "/"):
		http.Redirect(w, r, base(r)+r.URL.Path+"/", http.StatusMovedPermanently)
		return
	}
	p, ok := s.plainProduct(w, r, handle)
	if !ok {
		return
	}
	it := s.wooItem(p)
	u := base(r) + s.productPath(p.Handle)
	v := s.wooView(r, p.Title)
	v.Canonical = u
	v.BodyClass = fmt.Sprintf("product-template-default single single-product postid-%d wp-custom-logo theme-storefront woocommerce woocommerce-page woocommerce-no-js storefront-align-wide right-sidebar woocommerce-active", it.id)
	tile := s.wooTile(r, p.Index)
	pv := &wooProductView{ID: it.id, Title: p.Title, SKU: p.LeadVariant().SKU, Short: plainText(p.BodyHTML), Body: template.HTML(p.BodyHTML),
		Classes: strings.Replace(tile.Classes, "status-publish", "status-publish first", 1), Price: s.priceHTML(it), Sale: it.onSale(),
		Available: p.Available(), Variable: it.variable}
	if it.variable {
		pv.SKU = p.Handle
	}
	for _, im := range p.Images {
		pv.Images = append(pv.Images, wooImageView{Full: wooImage(r, p, im, ""), Thumb: wooImage(r, p, im, "-100x100"),
			Medium: wooImage(r, p, im, "-416x416"), Alt: im.Alt})
	}
	if col, ok := s.cat.Collection(p.Category); ok && p.Category != "" {
		pv.Category = link{base(r) + s.CategoryPath(col.Handle), col.Title}
		v.Breadcrumbs = []link{{base(r), "Startseite"}, pv.Category, {"", p.Title}}
	}
	if it.variable {
		pv.Attributes, pv.Variations = s.wooVariations(r, p)
	}
	for _, i := range s.relatedIndexes(p) {
		pv.Related = append(pv.Related, s.wooTile(r, i))
	}
	v.Product = pv
	v.JSONLD = []template.JS{jsonScript(s.wooJSONLD(r, it, v.Breadcrumbs))}
	s.render(w, "woo-product", v)
}

// wooVariations are a variable product's attributes (the form's rows) and the JSON of its
// variations, as WooCommerce writes it into data-product_variations.
func (s *Store) wooVariations(r *http.Request, p Product) ([]wooAttributeView, string) {
	var attrs []wooAttributeView
	for _, o := range p.Options {
		taxonomy, label := wooAttribute(o.Name)
		a := wooAttributeView{Key: "attribute_" + taxonomy, Label: label, Name: taxonomy}
		for _, val := range o.Values {
			a.Options = append(a.Options, link{slug(val), val})
		}
		attrs = append(attrs, a)
	}
	var variations []map[string]any
	for k, v := range p.Variants {
		values := map[string]string{}
		for oi, a := range attrs {
			if oi < len(v.OptionValues) {
				values[a.Key] = slug(v.OptionValues[oi])
			}
		}
		stock := `<p class="stock in-stock">Vorrätig</p>` + "\n"
		if !v.Available {
			stock = `<p class="stock out-of-stock">Nicht vorrätig</p>` + "\n"
		}
		image := map[string]any{}
		if im, ok := p.image(v.ImageID); ok {
			image = map[string]any{"title": p.Handle + "-" + strconv.Itoa(im.Position), "caption": "", "url": wooImage(r, p, im, ""),
				"alt": im.Alt, "src": wooImage(r, p, im, "-416x416"), "srcset": "", "sizes": "(max-width: 416px) 100vw, 416px",
				"full_src": wooImage(r, p, im, ""), "full_src_w": im.Width, "full_src_h": im.Height,
				"gallery_thumbnail_src": wooImage(r, p, im, "-100x100"), "gallery_thumbnail_src_w": 100, "gallery_thumbnail_src_h": 100,
				"thumb_src": wooImage(r, p, im, "-324x324"), "thumb_src_w": 324, "thumb_src_h": 324, "src_w": 416, "src_h": 416}
		}
		maxQty := any("")
		if !v.Available {
			maxQty = 0
		}
		variations = append(variations, map[string]any{
			"attributes": values, "availability_html": stock, "backorders_allowed": false,
			"dimensions": map[string]string{"length": "", "width": "", "height": ""}, "dimensions_html": "n. v.",
			"display_price": json.Number(v.Price.String()), "display_regular_price": json.Number(max(v.CompareAtPrice, v.Price).String()),
			"image": image, "image_id": v.ImageID % 100_000, "is_downloadable": false, "is_in_stock": v.Available, "is_purchasable": true,
			"is_sold_individually": "no", "is_virtual": false, "max_qty": maxQty, "min_qty": 1, "price_html": "",
			"sku": v.SKU, "variation_description": "", "variation_id": wooVariationID(p.Index, k),
			"variation_is_active": true, "variation_is_visible": true, "weight": strconv.Itoa(v.Grams / 1000), "weight_html": "n. v.",
		})
	}
	raw, _ := json.Marshal(variations)
	return attrs, string(raw)
}

// wooJSONLD is the structured data WooCommerce prints on a product page: the breadcrumb
// trail and the Product in one @graph, its offer an AggregateOffer for a variable
// product, else an Offer whose price specifications give, on a sale, the regular price
// as ListPrice.
func (s *Store) wooJSONLD(r *http.Request, it wooItem, crumbs []link) map[string]any {
	u := base(r) + s.productPath(it.Handle)
	seller := map[string]any{"@type": "Organization", "name": s.name, "url": base(r)}
	availability := availability("http://schema.org/", it.Available())
	var offer map[string]any
	if it.variable {
		offer = map[string]any{"@type": "AggregateOffer", "lowPrice": it.low.String(), "highPrice": it.high.String(),
			"offerCount": len(it.Variants), "priceValidUntil": "2025-12-31", "availability": availability, "url": u,
			"seller": seller, "priceCurrency": s.currency}
	} else {
		specs := []any{map[string]any{"@type": "UnitPriceSpecification", "price": it.low.String(), "priceCurrency": s.currency,
			"valueAddedTaxIncluded": true, "validThrough": "2025-12-31"}}
		if it.onSale() {
			specs = append(specs, map[string]any{"@type": "UnitPriceSpecification", "price": it.lowRegular.String(), "priceCurrency": s.currency,
				"valueAddedTaxIncluded": true, "validThrough": "2025-12-31", "priceType": "https://schema.org/ListPrice"})
		}
		offer = map[string]any{"@type": "Offer", "priceSpecification": specs, "priceValidUntil": "2025-12-31",
			"availability": availability, "url": u, "seller": seller}
	}
	var items []any
	for k, c := range crumbs {
		id := c.URL
		if id == "" {
			id = u // the page itself, which the trail names without a link
		}
		items = append(items, map[string]any{"@type": "ListItem", "position": k + 1, "item": map[string]any{"name": c.Text, "@id": id}})
	}
	product := map[string]any{"@context": "https://schema.org/", "@type": "Product", "@id": u + "#product", "name": it.Title, "url": u,
		"description": plainText(it.BodyHTML), "sku": it.LeadVariant().SKU, "offers": []any{offer}}
	if it.variable {
		product["sku"] = it.Handle
	}
	if len(it.Images) > 0 {
		product["image"] = wooImage(r, it.Product, it.Images[0], "")
	}
	return map[string]any{"@context": "https://schema.org/", "@graph": []any{
		map[string]any{"@context": "https://schema.org/", "@type": "BreadcrumbList", "itemListElement": items}, product}}
}

func (s *Store) wooContentPage(w http.ResponseWriter, r *http.Request) {
	for _, p := range wooPages {
		if r.URL.Path == "/"+p.slug+"/" {
			v := s.wooView(r, p.title)
			v.Canonical, v.Heading, v.Intro = base(r)+r.URL.Path, p.title, p.text
			v.BodyClass = "page-template-default page wp-custom-logo theme-storefront woocommerce-no-js storefront-align-wide right-sidebar woocommerce-active"
			s.render(w, "woo-page", v)
			return
		}
	}
	s.notFound(w, r)
}

// wooRobots is WordPress's own robots.txt, with the store's extra rules.
func (s *Store) wooRobots(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n")
	for _, p := range s.opts.Faults.RobotsDisallow {
		b.WriteString("Disallow: " + p + "\n")
	}
	b.WriteString("\nSitemap: " + base(r) + "/wp-sitemap.xml\n")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, b.String())
}

// wooSitemap is WordPress's sitemap: an index of the products (2,000 a file, as
// WordPress splits them) and of the product categories.
func (s *Store) wooSitemap(w http.ResponseWriter, r *http.Request) {
	b := base(r)
	w.Header().Set("Content-Type", "application/xml; charset=UTF-8")
	const perFile = 2000
	files := max(1, (s.cat.Len()+perFile-1)/perFile)
	switch path := r.URL.Path; path {
	case "/wp-sitemap.xml":
		var locs []string
		for k := 1; k <= files; k++ {
			locs = append(locs, fmt.Sprintf("%s/wp-sitemap-posts-product-%d.xml", b, k))
		}
		writeSitemapIndex(w, append(locs, b+"/wp-sitemap-taxonomies-product_cat-1.xml"))
	case "/wp-sitemap-taxonomies-product_cat-1.xml":
		var urls []sitemapURL
		for _, c := range s.cat.Collections() {
			urls = append(urls, sitemapURL{Loc: b + s.CategoryPath(c.Handle)})
		}
		writeURLSet(w, urls)
	default:
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/wp-sitemap-posts-product-"), ".xml"))
		if err != nil || k < 1 || k > files {
			w.Header().Del("Content-Type")
			s.notFound(w, r)
			return
		}
		var urls []sitemapURL
		for i := (k - 1) * perFile; i < min(k*perFile, s.cat.Len()); i++ {
			p := s.cat.Product(i)
			urls = append(urls, sitemapURL{Loc: b + s.productPath(p.Handle), Lastmod: p.UpdatedAt.Format("2006-01-02T15:04:05+00:00")})
		}
		writeURLSet(w, urls)
	}
}

// uploadedImage serves a media library image: the placeholder the other kinds serve.
func (s *Store) uploadedImage(w http.ResponseWriter, r *http.Request) {
	r2 := r.Clone(r.Context())
	r2.URL.Path = strings.TrimSuffix(r.URL.Path, ".jpg") + ".svg"
	s.mediaImage(w, r2)
}
