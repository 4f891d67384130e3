package demostore

import (
	"cmp"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Kind is the kind of storefront a Store imitates.
type Kind string

const (
	// Shopify serves Shopify's storefront JSON, sitemaps and theme-like HTML.
	Shopify Kind = "shopify"
	// JSONLD is a non-Shopify shop whose pages carry schema.org JSON-LD.
	JSONLD Kind = "jsonld"
	// HTML is a plain HTML shop with no structured data at all.
	HTML Kind = "html"
	// WooCommerce is a WordPress shop on WooCommerce's Storefront theme, in German, with
	// the Store API open.
	WooCommerce Kind = "woocommerce"
	// Magento is a Magento 2 shop on the Luma theme, in British English.
	Magento Kind = "magento"
	// Headless is a French shop whose Next.js storefront carries its catalogue in the
	// page's embedded state (__NEXT_DATA__).
	Headless Kind = "headless"
	// Script is a shop whose pages are application shells: a script fetches each page's
	// content as JSON from the store and draws it.
	Script Kind = "script"
)

// Kinds lists every kind, in the order the launcher starts them.
var Kinds = []Kind{Shopify, JSONLD, HTML, Sitemap, WooCommerce, Magento, Headless, Script}

// Options configure a Store. The zero value of every field but Kind is usable.
type Options struct {
	// Kind is the storefront to imitate. Required.
	Kind Kind
	// Products is the size of the generated catalogue. Zero means 100. Ignored when
	// Catalog is set.
	Products int
	// Seed picks the generated catalogue; the same seed gives the same products. Zero is
	// a seed like any other.
	Seed uint64
	// Catalog, when set, is served instead of a generated catalogue (see LoadShopify).
	Catalog *Catalog
	// Name is the shop's name. Empty means a name per kind.
	Name string
	// Currency is the ISO 4217 code pages announce. Empty means "USD".
	Currency string
	// PageSize is the number of products per category page of the JSON-LD and HTML shops
	// and per collection page of the Shopify shop. Zero means 24.
	PageSize int
	// Addr is where Launch listens ("127.0.0.2:8090"). Empty means DefaultHost(Kind) on
	// a free port.
	Addr string
	// Faults are injected failures. The zero value injects none.
	Faults Faults
}

// Faults are failures a store injects into its answers. Requests under /_demo/ are never
// faulted. The same failures can be asked for per request with query parameters; see
// FaultParams.
type Faults struct {
	// Latency is added to every answer. Zero means none.
	Latency time.Duration
	// RateLimit answers bursts of requests with 429 Too Many Requests.
	RateLimit RateLimit
	// ErrorRate is the fraction of requests (0..1) answered 500, 502 or 503. The choice
	// is deterministic: exactly floor(n*ErrorRate) of the first n requests fail, spread
	// evenly. Zero means none.
	ErrorRate float64
	// BotWall is a path prefix answered with a Cloudflare-like "Just a moment..."
	// challenge (403, cf-mitigated: challenge); "/" walls everything. Empty means none.
	BotWall string
	// RobotsDisallow are path prefixes robots.txt disallows, on top of the kind's usual
	// rules; Stats counts requests that ignore them. Empty means none.
	RobotsDisallow []string
	// SlowDelay is how long the slow product page takes. Zero means 30 seconds.
	SlowDelay time.Duration
	// WWW makes the store live on its www. name, as many do: a request naming any other
	// host (the bare domain the store is reached by, through a resolver that knows both
	// names) is answered 301 to the same URL on www. plus that host.
	WWW bool
	// ProductLinks, when set, is the path listing pages link each product at, with
	// {handle} standing for its handle: "/go/{handle}?status=302" links every product
	// through a redirect (see RedirectPrefix). Empty links the product's page.
	ProductLinks string
	// NoAllProducts makes a Shopify store answer 404 for /collections/all and its pages,
	// which Shopify serves for most stores but not for every one.
	NoAllProducts bool
}

// RateLimit describes 429 bursts: after every Every answered requests, the next Burst
// requests get 429 with Retry-After. Every == 0 means only the first Burst requests.
// Burst == 0 disables it.
type RateLimit struct {
	Burst int
	Every int
	// RetryAfter is announced in the Retry-After header. Zero means one second.
	RetryAfter time.Duration
}

// Store is one demo shop: an http.Handler over a catalogue. It is safe for concurrent use.
type Store struct {
	opts     Options
	cat      *Catalog
	name     string
	currency string
	pageSize int
	shopID   int64
	router   func(path string) (Route, http.HandlerFunc)
	faults   []Fault

	requests   atomic.Int64
	byRoute    [routeCount]atomic.Int64
	faulted    atomic.Int64
	disallowed atomic.Int64
	faultSeq   atomic.Int64 // requests subject to rate limiting and errors
	// conditional counts requests that asked whether a page changed.
	conditional atomic.Int64
	statusMu    sync.Mutex
	byStatus    map[int]int64
	seen        []atomic.Bool
	inFlight    gauge
	// fleet counts the requests in flight over every store of a Fleet; nil alone.
	fleet *gauge
}

// gauge counts requests in flight and remembers the most at once, so tests can check a
// client's concurrency bounds from the server side.
type gauge struct{ cur, max atomic.Int64 }

func (g *gauge) enter() {
	n := g.cur.Add(1)
	for m := g.max.Load(); n > m && !g.max.CompareAndSwap(m, n); m = g.max.Load() {
	}
}

func (g *gauge) leave() { g.cur.Add(-1) }

// New builds a store. It generates nothing up front but the collection indexes.
func New(opts Options) (*Store, error) {
	s := &Store{opts: opts, cat: opts.Catalog, name: opts.Name, currency: opts.Currency, pageSize: opts.PageSize}
	if s.cat == nil {
		n := opts.Products
		if n == 0 {
			n = 100
		}
		if n < 0 || n > 1_000_000 {
			return nil, fmt.Errorf("demostore: Products %d out of range (1..1000000)", n)
		}
		s.cat = Generate(opts.Seed, n)
	}
	if s.currency == "" {
		s.currency = "USD"
	}
	if s.pageSize <= 0 {
		s.pageSize = 24
	}
	if r := opts.Faults.ErrorRate; r < 0 || r > 1 {
		return nil, fmt.Errorf("demostore: Faults.ErrorRate %v out of range [0,1]", r)
	}
	if s.opts.Faults.SlowDelay <= 0 {
		s.opts.Faults.SlowDelay = 30 * time.Second
	}
	if s.opts.Faults.RateLimit.RetryAfter <= 0 {
		s.opts.Faults.RateLimit.RetryAfter = time.Second
	}
	s.shopID = 55_000_000 + int64(opts.Seed%1000)
	switch opts.Kind {
	case Shopify:
		s.router = s.shopifyRoute
		if s.name == "" {
			s.name = "Northwind Outfitters"
		}
	case JSONLD:
		s.router = s.jsonldRoute
		if s.name == "" {
			s.name = "Harbor & Pine"
		}
	case HTML:
		s.router = s.htmlRoute
		if s.name == "" {
			s.name = "Corner Shop Supply"
		}
	case Sitemap:
		s.setUpSitemapKind()
	case WooCommerce:
		s.router = s.wooRoute
		s.name, s.currency = cmp.Or(s.name, "Bergwerk Laden"), cmp.Or(opts.Currency, "EUR")
	case Magento:
		s.router = s.magentoRoute
		s.name, s.currency = cmp.Or(s.name, "Thistle & Co"), cmp.Or(opts.Currency, "GBP")
	case Headless:
		s.router = s.headlessRoute
		s.name, s.currency = cmp.Or(s.name, "Maison Lumière"), cmp.Or(opts.Currency, "EUR")
	case Script:
		s.router = s.scriptRoute
		s.name = cmp.Or(s.name, "Lantern Lane")
	default:
		return nil, fmt.Errorf("demostore: unknown kind %q (want one of %v)", opts.Kind, Kinds)
	}
	s.byStatus = map[int]int64{}
	s.seen = make([]atomic.Bool, s.cat.Len())
	s.faults = s.faultList()
	return s, nil
}

// Kind is the kind of storefront.
func (s *Store) Kind() Kind { return s.opts.Kind }

// Name is the shop's display name.
func (s *Store) Name() string { return s.name }

// Currency is the ISO 4217 code the shop's pages announce.
func (s *Store) Currency() string { return s.currency }

// Catalog is the catalogue served.
func (s *Store) Catalog() *Catalog { return s.cat }

// PageSize is the number of products per category (collection) page.
func (s *Store) PageSize() int { return s.pageSize }

// ProductPath is the path of product i's page: /products/{handle} (Shopify),
// /product/{handle} (JSON-LD, script, headless), /item/{handle} (HTML), /produkt/{handle}/
// (WooCommerce) or /{handle}.html (Magento).
func (s *Store) ProductPath(i int) string { return s.productPath(s.cat.Product(i).Handle) }

// CategoryPath is the path of a collection's first listing page: /collections/{handle}
// (Shopify), /category/{handle} (JSON-LD, script), /shop/{handle} (HTML),
// /produkt-kategorie/{handle}/ (WooCommerce), /{handle}.html (Magento) or
// /search/{handle} (headless).
func (s *Store) CategoryPath(handle string) string {
	return s.categoryPrefix() + handle + s.pathSuffix()
}

// productPath is the path of the product page of handle.
func (s *Store) productPath(handle string) string { return s.productPrefix() + handle + s.pathSuffix() }

// CategoryPages is how many listing pages CategoryPath(handle) spans (PageSize per page).
func (s *Store) CategoryPages(handle string) int {
	col, ok := s.cat.Collection(handle)
	if !ok {
		return 0
	}
	n, _ := s.cat.members(col)
	return max(1, (n+s.pageSize-1)/s.pageSize)
}

func (s *Store) productPrefix() string {
	switch s.opts.Kind {
	case JSONLD, Script:
		return "/product/"
	case HTML:
		return "/item/"
	case Sitemap:
		return "/p/"
	case WooCommerce:
		return wooProductBase
	case Magento:
		return "/"
	case Headless:
		return headlessProductBase
	}
	return "/products/"
}

func (s *Store) categoryPrefix() string {
	switch s.opts.Kind {
	case JSONLD, Script:
		return "/category/"
	case HTML:
		return "/shop/"
	case Sitemap:
		return "/c/"
	case WooCommerce:
		return wooCategoryBase
	case Magento:
		return "/"
	case Headless:
		return headlessCategoryBase
	}
	return "/collections/"
}

// pathSuffix ends the paths of product and category pages: WordPress's trailing slash,
// Magento's .html.
func (s *Store) pathSuffix() string {
	switch s.opts.Kind {
	case WooCommerce:
		return "/"
	case Magento:
		return ".html"
	}
	return ""
}

// Route names what a request asked for; Stats counts requests per route.
type Route int

const (
	RouteOther                  Route = iota // anything unknown (answered 404)
	RouteHome                                // the home page
	RouteProductPage                         // a product's HTML page
	RouteCategoryPage                        // a collection or category listing page
	RouteProductsJSON                        // Shopify /products.json
	RouteCollectionsJSON                     // Shopify /collections.json
	RouteCollectionProductsJSON              // Shopify /collections/{handle}/products.json
	RouteProductJSON                         // Shopify /products/{handle}.json
	RouteProductJS                           // Shopify /products/{handle}.js
	RouteSitemap                             // a sitemap or sitemap index
	RouteRobots                              // /robots.txt
	RoutePage                                // other content pages (/pages/..., /collections)
	RouteMedia                               // images served by the non-Shopify kinds
	RouteDemo                                // /_demo/ introspection
	RouteRedirect                            // /go/{handle}, a redirect to a product page
	routeCount
)

var routeNames = [routeCount]string{"other", "home", "product", "category", "products.json", "collections.json",
	"collection-products.json", "product.json", "product.js", "sitemap", "robots", "page", "media", "demo", "redirect"}

func (r Route) String() string {
	if r >= 0 && r < routeCount {
		return routeNames[r]
	}
	return "route(" + strconv.Itoa(int(r)) + ")"
}

// Stats are request counters since the store started or ResetStats.
type Stats struct {
	Requests   int64
	ByRoute    map[Route]int64 // routes never requested are absent
	ByStatus   map[int]int64
	Faulted    int64 // answered by an injected fault (429, 5xx, bot wall, query fault)
	Disallowed int64 // requests for paths robots.txt disallows
	// Conditional counts requests that asked whether a page changed (If-None-Match or
	// If-Modified-Since); ByStatus[304] counts those answered Not Modified.
	Conditional int64
	// ProductsSeen is how many distinct catalogue products were served in any form
	// (page, .json, .js).
	ProductsSeen int
	// MaxInFlight is the most requests the store was answering at once. A request counts
	// from the start of its handling until its handler returns, which is before a client
	// can have read the end of a response without a Content-Length (every page): the
	// figure never exceeds the client's own concurrency.
	MaxInFlight int64
}

// Stats returns a snapshot of the counters.
func (s *Store) Stats() Stats {
	st := Stats{
		Requests: s.requests.Load(), Faulted: s.faulted.Load(), Disallowed: s.disallowed.Load(), Conditional: s.conditional.Load(),
		ByRoute: map[Route]int64{}, ByStatus: map[int]int64{}, MaxInFlight: s.inFlight.max.Load(),
	}
	for r := range s.byRoute {
		if n := s.byRoute[r].Load(); n > 0 {
			st.ByRoute[Route(r)] = n
		}
	}
	s.statusMu.Lock()
	for k, v := range s.byStatus {
		st.ByStatus[k] = v
	}
	s.statusMu.Unlock()
	for i := range s.seen {
		if s.seen[i].Load() {
			st.ProductsSeen++
		}
	}
	return st
}

// ResetStats zeroes the counters, including the fault sequence (rate-limit bursts and
// the error pattern start over).
func (s *Store) ResetStats() {
	s.requests.Store(0)
	s.faulted.Store(0)
	s.disallowed.Store(0)
	s.conditional.Store(0)
	s.faultSeq.Store(0)
	s.inFlight.max.Store(0)
	for r := range s.byRoute {
		s.byRoute[r].Store(0)
	}
	s.statusMu.Lock()
	clear(s.byStatus)
	s.statusMu.Unlock()
	for i := range s.seen {
		s.seen[i].Store(false)
	}
}

// ServeHTTP answers one request: route, count, inject faults, serve.
func (s *Store) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route, h := RouteOther, http.HandlerFunc(s.notFound)
	if strings.HasPrefix(r.URL.Path, "/_demo/") {
		route, h = RouteDemo, s.serveDemo
	} else if strings.HasPrefix(r.URL.Path, RedirectPrefix) {
		route, h = RouteRedirect, s.redirect
	} else if rt, hf := s.router(r.URL.Path); hf != nil {
		route, h = rt, hf
	}
	s.inFlight.enter()
	defer s.inFlight.leave()
	if s.fleet != nil {
		s.fleet.enter()
		defer s.fleet.leave()
	}
	s.requests.Add(1)
	s.byRoute[route].Add(1)
	if s.isDisallowed(r.URL.Path) {
		s.disallowed.Add(1)
	}
	rec := &statusWriter{ResponseWriter: w}
	defer func() { s.countStatus(rec.code()) }()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rec.Header().Set("Allow", "GET, HEAD")
		http.Error(rec, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.setHeaders(rec)
	if route == RouteDemo {
		h(rec, r)
		return
	}
	if s.injectFault(rec, r) {
		s.faulted.Add(1)
		return
	}
	s.serveValidated(rec, r, h)
}

func (s *Store) countStatus(code int) {
	s.statusMu.Lock()
	s.byStatus[code]++
	s.statusMu.Unlock()
}

func (s *Store) markSeen(i int) { s.seen[i].Store(true) }

func (s *Store) setHeaders(w http.ResponseWriter) {
	h := w.Header()
	switch s.opts.Kind {
	case Shopify:
		h.Set("X-Shopify-Stage", "production")
		h.Set("X-ShopId", strconv.FormatInt(s.shopID, 10))
		h.Set("Powered-By", "Shopify")
		h.Set("X-Sorting-Hat-ShopId", strconv.FormatInt(s.shopID, 10))
	case JSONLD:
		h.Set("Server", "nginx")
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// base is the absolute origin of the request, so links work on whatever address the
// store listens.
func base(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// pageParam reads ?page=N (1 when absent or invalid).
func pageParam(r *http.Request) int {
	p, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || p < 1 {
		return 1
	}
	return p
}

func (s *Store) notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	s.render(w, "notfound", map[string]any{"Store": s.name, "Base": base(r), "Path": r.URL.Path})
}

// formatPrice shows money the way the shop's pages do: "$49.99", "£49.99", "49.99 EUR".
func (s *Store) formatPrice(m Money) string {
	switch s.currency {
	case "USD", "CAD", "AUD", "NZD":
		return "$" + m.String()
	case "GBP":
		return "£" + m.String()
	case "EUR":
		return "€" + m.String()
	case "INR":
		return "Rs. " + m.String()
	}
	return m.String() + " " + s.currency
}
