package kit

import (
	"net/url"

	"github.com/stockroom/stockroom/core/product"
)

// V2 renders p as the interface's v2 product with every field present (null when
// unknown), plus sku, gtin and mpn (api-decisions.md, "Product object"). Enrichment,
// image tags and reviews are off in the kit, so their fields are null.
//
// The server renders products for the API; this copy exists so the kit prints exactly
// what a client would see without the server. Keep the two in step.
func V2(p *product.Product, pageURL string) map[string]any {
	domain := ""
	if u, err := url.Parse(pageURL); err == nil {
		domain = u.Hostname()
	}
	var minPrice, maxPrice any
	if lo, hi, ok := p.MinMaxPrice(); ok {
		minPrice, maxPrice = lo, hi
	}
	images := make([]any, 0, len(p.Images))
	for _, im := range p.Images {
		images = append(images, imageJSON(im))
	}
	options := make([]any, 0, len(p.Options))
	for _, o := range p.Options {
		options = append(options, map[string]any{"name": o.Name, "position": o.Position, "values": nonNil(o.Values)})
	}
	variants := make([]any, 0, len(p.Variants))
	for _, v := range p.Variants {
		opts := v.Options
		if opts == nil {
			opts = map[string]string{}
		}
		variants = append(variants, map[string]any{
			"id": v.ID, "title": deref(v.Title), "sku": deref(v.SKU), "options": opts,
			"is_available": deref(v.IsAvailable), "price": price(v.Price, p.Price), "image_id": deref(v.ImageID),
		})
	}
	available := false
	if p.IsAvailable != nil {
		available = *p.IsAvailable
	}
	u := p.URL
	if u == "" {
		u = pageURL
	}
	return map[string]any{
		"id": p.ID, "title": deref(p.Title), "description": deref(p.Description), "vendor": deref(p.Vendor),
		"brand": deref(p.Brand), "url": u, "handle": p.Handle, "is_available": available,
		"price": price(p.Price, nil), "min_price": minPrice, "max_price": maxPrice,
		"images": images, "options": options, "variants": variants,
		"store_canonical_url": deref(p.CanonicalURL), "store_domain": domain,
		"platform": deref(p.Platform), "platform_id": deref(p.PlatformID),
		"description_html": deref(p.DescriptionHTML), "product_type": nil,
		"engine_product_category_id": nil, "engine_product_category_path": nil,
		"tags": nonNil(p.Tags), "video_url": deref(p.VideoURL), "updated_at": deref(p.UpdatedAt),
		"attributes": nil, "sku": deref(p.SKU), "gtin": deref(p.GTIN), "mpn": deref(p.MPN),
	}
}

// price renders a price object; a variant's missing currency is the product's.
func price(p, product *product.Price) any {
	if p == nil {
		return nil
	}
	cur := p.Currency
	if cur == "" && product != nil {
		cur = product.Currency
	}
	var cmp any
	if p.CompareAt != nil {
		cmp = *p.CompareAt
	}
	var currency any
	if cur != "" {
		currency = cur
	}
	return map[string]any{"current_value": p.Current, "compare_at_value": cmp, "currency": currency}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
