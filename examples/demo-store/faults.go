package demostore

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The special product handles every kind serves under its product prefix
// (/products/, /product/ or /item/). They are not in sitemaps or listings; find them in
// Store.Faults or at /_demo/faults.json.
const (
	HandleMissing  = "missing-product"      // 404 Not Found
	HandleCategory = "category-in-disguise" // 200 with a category listing, not a product
	HandleHome     = "redirects-home"       // 302 to the home page
	HandleMoved    = "moved-product"        // 301 to the first product's URL
	HandleSlow     = "slow-product"         // the first product, after Faults.SlowDelay
)

// FaultParams are the query parameters that fault a single request on any store path:
//
//	?_delay=250ms     wait before answering (any time.ParseDuration value)
//	?_fault=429       answer 429 with Retry-After; any status 400..599 works the same way
//	?_fault=botwall   answer the Cloudflare-like challenge page
//	?_fault=slow      wait Faults.SlowDelay (or _delay) and then answer normally
const FaultParams = "_fault, _delay"

// Fault is one special URL a store serves, for tests and for /_demo/faults.json.
type Fault struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	Expect      string `json:"expect"`
	Description string `json:"description"`
}

// Faults lists the store's special URLs: the special product handles, the bot wall and
// robots.txt sections when configured, and examples of the query faults.
func (s *Store) Faults() []Fault { return s.faults }

func (s *Store) faultList() []Fault {
	pp := s.productPath
	fs := []Fault{
		{"missing-product", pp(HandleMissing), "404", "a product page that no longer exists"},
		{"category-at-product-url", pp(HandleCategory), "200 category listing", "a product-looking URL that serves a category page"},
		{"redirect-to-home", pp(HandleHome), "302 -> /", "a discontinued product that redirects to the home page"},
		{"moved-product", pp(HandleMoved), "301 -> " + s.ProductPath(0), "a renamed product that redirects to its new URL"},
		{"redirect", RedirectPrefix + s.cat.Product(0).Handle, "301 -> " + s.ProductPath(0), "a product link through a redirect; ?status=302 and ?to=PREFIX choose the status and the target"},
		{"slow-product", pp(HandleSlow), "200 after " + s.opts.Faults.SlowDelay.String(), "a page slow enough to hit a client timeout"},
		{"rate-limited", "/?_fault=429", "429 with Retry-After", "any path with _fault=429 (or another status)"},
		{"server-error", "/?_fault=503", "503", "any path with _fault=<status>"},
		{"bot-wall", "/?_fault=botwall", "403 with cf-mitigated: challenge", "any path with _fault=botwall"},
		{"delay", "/?_delay=2s", "200 after 2s", "any path with _delay=<duration>"},
	}
	if s.opts.Kind == Shopify {
		fs = append(fs, Fault{"listing-cap", "/products.json?limit=250&page=101", "400", "Shopify refuses page*limit above 25,000"})
	}
	f := s.opts.Faults
	if f.BotWall != "" {
		fs = append(fs, Fault{"bot-wall-section", f.BotWall, "403 challenge", "every path under this prefix is behind the bot wall"})
	}
	for _, p := range f.RobotsDisallow {
		fs = append(fs, Fault{"robots-disallow", p, "disallowed in robots.txt", "served normally; Stats.Disallowed counts requests"})
	}
	if f.RateLimit.Burst > 0 {
		fs = append(fs, Fault{"rate-limit", "*", fmt.Sprintf("%d x 429 after every %d requests", f.RateLimit.Burst, f.RateLimit.Every), "Retry-After: " + retryAfter(f.RateLimit.RetryAfter)})
	}
	if f.ErrorRate > 0 {
		fs = append(fs, Fault{"error-rate", "*", fmt.Sprintf("%.0f%% of requests 500/502/503", f.ErrorRate*100), "deterministic, evenly spread"})
	}
	if f.Latency > 0 {
		fs = append(fs, Fault{"latency", "*", "+" + f.Latency.String(), "added to every answer"})
	}
	if f.NoAllProducts {
		fs = append(fs, Fault{"no-all-products", "/collections/all", "404", "the store does not serve the collection of all its products"})
	}
	if f.WWW {
		fs = append(fs, Fault{"www", "*", "301 -> www.{host}", "any request naming a host without www."})
	}
	return fs
}

