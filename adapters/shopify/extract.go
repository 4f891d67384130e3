package shopify

import (
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract builds the product from /products/{handle}.json, with the currency and the
// canonical URL from the page. Variant availability, which that JSON omits, comes from
// /products/{handle}.js when the JSON does not carry it.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	base, handle := origin(c.URL()), handleAfter(c.URL(), "/products/")
	if base == "" || handle == "" {
		return nil, sdk.NonProduct("not a Shopify product URL")
	}
	jsonDoc := c.Need(base + "/products/" + handle + ".json")
	if jsonDoc == nil {
		return nil, sdk.ErrPending
	}
	switch {
	case jsonDoc.Status == 404:
		return nil, sdk.NonProduct("no product %q", handle)
	case jsonDoc.Status == 401 || jsonDoc.Status == 403 || jsonDoc.Status == 429:
		return nil, sdk.Blocked("product JSON answered %d", jsonDoc.Status)
	case !jsonDoc.OK():
		return nil, sdk.Fail("product JSON: status %d %s", jsonDoc.Status, jsonDoc.Err)
	}
	pj := jsonDoc.JSON().Get("product")
	if !pj.Exists() {
		return nil, sdk.Fail("product JSON has no product")
	}

	variants := pj.Get("variants").Array()
	// /products/{handle}.json has no variant availability; the .js rendering does.
	var avail map[string]bool
	if len(variants) > 0 && !variants[0].Get("available").Exists() {
		js := c.Need(base + "/products/" + handle + ".js")
		if js == nil {
			return nil, sdk.ErrPending
		}
		if js.OK() {
			avail = map[string]bool{}
			for _, v := range js.JSON().Get("variants").Array() {
				avail[v.Get("id").String()] = v.Get("available").Bool()
			}
		}
	}

	var currency, canonical string
	if page := c.Page(); page != nil && page.OK() {
		root := page.HTML()
		currency = pageCurrency(root, page)
		canonical = root.FindOne("//link[@rel='canonical']").Attr("href")
	}
	return build(pj, variants, avail, currency, canonical, selectedVariant(c.URL())), nil
}

// build maps the storefront product JSON to a Product. avail, when not nil, overrides the
// variants' availability.
func build(pj sdk.Value, variants []sdk.Value, avail map[string]bool, currency, canonical, selected string) *sdk.Product {
	id := pj.Get("id").String()
	platform := "shopify"
	p := &sdk.Product{
		ID:           id,
		Handle:       pj.Get("handle").String(),
		Platform:     &platform,
		PlatformID:   nonEmpty(id),
		Title:        nonEmpty(pj.Get("title").String()),
		Vendor:       nonEmpty(pj.Get("vendor").String()),
		Brand:        nonEmpty(pj.Get("vendor").String()),
		ProductType:  nonEmpty(pj.Get("product_type").String()),
		UpdatedAt:    nonEmpty(pj.Get("updated_at").String()),
		CanonicalURL: nonEmpty(canonical),
	}
	if body := pj.Get("body_html"); body.String() != "" {
		html := body.String()
		p.DescriptionHTML = &html
		p.Description = nonEmpty(body.HTMLText())
	}
	p.Tags = tags(pj.Get("tags"))

	var optionNames []string
	for i, o := range pj.Get("options").Array() {
		opt := sdk.Option{Name: o.Get("name").String(), Position: i + 1}
		if n, ok := o.Get("position").Float(); ok {
			opt.Position = int(n)
		}
		for _, v := range o.Get("values").Array() {
			opt.Values = append(opt.Values, v.String())
		}
		optionNames = append(optionNames, opt.Name)
		p.Options = append(p.Options, opt)
	}

	anyAvailable := false
	var chosen *sdk.Variant
	for _, v := range variants {
		vid := v.Get("id").String()
		variant := sdk.Variant{
			ID:    vid,
			Title: nonEmpty(v.Get("title").String()),
			SKU:   nonEmpty(v.Get("sku").String()),
			GTIN:  nonEmpty(v.Get("barcode").String()),
			Price: price(v, currency),
		}
		available := v.Get("available").Bool()
		if avail != nil {
			available = avail[vid]
		}
		variant.IsAvailable = &available
		anyAvailable = anyAvailable || available
		for i, name := range optionNames {
			if val := v.Get("option" + string(rune('1'+i))).String(); val != "" {
				if variant.Options == nil {
					variant.Options = map[string]string{}
				}
				variant.Options[name] = val
			}
		}
		if img := v.Get("featured_image.id").String(); img != "" {
			variant.ImageID = &img
		} else if img := v.Get("image_id").String(); img != "" {
			variant.ImageID = &img
		}
		p.Variants = append(p.Variants, variant)
	}
	// The product's price is the one the page shows: the variant in the URL, else the
	// first available one, else the first.
	for i := range p.Variants {
		v := &p.Variants[i]
		if v.ID == selected {
			chosen = v
			break
		}
		if chosen == nil && *v.IsAvailable {
			chosen = v
		}
	}
	if chosen == nil && len(p.Variants) > 0 {
		chosen = &p.Variants[0]
	}
	if chosen != nil && chosen.Price != nil {
		pr := *chosen.Price
		p.Price = &pr
	}
	if len(variants) > 0 {
		p.IsAvailable = &anyAvailable
	}
	if len(p.Variants) == 1 {
		p.SKU, p.GTIN = p.Variants[0].SKU, p.Variants[0].GTIN
	}

	for i, img := range pj.Get("images").Array() {
		im := image(img)
		if im.Position == 0 {
			im.Position = i + 1
		}
		p.Images = append(p.Images, im)
	}
	return p
}

