// Package shopify is the built-in adapter for Shopify stores. It reads the storefront
// JSON every Shopify store serves (/products/{handle}.json, /collections.json,
// /collections/{handle}/products.json) and takes from the product page only what that JSON
// lacks: the currency and the canonical URL.
//
// The package is the adapter; ./guest wraps it as a WebAssembly module. Tests and
// benchmarks also run it natively through sdk.Native.
package shopify

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the Shopify adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.4"

func (Adapter) Info() sdk.Info {
	return sdk.Info{
		Name:               "shopify",
		Version:            Version,
		Platforms:          []string{"shopify"},
		URLPatterns:        []string{"/products/*", "/collections/*/products/*"},
		CollectionPatterns: []string{"/collections/*"},
	}
}

// Detect weighs the signs a Shopify storefront leaves: response headers (decisive) and
// markers in the home page's HTML.
func (Adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	page := c.Page()
	if page == nil {
		return nil, nil
	}
	var evidence []string
	strong := false
	for _, h := range []string{"x-shopify-stage", "x-shopid", "x-shopify-request-id"} {
		if page.Header(h) != "" {
			evidence = append(evidence, "header "+h)
			strong = true
		}
	}
	if strings.EqualFold(strings.TrimSpace(page.Header("powered-by")), "shopify") {
		evidence = append(evidence, "header powered-by: Shopify")
		strong = true
	}
	for _, marker := range []string{"cdn.shopify.com", "/cdn/shop/", "window.Shopify", "Shopify.theme", "myshopify.com"} {
		if page.Contains(marker) {
			evidence = append(evidence, "html "+marker)
		}
	}
	var confidence float64
	switch {
	case strong:
		confidence = 0.95
	case len(evidence) >= 2:
		confidence = 0.9
	case len(evidence) == 1:
		confidence = 0.6
	default:
		return nil, nil
	}
	return &sdk.Detection{Platform: "shopify", Confidence: confidence, Evidence: evidence}, nil
}

// origin returns scheme://host of rawURL.
func origin(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return originOf(u)
}