// injectFault answers r with a fault when one applies and reports whether it did.
func (s *Store) injectFault(w http.ResponseWriter, r *http.Request) bool {
	ctx := r.Context()
	q := r.URL.Query()
	if d, err := time.ParseDuration(q.Get("_delay")); err == nil && d > 0 && q.Get("_fault") != "slow" {
		if !sleep(ctx, d) {
			return true
		}
	}
	switch fault := q.Get("_fault"); {
	case fault == "":
	case fault == "botwall":
		s.botWall(w)
		return true
	case fault == "slow":
		d := s.opts.Faults.SlowDelay
		if v, err := time.ParseDuration(q.Get("_delay")); err == nil && v > 0 {
			d = v
		}
		return !sleep(ctx, d) // then answer normally; not counted as faulted
	default:
		if code, err := strconv.Atoi(fault); err == nil && code >= 400 && code <= 599 {
			s.errorStatus(w, code)
			return true
		}
	}
	f := s.opts.Faults
	if f.Latency > 0 && !sleep(ctx, f.Latency) {
		return true
	}
	if f.WWW && !strings.HasPrefix(r.Host, "www.") {
		// A redirect costs the client a round trip like any answer: after the latency.
		http.Redirect(w, r, strings.Replace(base(r), "://", "://www.", 1)+r.URL.RequestURI(), http.StatusMovedPermanently)
		return true
	}
	if f.BotWall != "" && strings.HasPrefix(r.URL.Path, f.BotWall) {
		s.botWall(w)
		return true
	}
	if f.RateLimit.Burst <= 0 && f.ErrorRate <= 0 {
		return false
	}
	seq := s.faultSeq.Add(1)
	if rl := f.RateLimit; rl.Burst > 0 {
		limited := seq <= int64(rl.Burst)
		if rl.Every > 0 {
			limited = (seq-1)%int64(rl.Every+rl.Burst) >= int64(rl.Every)
		}
		if limited {
			s.errorStatus(w, http.StatusTooManyRequests)
			return true
		}
	}
	if f.ErrorRate > 0 {
		now, before := math.Floor(float64(seq)*f.ErrorRate), math.Floor(float64(seq-1)*f.ErrorRate)
		if now > before {
			s.errorStatus(w, []int{500, 502, 503}[int(now)%3])
			return true
		}
	}
	return false
}

func (s *Store) errorStatus(w http.ResponseWriter, code int) {
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", retryAfter(s.opts.Faults.RateLimit.RetryAfter))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>%d %s</title></head><body><h1>%s</h1></body></html>\n",
		code, http.StatusText(code), http.StatusText(code))
}

func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// botWall answers like Cloudflare's managed challenge.
func (s *Store) botWall(w http.ResponseWriter) {
	h := w.Header()
	h.Del("Powered-By")
	h.Set("Server", "cloudflare")
	h.Set("Cf-Mitigated", "challenge")
	h.Set("Cf-Ray", "8f1b2c3d4e5f6a7b-AMS")
	h.Set("Cache-Control", "private, max-age=0, no-store, no-cache, must-revalidate")
	h.Set("Content-Type", "text/html; charset=UTF-8")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprint(w, botWallPage)
}

