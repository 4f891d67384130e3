package demostore

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

// The Headless kind: a French shop whose storefront is a Next.js application over a
// commerce API, as Vercel's Next.js Commerce template builds one. The server renders
// little markup (the menu, headings, a product's displayed price "12,50 €"); the catalog
// is in the page's embedded state, <script id="__NEXT_DATA__">, in the Storefront API's
// shapes: money as {"amount": "12.50", "currencyCode": "EUR"}, products with their
// handle, priceRange, variants and selectedOptions. Listings are paged ?page=N.

const (
	headlessProductBase  = "/product/"
	headlessCategoryBase = "/search/"
	// headlessBuildID is the build id Next.js writes into every page's state.
	headlessBuildID = "kJ3x9QeZ1mVt7pLr"
)

// headlessPages are the shop's other pages, linked from its menu and footer.
var headlessPages = []struct{ path, title string }{
	{"/contact", "Contact"},
	{"/cart", "Panier"},
	{"/account", "Mon compte"},
	{"/legal/mentions-legales", "Mentions légales"},
	{"/legal/cgv", "Conditions générales de vente"},
}

// frenchPrices is fr_FR's "1 234,56 €" (a narrow no-break space groups thousands).
var frenchPrices = priceStyle{decimal: ",", group: "\u202f", symbolAfter: true}

func (s *Store) headlessRoute(path string) (Route, http.HandlerFunc) {
	switch {
	case path == "/":
		return RouteHome, s.headlessHome
	case path == "/robots.txt":
		return RouteRobots, s.robotsTxt
	case strings.HasPrefix(path, headlessProductBase):
		return RouteProductPage, s.headlessProduct
	case strings.HasPrefix(path, headlessCategoryBase):
		return RouteCategoryPage, s.headlessCategoryPage
	case strings.HasPrefix(path, "/media/"):
		return RouteMedia, s.mediaImage
	}
	for _, p := range headlessPages {
		if path == p.path {
			return RoutePage, s.headlessContentPage
		}
	}
	return RouteOther, nil
}

// headlessView is what the page template renders: the little the server draws, and the
// state the application starts from.
type headlessView struct {
	Store, Title, Heading, Price string
	Menu                         []link
	Footer                       []link
	// Links are the product links a listing page renders in its grid.
	Links []link
	State template.JS
}

// headlessMoney is the Storefront API's MoneyV2.
func (s *Store) headlessMoney(m Money) map[string]any {
	return map[string]any{"amount": m.String(), "currencyCode": s.currency}
}

