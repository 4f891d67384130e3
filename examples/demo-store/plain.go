package demostore

import (
	"net/http"
	"strings"
)

// The HTML kind: no structured data, no sitemap. Crawlers find products through the
// category pages (/shop/{handle}?page=N, "Next page" links) and read prices from markup.

func (s *Store) htmlRoute(path string) (Route, http.HandlerFunc) {
	switch path {
	case "/":
		return RouteHome, s.plainHome
	case "/robots.txt":
		return RouteRobots, s.robotsTxt
	}
	switch {
	case strings.HasPrefix(path, "/item/"):
		return RouteProductPage, s.htmlProduct
	case strings.HasPrefix(path, "/shop/"):
		return RouteCategoryPage, func(w http.ResponseWriter, r *http.Request) {
			s.htmlCategory(w, r, strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/shop/"), "/"))
		}
	case strings.HasPrefix(path, "/media/"):
		return RouteMedia, s.mediaImage
	}
	return RouteOther, nil
}

func (s *Store) htmlCategory(w http.ResponseWriter, r *http.Request, handle string) {
	v := pageView{Store: s.name, Base: base(r), Nav: s.nav(r), Currency: s.currency}
	col, ok := s.listing(r, &v, handle)
	if !ok {
		s.notFound(w, r)
		return
	}
	v.Title, v.Heading, v.Intro = col.Title+" - "+s.name, col.Title, col.Description
	v.Breadcrumbs = []link{{base(r) + "/", "Home"}, {base(r) + s.CategoryPath(handle), col.Title}}
	s.render(w, "html-category", v)
}

func (s *Store) htmlProduct(w http.ResponseWriter, r *http.Request) {
	handle := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/item/"), "/")
	p, ok := s.plainProduct(w, r, handle)
	if !ok {
		return
	}
	v := pageView{Store: s.name, Base: base(r), Title: p.Title + " - " + s.name, Canonical: base(r) + "/item/" + p.Handle,
		Nav: s.nav(r), Currency: s.currency, Product: s.productView(r, p), Breadcrumbs: s.breadcrumbs(r, p)}
	s.render(w, "html-product", v)
}