func originOf(u *url.URL) string {
	if u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Discover lists collections from /collections.json and from the sitemap's collection
// sitemaps, merged and in that order, then /collections/all when neither named it, each
// with the store's currency (see storeCurrency). A store behind its password page (the
// home page the host hands over is that page) fails.
func (Adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	base := origin(c.URL())
	if base == "" {
		return nil, sdk.Fail("bad site URL %q", c.URL())
	}
	if u, err := url.Parse(c.URL()); err == nil && u.Path == "/password" {
		// A store not open yet sends every page to its password page: its collections
		// would all read as empty.
		return nil, sdk.Fail("the store is password protected: its pages redirect to %s", c.URL())
	}
	cj := c.Need(base + "/collections.json?limit=250")
	sm := c.Need(base + "/sitemap.xml")
	currency, found := storeCurrency(c)
	if cj == nil || sm == nil || !found {
		return nil, sdk.ErrPending
	}
	var out []sdk.Collection
	seen := map[string]bool{}
	add := func(col sdk.Collection) {
		if col.Handle == "" || seen[col.Handle] {
			return
		}
		seen[col.Handle] = true
		out = append(out, col)
	}
	if cj.OK() {
		for _, col := range cj.JSON().Get("collections").Array() {
			h := col.Get("handle").String()
			entry := sdk.Collection{URL: base + "/collections/" + h, Handle: h, Title: col.Get("title").String()}
			if n, ok := col.Get("products_count").Float(); ok {
				count := int(n)
				entry.ProductsCount = &count
			}
			add(entry)
		}
	}
	if sm.OK() {
		pending := false
		for _, loc := range sm.HTML().Find("//sitemap/loc") {
			u := strings.TrimSpace(loc.Text())
			if !strings.Contains(u, "sitemap_collections") {
				continue
			}
			d := c.Need(u)
			if d == nil {
				pending = true
				continue
			}
			for _, l := range d.HTML().Find("//url/loc") {
				u := strings.TrimSpace(l.Text())
				if h := handleAfter(u, "/collections/"); h != "" {
					add(sdk.Collection{URL: base + "/collections/" + h, Handle: h})
				}
			}
		}
		if pending {
			return nil, sdk.ErrPending
		}
	}
	// Every Shopify store serves /collections/all, its every product, and few list it.
	// Without it, a product in no collection (a store that made none, or left some
	// products out of all it made) is never found. Its pages mostly relist products met in
	// other collections, which costs their links and not their writes.
	add(sdk.Collection{URL: base + "/collections/all", Handle: "all", Title: "All products"})
	for i := range out {
		out[i].Currency = currency
	}
	return out, nil
}

// storeCurrency is the store's active currency, which products.json does not give: read
// from the home page (c.Page()), else from a product page the home page links to, which
// it asks for. found is false while that page is awaited; currency is "" when neither
// page says.
func storeCurrency(c *sdk.Call) (currency string, found bool) {
	home := c.Page()
	if !home.OK() {
		return "", true
	}
	root := home.HTML()
	if currency = pageCurrency(root, home); currency != "" {
		return currency, true
	}
	href := root.FindOne("//a[contains(@href, '/products/')]").Attr("href")
	if href == "" {
		return "", true
	}
	product := c.Need(c.Resolve(href))
	if product == nil {
		return "", false
	}
	if !product.OK() {
		return "", true
	}
	return pageCurrency(product.HTML(), product), true
}

// handleAfter returns the path segment after marker in rawURL ("/products/"), or "".
func handleAfter(rawURL, marker string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return handleIn(u, marker)
}

// handleIn is handleAfter of a parsed URL.
func handleIn(u *url.URL, marker string) string {
	i := strings.LastIndex(u.Path, marker)
	if i < 0 {
		return ""
	}
	h := u.Path[i+len(marker):]
	if j := strings.IndexByte(h, '/'); j >= 0 {
		h = h[:j]
	}
	return strings.TrimSuffix(strings.TrimSuffix(h, ".json"), ".js")
}

// PageSize is the products per page of /collections/{handle}/products.json, Shopify's
// maximum.
const PageSize = 250

// pagingCap is the most products Shopify pages through in a listing of 250 a page
// (/products.json for certain, and a store may apply it to its collections too).
const pagingCap = 25_000

// maxAhead bounds the pages a first page names ahead, whatever count the store gives: the
// listing goes on from the last one's Next.
const maxAhead = 2000

// probeAhead is the pages a full page names ahead when the collection's size is unknown
// (Shopify's "all" has no count): the host lists them at once and asks for none past the
// first that ends the collection. Few, for those it asked already may lie past the end.
const probeAhead = 4

// List reads one page of /collections/{handle}/products.json; the cursor is the page
// number. The first page of a collection whose size the host knows names every later page
// (Ahead), for the host to list at once; any full page of a collection of unknown size
// names the next few.
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	u, err := url.Parse(c.URL())
	if err != nil {
		return sdk.Page{}, sdk.Fail("not a collection URL: %q", c.URL())
	}
	base, handle := originOf(u), handleIn(u, "/collections/")
	if base == "" || handle == "" {
		return sdk.Page{}, sdk.Fail("not a collection URL: %q", c.URL())
	}
	page := 1
	if c.Cursor() != "" {
		n, err := strconv.Atoi(c.Cursor())
		if err != nil || n < 1 {
			return sdk.Page{}, sdk.Fail("bad cursor %q", c.Cursor())
		}
		page = n
	}
	d := c.Need(base + "/collections/" + handle + "/products.json?limit=" + strconv.Itoa(PageSize) + "&page=" + strconv.Itoa(page))
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		if d.Status == 400 && page*PageSize > pagingCap && d.Contains("25000") {
			// Shopify pages no further ("Page * Limit exceeds the 25000 limit."): what lies
			// beyond cannot be listed this way. It is the collection's end here, not a page
			// the store failed to give, which would fail the crawl.
			return sdk.Page{}, nil
		}
		return sdk.Page{}, sdk.Fail("collection %s page %d: %s", handle, page, d.Failure())
	}
	products := d.JSON()
	c.Splice("listings", products.Shape(listingsTemplate(base)))
	var out sdk.Page
	if n, _ := products.Get("products.#").Float(); n == PageSize {
		out.Next = strconv.Itoa(page + 1)
		last := 0 // the last page named ahead
		switch {
		case c.Total() == 0:
			last = page + probeAhead
		case page == 1:
			last = min((c.Total()+PageSize-1)/PageSize, maxAhead+1)
		}
		for p := page + 1; p <= last; p++ {
			out.Ahead = append(out.Ahead, strconv.Itoa(p))
		}
	}
	return out, nil
}