// headlessPage renders a page of the application with its state.
func (s *Store) headlessPage(w http.ResponseWriter, r *http.Request, status int, route string, query map[string]any, props map[string]any, v headlessView) {
	props["menu"] = s.headlessMenu()
	state, err := json.Marshal(map[string]any{
		"props": map[string]any{"pageProps": props, "__N_SSP": true},
		"page":  route, "query": query, "buildId": headlessBuildID, "isFallback": false, "gssp": true,
		"locale": "fr", "locales": []string{"fr"}, "defaultLocale": "fr", "scriptLoader": []any{},
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	v.Store, v.State = s.name, template.JS(state)
	for _, c := range s.cat.Collections() {
		v.Menu = append(v.Menu, link{base(r) + s.CategoryPath(c.Handle), c.Title})
	}
	for _, p := range headlessPages {
		v.Footer = append(v.Footer, link{base(r) + p.path, p.title})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Powered-By", "Next.js")
	w.WriteHeader(status)
	s.render(w, "headless", v)
}

// headlessMenu is the menu as the application's state holds it.
func (s *Store) headlessMenu() []map[string]any {
	var out []map[string]any
	for _, c := range s.cat.Collections() {
		out = append(out, map[string]any{"title": c.Title, "path": s.CategoryPath(c.Handle)})
	}
	for _, p := range headlessPages {
		out = append(out, map[string]any{"title": p.title, "path": p.path})
	}
	return out
}

func (s *Store) headlessHome(w http.ResponseWriter, r *http.Request) {
	var cols []map[string]any
	for _, c := range s.cat.Collections() {
		n, _ := s.cat.members(c)
		cols = append(cols, map[string]any{"handle": c.Handle, "title": c.Title, "description": c.Description,
			"path": s.CategoryPath(c.Handle), "productsCount": n})
	}
	s.headlessPage(w, r, http.StatusOK, "/", map[string]any{}, map[string]any{"collections": cols},
		headlessView{Title: s.name, Heading: s.name})
}

// headlessCategoryPage serves /search/{handle}?page=N: the collection, a page of product
// summaries and where the page stands; a page past the last is Next.js's 404.
func (s *Store) headlessCategoryPage(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimPrefix(r.URL.Path, headlessCategoryBase)
	if handle == "" || strings.Contains(handle, "/") {
		s.notFound(w, r)
		return
	}
	s.headlessCategory(w, r, handle)
}

func (s *Store) headlessCategory(w http.ResponseWriter, r *http.Request, handle string) {
	col, ok := s.cat.Collection(handle)
	n, at := s.cat.members(col)
	page := pageParam(r)
	pages := max(1, (n+s.pageSize-1)/s.pageSize)
	if !ok || page > pages {
		s.notFound(w, r)
		return
	}
	v := headlessView{Title: col.Title + " | " + s.name, Heading: col.Title}
	var products []map[string]any
	for k := (page - 1) * s.pageSize; k < min(page*s.pageSize, n); k++ {
		p := s.cat.Product(at(k))
		products = append(products, s.headlessSummary(r, p))
		v.Links = append(v.Links, link{s.productLink(r, p.Handle), p.Title})
	}
	props := map[string]any{
		"collection": map[string]any{"handle": col.Handle, "title": col.Title, "description": col.Description},
		"products":   products,
		"pageInfo": map[string]any{"page": page, "pageSize": s.pageSize, "totalPages": pages, "totalCount": n,
			"hasNextPage": page < pages, "hasPreviousPage": page > 1},
	}
	s.headlessPage(w, r, http.StatusOK, "/search/[collection]", map[string]any{"collection": handle, "page": strconv.Itoa(page)}, props, v)
}

// headlessSummary is a product as a listing holds it: its lead variant's price (what its
// tile shows) and its price range.
func (s *Store) headlessSummary(r *http.Request, p Product) map[string]any {
	lead := p.LeadVariant()
	lo, hi := p.PriceRange()
	out := map[string]any{
		"id": fmt.Sprintf("gid://shopify/Product/%d", p.ID), "handle": p.Handle, "title": p.Title,
		"availableForSale": p.Available(),
		"price":            s.headlessMoney(lead.Price), "compareAtPrice": nil,
		"priceRange": map[string]any{"minVariantPrice": s.headlessMoney(lo), "maxVariantPrice": s.headlessMoney(hi)},
	}
	if lead.CompareAtPrice > lead.Price {
		out["compareAtPrice"] = s.headlessMoney(lead.CompareAtPrice)
	}
	if len(p.Images) > 0 {
		out["featuredImage"] = s.headlessImage(r, p, p.Images[0])
	}
	return out
}

func (s *Store) headlessImage(r *http.Request, p Product, im Image) map[string]any {
	return map[string]any{"url": s.imageURL(r, p, im), "altText": im.Alt, "width": im.Width, "height": im.Height}
}

// headlessProduct serves /product/{handle}: the product with its options and variants;
// the server draws its title and displayed price.
func (s *Store) headlessProduct(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimPrefix(r.URL.Path, headlessProductBase)
	if handle == "" || strings.Contains(handle, "/") {
		s.notFound(w, r)
		return
	}
	p, ok := s.plainProduct(w, r, handle)
	if !ok {
		return
	}
	product := s.headlessSummary(r, p)
	product["description"] = plainText(p.BodyHTML)
	product["descriptionHtml"] = p.BodyHTML
	product["vendor"], product["productType"], product["tags"] = p.Vendor, p.ProductType, p.Tags
	var options []map[string]any
	for _, o := range p.Options {
		options = append(options, map[string]any{"name": o.Name, "values": o.Values})
	}
	product["options"] = options
	var variants []map[string]any
	for _, vr := range p.Variants {
		selected := []map[string]any{}
		for k, val := range vr.OptionValues {
			if k < len(p.Options) {
				selected = append(selected, map[string]any{"name": p.Options[k].Name, "value": val})
			}
		}
		variant := map[string]any{"id": fmt.Sprintf("gid://shopify/ProductVariant/%d", vr.ID), "title": vr.Title, "sku": vr.SKU,
			"availableForSale": vr.Available, "price": s.headlessMoney(vr.Price), "compareAtPrice": nil, "selectedOptions": selected}
		if vr.CompareAtPrice > vr.Price {
			variant["compareAtPrice"] = s.headlessMoney(vr.CompareAtPrice)
		}
		variants = append(variants, variant)
	}
	product["variants"] = variants
	var images []map[string]any
	for _, im := range p.Images {
		images = append(images, s.headlessImage(r, p, im))
	}
	product["images"] = images
	v := headlessView{Title: p.Title + " | " + s.name, Heading: p.Title, Price: frenchPrices.text(p.LeadVariant().Price, s.currency)}
	s.headlessPage(w, r, http.StatusOK, "/product/[handle]", map[string]any{"handle": handle}, map[string]any{"product": product}, v)
}

func (s *Store) headlessContentPage(w http.ResponseWriter, r *http.Request) {
	for _, p := range headlessPages {
		if r.URL.Path == p.path {
			s.headlessPage(w, r, http.StatusOK, p.path, map[string]any{}, map[string]any{"page": map[string]any{"title": p.title}},
				headlessView{Title: p.title + " | " + s.name, Heading: p.title})
			return
		}
	}
	s.notFound(w, r)
}