const botWallPage = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta http-equiv="X-UA-Compatible" content="IE=Edge">
<meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1">
</head><body><div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">Checking if the site connection is secure</h1>
<p>Verifying you are human. This may take a few seconds.</p>
<noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript>
</div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'demo',cType: 'managed',cRay: '8f1b2c3d4e5f6a7b'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8f1b2c3d4e5f6a7b';document.getElementsByTagName('head')[0].appendChild(a);}());</script>
</body></html>
`

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Store) isDisallowed(path string) bool {
	for _, p := range s.opts.Faults.RobotsDisallow {
		if p != "" && strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// specialProduct serves the special handles; format is "" (page), ".json" or ".js".
func (s *Store) specialProduct(w http.ResponseWriter, r *http.Request, handle, format string) bool {
	switch handle {
	case HandleMissing:
		s.notFound(w, r)
	case HandleCategory:
		if format != "" || len(s.cat.Collections()) == 0 {
			s.notFound(w, r)
			return true
		}
		s.serveCategory(w, r, s.cat.Collections()[0].Handle)
	case HandleHome:
		http.Redirect(w, r, base(r)+"/", http.StatusFound)
	case HandleMoved:
		if s.cat.Len() == 0 {
			s.notFound(w, r)
			return true
		}
		http.Redirect(w, r, base(r)+s.ProductPath(0)+format, http.StatusMovedPermanently)
	case HandleSlow:
		if !sleep(r.Context(), s.opts.Faults.SlowDelay) {
			return true
		}
		return false // the caller serves product 0
	default:
		return false
	}
	return true
}

// serveCategory is the kind's listing page for a collection.
func (s *Store) serveCategory(w http.ResponseWriter, r *http.Request, handle string) {
	switch s.opts.Kind {
	case Shopify:
		s.shopifyCollectionPage(w, r, handle)
	case JSONLD:
		s.jsonldCategory(w, r, handle)
	case WooCommerce:
		s.wooCategory(w, r, handle, 1)
	case Magento:
		s.magentoCategory(w, r, handle)
	case Headless:
		s.headlessCategory(w, r, handle)
	default:
		s.htmlCategory(w, r, handle)
	}
}

// robotsTxt is the kind's usual rules plus Faults.RobotsDisallow.
func (s *Store) robotsTxt(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	switch s.opts.Kind {
	case Shopify:
		b.WriteString("# we use Shopify as our ecommerce platform\n\nUser-agent: *\n")
		for _, p := range []string{"/a/downloads/-/*", "/admin", "/cart", "/orders", "/checkouts/", "/checkout",
			"/" + strconv.FormatInt(s.shopID, 10) + "/checkouts", "/carts", "/account", "/collections/*sort_by*",
			"/*/collections/*sort_by*", "/collections/*+*", "/collections/*%2B*", "/blogs/*+*", "/policies/", "/search"} {
			b.WriteString("Disallow: " + p + "\n")
		}
	case JSONLD:
		b.WriteString("User-agent: *\nDisallow: /cart\nDisallow: /checkout\nDisallow: /my-account\nDisallow: /*?orderby=\n")
	default:
		b.WriteString("User-agent: *\nDisallow: /basket\n")
	}
	for _, p := range s.opts.Faults.RobotsDisallow {
		b.WriteString("Disallow: " + p + "\n")
	}
	if s.opts.Kind != HTML && s.opts.Kind != Script {
		b.WriteString("\nSitemap: " + base(r) + "/sitemap.xml\n")
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, b.String())
}

// serveDemo answers /_demo/: faults.json, stats.json, catalog.json and an index page.
func (s *Store) serveDemo(w http.ResponseWriter, r *http.Request) {
	b := base(r)
	switch strings.TrimPrefix(r.URL.Path, "/_demo/") {
	case "faults.json":
		type entry struct {
			Fault
			URL string `json:"url"`
		}
		out := struct {
			Store       string   `json:"store"`
			Kind        Kind     `json:"kind"`
			Faults      []entry  `json:"faults"`
			QueryParams []string `json:"query_params"`
			Latency     string   `json:"latency"`
			ErrorRate   float64  `json:"error_rate"`
			BotWall     string   `json:"bot_wall"`
			RobotsDeny  []string `json:"robots_disallow"`
			RateBurst   int      `json:"rate_limit_burst"`
			RateEvery   int      `json:"rate_limit_every"`
			SlowDelay   string   `json:"slow_delay"`
		}{Store: s.name, Kind: s.opts.Kind, QueryParams: []string{"_fault=<status>|botwall|slow", "_delay=<duration>"},
			Latency: s.opts.Faults.Latency.String(), ErrorRate: s.opts.Faults.ErrorRate, BotWall: s.opts.Faults.BotWall,
			RobotsDeny: append([]string{}, s.opts.Faults.RobotsDisallow...), RateBurst: s.opts.Faults.RateLimit.Burst,
			RateEvery: s.opts.Faults.RateLimit.Every, SlowDelay: s.opts.Faults.SlowDelay.String()}
		for _, f := range s.faults {
			e := entry{Fault: f}
			if strings.HasPrefix(f.Path, "/") {
				e.URL = b + f.Path
			}
			out.Faults = append(out.Faults, e)
		}
		writeJSON(w, out)
	case "stats.json":
		st := s.Stats()
		routes := map[string]int64{}
		for k, v := range st.ByRoute {
			routes[k.String()] = v
		}
		status := map[string]int64{}
		for k, v := range st.ByStatus {
			status[strconv.Itoa(k)] = v
		}
		writeJSON(w, map[string]any{"requests": st.Requests, "by_route": routes, "by_status": status,
			"faulted": st.Faulted, "disallowed": st.Disallowed, "products_seen": st.ProductsSeen, "max_in_flight": st.MaxInFlight})
	case "catalog.json":
		type col struct {
			Handle        string `json:"handle"`
			Title         string `json:"title"`
			ProductsCount int    `json:"products_count"`
			URL           string `json:"url"`
			Pages         int    `json:"pages"`
		}
		var cols []col
		for _, c := range s.cat.Collections() {
			cols = append(cols, col{c.Handle, c.Title, len(c.Products), b + s.CategoryPath(c.Handle), s.CategoryPages(c.Handle)})
		}
		writeJSON(w, map[string]any{"store": s.name, "kind": s.opts.Kind, "currency": s.currency,
			"products": s.cat.Len(), "page_size": s.pageSize, "collections": cols,
			"product_url_prefix": b + s.productPrefix()})
	case "":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>%s demo</title></head><body><h1>%s (%s)</h1><ul>"+
			"<li><a href=\"/_demo/faults.json\">faults.json</a></li><li><a href=\"/_demo/stats.json\">stats.json</a></li>"+
			"<li><a href=\"/_demo/catalog.json\">catalog.json</a></li></ul></body></html>\n", s.name, s.name, s.opts.Kind)
	default:
		s.notFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
