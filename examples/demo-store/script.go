package demostore

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
)

// The Script kind: a shop whose every page is an application shell, as a single-page
// application serves it. The HTML is an empty mount point and a script; the script asks
// the store's JSON endpoint (/api/page?path=...) for the page it is on and draws it: the
// JSON-LD shop's markup, tiles, "Next page" links and product JSON-LD included. A crawler
// that does not run the script sees no links and no products at all.

const (
	scriptApp  = "/static/app.js"
	scriptData = "/api/page"
)

func (s *Store) scriptRoute(path string) (Route, http.HandlerFunc) {
	switch {
	case path == "/":
		return RouteHome, s.scriptShell
	case path == "/robots.txt":
		return RouteRobots, s.robotsTxt
	case path == scriptApp:
		return RouteOther, s.scriptApp
	case path == scriptData:
		return RouteOther, s.scriptPage
	case strings.HasPrefix(path, "/product/"):
		return RouteProductPage, s.scriptShell
	case strings.HasPrefix(path, "/category/"):
		return RouteCategoryPage, s.scriptShell
	case strings.HasPrefix(path, "/media/"):
		return RouteMedia, s.mediaImage
	}
	return RouteOther, nil
}

// scriptShell is every page: the shop's name, a mount point and the application.
func (s *Store) scriptShell(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>%[1]s</title></head>
<body><div id="app"></div><noscript>%[1]s needs JavaScript to show its products.</noscript>
<script src="%[2]s" defer></script></body></html>
`, html.EscapeString(s.name), scriptApp)
}

// scriptAppSource asks for the page it is on, then moves the page's head (title,
// canonical link, JSON-LD) and body into the document.
const scriptAppSource = `(async () => {
  const mount = document.getElementById('app');
  const path = location.pathname + location.search;
  const res = await fetch('` + scriptData + `?path=' + encodeURIComponent(path), {headers: {Accept: 'application/json'}});
  const page = await res.json();
  const doc = new DOMParser().parseFromString(page.html, 'text/html');
  document.title = doc.title;
  for (const el of doc.head.querySelectorAll('link, meta[name], script[type="application/ld+json"]')) {
    document.head.append(el);
  }
  mount.replaceWith(...doc.body.childNodes);
})();
`

func (s *Store) scriptApp(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "max-age=3600")
	fmt.Fprint(w, scriptAppSource)
}

// scriptPage answers /api/page?path=P with {"status", "html"}: the page P of the JSON-LD
// shop, which the application draws.
func (s *Store) scriptPage(w http.ResponseWriter, r *http.Request) {
	target, err := url.Parse(r.URL.Query().Get("path"))
	if err != nil || !strings.HasPrefix(target.Path, "/") || target.Path == scriptData {
		http.Error(w, `{"error": "bad path"}`, http.StatusBadRequest)
		return
	}
	route, h := s.jsonldRoute(target.Path)
	if route != RouteHome && route != RouteCategoryPage && route != RouteProductPage {
		h = s.notFound
	}
	page := r.Clone(r.Context())
	page.URL = &url.URL{Path: target.Path, RawQuery: target.RawQuery}
	page.RequestURI = target.RequestURI()
	rec := httptest.NewRecorder()
	h(rec, page)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rec.Code)
	_ = json.NewEncoder(w).Encode(map[string]any{"status": rec.Code, "html": rec.Body.String()})
}
