package shopify

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract builds the product from /products/{handle}.json, with the currency and the
// canonical URL from the page. Variant availability, which that JSON omits, comes from
// /products/{handle}.js when the JSON does not carry it.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	// Parsed once: in a WebAssembly guest a URL parse costs as much as several host calls.
	u, err := url.Parse(c.URL())
	if err != nil {
		return nil, sdk.NonProduct("not a Shopify product URL")
	}
	base, handle := originOf(u), handleIn(u, "/products/")
	if base == "" || handle == "" {
		return nil, sdk.NonProduct("not a Shopify product URL")
	}
	jsonDoc := c.Need(base + "/products/" + handle + ".json")
	if jsonDoc == nil {
		return nil, sdk.ErrPending
	}
	switch {
	case jsonDoc.Status == 404 && pageSaysProduct(c.Page()):
		// The page is a product's, but its JSON is missing: a storefront that is no
		// Shopify online store (a headless one on Shopify's CDN). The generic adapters read
		// the page; "no product" would be a verdict that stands (adapters/ABI.md, the merge
		// rules) on a page that has one.
		return nil, sdk.Fail("product JSON answered 404")
	case jsonDoc.Status == 404:
		return nil, sdk.NonProduct("no product %q", handle)
	case jsonDoc.Status == 401 || jsonDoc.Status == 403 || jsonDoc.Status == 429:
		return nil, sdk.Blocked("product JSON answered %d", jsonDoc.Status)
	case !jsonDoc.OK():
		return nil, sdk.Fail("product JSON: %s", jsonDoc.Failure())
	}
	pj := jsonDoc.JSON().Get("product")
	if !pj.Exists() {
		return nil, sdk.Fail("product JSON has no product")
	}

	// /products/{handle}.json has no variant availability; the .js rendering does.
	var availability sdk.Value
	if pj.Get("variants.0").Exists() && !pj.Get("variants.0.available").Exists() {
		js := c.Need(base + "/products/" + handle + ".js")
		if js == nil {
			return nil, sdk.ErrPending
		}
		if js.OK() {
			availability = js.JSON()
		}
	}

	var currency, canonical string
	if page := c.Page(); page != nil && page.OK() {
		root := page.HTML()
		currency = pageCurrency(root, page)
		canonical = canonicalLink(root.FindOne("//link[@rel='canonical']").Attr("href"))
	}
	return build(c, pj, availability, currency, canonical, u.Query().Get("variant")), nil
}

// Assemble builds the product from its record in /collections/{handle}/products.json,
// which holds everything /products/{handle}.json and .js give (variant availability
// included), and from the store's home page, which every product shares: the currency
// (Shopify.currency) and the canonical domain (the home page's canonical link), to which
// the product's canonical URL is /products/{handle}, as Shopify writes it on the product
// page.
func (Adapter) Assemble(c *sdk.Call) (*sdk.Product, error) {
	u, err := url.Parse(c.URL())
	if err != nil {
		return nil, sdk.NonProduct("not a Shopify product URL")
	}
	base, handle := originOf(u), handleIn(u, "/products/")
	if base == "" || handle == "" {
		return nil, sdk.NonProduct("not a Shopify product URL")
	}
	pj := c.Page().JSON()
	if !pj.Get("variants.0.available").Exists() {
		// A record without availability cannot give the product's; its page can.
		return nil, sdk.Fail("the record of %s has no variant availability", handle)
	}
	home := c.Need(base + "/")
	if home == nil {
		return nil, sdk.ErrPending
	}
	if !home.OK() {
		return nil, sdk.Fail("home page: %s", home.Failure())
	}
	root := home.HTML()
	currency := pageCurrency(root, home)
	if currency == "" {
		return nil, sdk.Fail("the home page names no currency")
	}
	canonical := ""
	if site := origin(root.FindOne("//link[@rel='canonical']").Attr("href")); site != "" {
		canonical = canonicalLink(site + "/products/" + pj.Get("handle").String())
	}
	return build(c, pj, sdk.Value{}, currency, canonical, ""), nil
}

