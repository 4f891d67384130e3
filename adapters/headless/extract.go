package headless

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract reads the product of a product page's state: its fields, options, variants
// and images. A product without options (Shopify's single "Default Title" variant) has no
// variants. Its price is that of the variant the page starts on, the first available.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	st, ok := readState(page)
	if !ok {
		return nil, sdk.NonProduct("no embedded state")
	}
	v := findProduct(st.data)
	if !v.Exists() {
		return nil, sdk.NonProduct("no product in the page's state")
	}
	hint := stateCurrency(v)
	if hint == "" {
		hint = stateCurrency(st.data)
	}
	platform := Platform
	id := first(v, []string{"id"}).String()
	p := &sdk.Product{
		ID: id, Handle: first(v, handleKeys).String(), Platform: &platform, PlatformID: storefront.NonEmpty(id),
		Title:        storefront.NonEmpty(first(v, titleKeys).String()),
		Vendor:       storefront.NonEmpty(first(v, []string{"vendor", "brand.name", "brand"}).String()),
		ProductType:  storefront.NonEmpty(first(v, []string{"productType", "product_type", "type"}).String()),
		CanonicalURL: storefront.NonEmpty(page.HTML().SelectOne(`link[rel="canonical"]`).Attr("href")),
	}
	if html := first(v, []string{"descriptionHtml", "description_html", "descriptionHTML"}); html.Type == gjson.String {
		p.DescriptionHTML = storefront.NonEmpty(html.String())
	}
	p.Description = storefront.NonEmpty(first(v, []string{"description", "shortDescription"}).String())
	for _, t := range v.Get("tags").Array() {
		if t.Type == gjson.String {
			p.Tags = append(p.Tags, t.String())
		}
	}
	resolve := storefront.Resolver(c.URL())
	for k, im := range list(first(v, []string{"images", "media", "gallery"})) {
		if u := imageURL(im); u != "" {
			img := sdk.Image{URL: resolve(u), AltText: storefront.NonEmpty(first(im, []string{"altText", "alt"}).String()), Position: k + 1}
			if w, h := im.Get("width"), im.Get("height"); w.Type == gjson.Number && h.Type == gjson.Number {
				wi, hi := int(w.Int()), int(h.Int())
				img.Width, img.Height = &wi, &hi
			}
			p.Images = append(p.Images, img)
		}
	}

	variants := list(v.Get("variants"))
	lead := gjson.Result{}
	anyAvailable := false
	for _, vr := range variants {
		if ok, _ := available(vr); ok {
			anyAvailable = true
			if !lead.Exists() {
				lead = vr
			}
		}
	}
	if !lead.Exists() && len(variants) > 0 {
		lead = variants[0]
	}
	if lead.Exists() {
		p.Price = priceOf(lead, hint)
	}
	if p.Price == nil {
		p.Price = priceOf(v, hint)
	}
	isAvailable, stated := available(v)
	if len(variants) > 0 {
		isAvailable, stated = anyAvailable, true
	}
	if stated {
		p.IsAvailable = &isAvailable
	}
	if len(variants) == 1 && isDefaultVariant(variants[0]) {
		if sku := variants[0].Get("sku").String(); sku != "" {
			p.SKU = &sku
		}
		return p, nil
	}
	p.Options = options(v)
	for _, vr := range variants {
		p.Variants = append(p.Variants, variant(vr, hint))
	}
	return p, nil
}

// list is a list as a state writes it: an array, or a GraphQL connection's edges or
// nodes.
func list(v gjson.Result) []gjson.Result {
	switch {
	case v.IsArray():
		return v.Array()
	case v.Get("nodes").IsArray():
		return v.Get("nodes").Array()
	}
	var out []gjson.Result
	for _, e := range v.Get("edges").Array() {
		out = append(out, node(e))
	}
	return out
}

// isDefaultVariant reports whether a variant is the only one of a product without
// options, which Shopify titles "Default Title".
func isDefaultVariant(v gjson.Result) bool {
	if t := v.Get("title").String(); t == "Default Title" || t == "" {
		return true
	}
	return len(v.Get("selectedOptions").Array()) == 0 && !v.Get("options").Exists()
}

// options are a product's options, each with its values ({"name", "values"}, a value a
// string or an object with its name or label).
func options(v gjson.Result) []sdk.Option {
	var out []sdk.Option
	for k, o := range list(v.Get("options")) {
		opt := sdk.Option{Name: first(o, []string{"name", "label"}).String(), Position: k + 1}
		for _, val := range list(first(o, []string{"values", "optionValues"})) {
			if val.Type == gjson.String {
				opt.Values = append(opt.Values, val.String())
			} else if s := first(val, []string{"name", "label", "value"}).String(); s != "" {
				opt.Values = append(opt.Values, s)
			}
		}
		if opt.Name != "" {
			out = append(out, opt)
		}
	}
	return out
}

// variant reads one variant: its id, title, SKU, options ({"name", "value"} pairs in
// selectedOptions, or an object), availability and price.
func variant(v gjson.Result, hint string) sdk.Variant {
	out := sdk.Variant{ID: first(v, []string{"id"}).String(), Title: storefront.NonEmpty(first(v, titleKeys).String()),
		SKU: storefront.NonEmpty(v.Get("sku").String()), Price: priceOf(v, hint)}
	if ok, stated := available(v); stated {
		out.IsAvailable = &ok
	}
	for _, o := range list(first(v, []string{"selectedOptions", "options", "attributes"})) {
		name, value := first(o, []string{"name", "label"}).String(), first(o, []string{"value", "option"}).String()
		if name != "" && value != "" {
			if out.Options == nil {
				out.Options = map[string]string{}
			}
			out.Options[strings.TrimSpace(name)] = value
		}
	}
	return out
}