func price(v sdk.Value, currency string) *sdk.Price {
	cur, ok := v.Get("price").Float()
	if !ok {
		return nil
	}
	pr := &sdk.Price{Current: cur, Currency: currency}
	if cmp, ok := v.Get("compare_at_price").Float(); ok {
		pr.CompareAt = &cmp
	}
	return pr
}

func image(img sdk.Value) sdk.Image {
	im := sdk.Image{ID: img.Get("id").String(), URL: img.Get("src").String(), AltText: nonEmpty(img.Get("alt").String())}
	if n, ok := img.Get("position").Float(); ok {
		im.Position = int(n)
	}
	if n, ok := img.Get("width").Float(); ok {
		w := int(n)
		im.Width = &w
	}
	if n, ok := img.Get("height").Float(); ok {
		h := int(n)
		im.Height = &h
	}
	for _, id := range img.Get("variant_ids").Array() {
		im.VariantIDs = append(im.VariantIDs, id.String())
	}
	return im
}

// tags reads tags as Shopify writes them: a list in products.json, one comma-separated
// string in /products/{handle}.json.
func tags(v sdk.Value) []string {
	if v.Kind() == sdk.String {
		var out []string
		for _, t := range strings.Split(v.String(), ",") {
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

// pageCurrency finds the shop's active currency on the product page: OpenGraph, then
// JSON-LD offers, then the Shopify.currency object of the theme's script.
func pageCurrency(root sdk.Node, page *sdk.Doc) string {
	if c := root.FindOne("//meta[@property='og:price:currency' or @property='product:price:currency']").Attr("content"); c != "" {
		return strings.ToUpper(strings.TrimSpace(c))
	}
	for _, e := range page.JSONLD().Array() {
		for _, o := range e.Get("offers").List() {
			if c := o.Get("priceCurrency").String(); c != "" {
				return strings.ToUpper(c)
			}
			for _, sub := range o.Get("offers").List() {
				if c := sub.Get("priceCurrency").String(); c != "" {
					return strings.ToUpper(c)
				}
			}
		}
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

func selectedVariant(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Query().Get("variant")
}

func nonEmpty(s string) *string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return &s
}
