package product

// Merge fills the fields of dst that are still unknown from src, and records source as the
// origin of each field it fills. Fields dst already holds stay untouched: the caller merges
// in priority order (platform adapter, then jsonld, then html), so the most specific
// adapter wins and the generic ones only fill gaps.
//
// Lists (images, options, variants, breadcrumbs, tags) are taken whole, never interleaved:
// mixing one adapter's variants with another's images would break the variant links.
func Merge(dst *Product, src *Product, source string) {
	if src == nil {
		return
	}
	if dst.Sources == nil {
		dst.Sources = map[string]string{}
	}
	// Fields src itself took from elsewhere keep that origin.
	origin := func(field string) string {
		if s, ok := src.Sources[field]; ok && s != "" {
			return s
		}
		return source
	}
	str := func(field string, d *string, s string) {
		if *d == "" && s != "" {
			*d = s
			dst.Sources[field] = origin(field)
		}
	}
	str("id", &dst.ID, src.ID)
	str("url", &dst.URL, src.URL)
	str("handle", &dst.Handle, src.Handle)
	fill(dst, "title", &dst.Title, src.Title, origin)
	fill(dst, "description", &dst.Description, src.Description, origin)
	fill(dst, "description_html", &dst.DescriptionHTML, src.DescriptionHTML, origin)
	fill(dst, "vendor", &dst.Vendor, src.Vendor, origin)
	fill(dst, "brand", &dst.Brand, src.Brand, origin)
	fill(dst, "product_type", &dst.ProductType, src.ProductType, origin)
	fill(dst, "platform", &dst.Platform, src.Platform, origin)
	fill(dst, "platform_id", &dst.PlatformID, src.PlatformID, origin)
	fill(dst, "canonical_url", &dst.CanonicalURL, src.CanonicalURL, origin)
	fill(dst, "video_url", &dst.VideoURL, src.VideoURL, origin)
	fill(dst, "is_available", &dst.IsAvailable, src.IsAvailable, origin)
	fill(dst, "sku", &dst.SKU, src.SKU, origin)
	fill(dst, "gtin", &dst.GTIN, src.GTIN, origin)
	fill(dst, "mpn", &dst.MPN, src.MPN, origin)
	fill(dst, "updated_at", &dst.UpdatedAt, src.UpdatedAt, origin)
	fill(dst, "price", &dst.Price, src.Price, origin)
	fill(dst, "reviews", &dst.Reviews, src.Reviews, origin)
	// A platform's JSON often lacks only the currency (Shopify's storefront JSON carries
	// none); take it from a later source rather than dropping the whole price.
	if dst.Price != nil && dst.Price.Currency == "" && src.Price != nil && src.Price.Currency != "" {
		dst.Price.Currency = src.Price.Currency
		dst.Sources["currency"] = origin("currency")
		for i := range dst.Variants {
			if v := dst.Variants[i].Price; v != nil && v.Currency == "" {
				v.Currency = src.Price.Currency
			}
		}
	}
	list(dst, "tags", &dst.Tags, src.Tags, origin)
	list(dst, "images", &dst.Images, src.Images, origin)
	list(dst, "options", &dst.Options, src.Options, origin)
	list(dst, "variants", &dst.Variants, src.Variants, origin)
	list(dst, "breadcrumbs", &dst.Breadcrumbs, src.Breadcrumbs, origin)
}

func fill[T any](p *Product, field string, d **T, s *T, origin func(string) string) {
	if *d == nil && s != nil {
		v := *s
		*d = &v
		p.Sources[field] = origin(field)
	}
}

func list[T any](p *Product, field string, d *[]T, s []T, origin func(string) string) {
	if len(*d) == 0 && len(s) > 0 {
		*d = append([]T(nil), s...)
		p.Sources[field] = origin(field)
	}
}