// build maps the storefront product JSON to a Product; its images and variants are
// spliced into c's answer. availability, when it exists, is the .js rendering whose
// variants say which are available.
func build(c *sdk.Call, pj, availability sdk.Value, currency, canonical, selected string) *sdk.Product {
	f := pj.Strings("id", "handle", "title", "vendor", "product_type", "updated_at")
	id, handle, title, vendor, productType, updatedAt := f[0], f[1], f[2], f[3], f[4], f[5]
	platform := "shopify"
	p := &sdk.Product{
		ID:           id,
		Handle:       handle,
		Platform:     &platform,
		PlatformID:   nonEmpty(id),
		Title:        nonEmpty(title),
		Vendor:       nonEmpty(vendor),
		Brand:        nonEmpty(vendor),
		ProductType:  nonEmpty(productType),
		UpdatedAt:    nonEmpty(updatedAt),
		CanonicalURL: nonEmpty(canonical),
	}
	// The description goes from the host's copy of the JSON to the answer without
	// crossing into the guest: it is often the largest part of a product.
	c.Splice("product.description_html", pj.Shape(`{"$string":"body_html"}`))
	c.Splice("product.description", pj.Shape(`{"$text":"body_html"}`))
	p.Tags = tags(pj.Get("tags"))

	// Shopify has at most three options; their names key the variants' option values.
	var optionNames []string
	for _, name := range pj.Strings("options.0.name", "options.1.name", "options.2.name") {
		name = strings.TrimSpace(name)
		if name == "" {
			break
		}
		optionNames = append(optionNames, name)
	}
	c.Splice("product.options", pj.Shape(optionsTemplate))
	c.Splice("product.images", pj.Shape(`{"$each":"images","$map":`+imageTemplate("", true)+`}`))
	variants := pj.Shape(variantsTemplate(optionNames, currency, availability.Exists()), availability)
	c.Splice("product.variants", variants)

	// The product's price is the one the page shows: the variant in the URL, else the
	// first available one, else the first. The variants' availability and ids come back
	// as two short JSON arrays of literals in one host call.
	f = variants.Strings("#.is_available", "#.id")
	available := strings.Split(strings.Trim(f[0], "[]"), ",")
	if f[0] == "" {
		available = nil
	}
	chosen, anyAvailable := -1, false
	for i, a := range available {
		if a == "true" {
			anyAvailable = true
			if chosen < 0 {
				chosen = i
			}
		}
	}
	if selected != "" {
		for i, id := range strings.Split(strings.Trim(f[1], "[]"), ",") {
			if strings.Trim(id, `"`) == selected {
				chosen = i
				break
			}
		}
	}
	if chosen < 0 && len(available) > 0 {
		chosen = 0
	}
	if chosen >= 0 {
		at := "variants." + strconv.Itoa(chosen) + "."
		p.Price = price(pj.Strings(at+"price", at+"compare_at_price"), currency)
	}
	if len(available) > 0 {
		p.IsAvailable = &anyAvailable
	}
	if len(available) == 1 {
		f := variants.Strings("0.sku", "0.gtin")
		p.SKU, p.GTIN = nonEmpty(f[0]), nonEmpty(f[1])
	} else if chosen >= 0 {
		// The SKU Shopify's themes give the product in its JSON-LD: that of the variant
		// the page shows.
		p.SKU = nonEmpty(variants.Get(strconv.Itoa(chosen) + ".sku").String())
	}
	return p
}

// canonicalLink writes a canonical URL in one form whatever escaping its page used (a
// theme writes a handle's non-ASCII letters raw, or escaped in either case), so that a
// product's canonical URL is the same read from its page or built from its handle.
func canonicalLink(href string) string {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil || u.Host == "" {
		return href
	}
	u.RawPath = ""
	return u.String()
}

// price reads a price and a compare-at price as storefront JSON writes them, decimals in
// strings ("19.90") or numbers.
func price(f []string, currency string) *sdk.Price {
	cur, err := strconv.ParseFloat(strings.TrimSpace(f[0]), 64)
	if err != nil {
		return nil
	}
	pr := &sdk.Price{Current: cur, Currency: currency}
	if cmp, err := strconv.ParseFloat(strings.TrimSpace(f[1]), 64); err == nil {
		pr.CompareAt = &cmp
	}
	return pr
}

// tags reads tags as Shopify writes them: a list in products.json, one comma-separated
// string in /products/{handle}.json.
func tags(v sdk.Value) []string {
	if v.Kind() == sdk.String {
		var out []string
		for rest, more := v.String(), true; more; {
			var t string
			t, rest, more = strings.Cut(rest, ",")
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
		return out
	}
	var out []string
	for _, t := range v.Array() {
		out = append(out, t.String())
	}
	return out
}

// pageCurrency finds the shop's active currency on one of its pages: the markup's (see
// sdk.MarkupCurrency), then the Shopify.currency object of the theme's script.
func pageCurrency(root sdk.Node, page *sdk.Doc) string {
	if c := sdk.MarkupCurrency(page); c != "" {
		return c
	}
	script := root.TextOf("//script[contains(., 'Shopify.currency')]")
	if i := strings.Index(script, `"active":"`); i >= 0 {
		rest := script[i+len(`"active":"`):]
		if j := strings.IndexByte(rest, '"'); j == 3 {
			return rest[:3]
		}
	}
	return ""
}

func nonEmpty(s string) *string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return &s
}

// pageSaysProduct reports whether a page calls itself a product page: Open Graph's
// og:type, or the page type Shopify's analytics snippet names.
func pageSaysProduct(page *sdk.Doc) bool {
	if page == nil || !page.OK() {
		return false
	}
	if page.Contains(`"pageType":"product"`) {
		return true
	}
	kind := strings.ToLower(page.HTML().FindOne("//meta[@property='og:type']").Attr("content"))
	return strings.HasPrefix(kind, "product") || strings.HasPrefix(kind, "og:product")
}
