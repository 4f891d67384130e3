// Package product holds the Product domain type: what an extraction yields for one product
// page, independent of the API generation that later renders it.
//
// Fields that may be unknown are pointers or nil slices so that "not found" stays distinct
// from "zero": the API renders them as null, and Merge fills only what is unknown.
package product

// Product is one product as extracted from a store. Prices are decimal numbers in the major
// unit of Currency (dollars, euros), exactly as the store shows them.
type Product struct {
	ID          string  `json:"id,omitempty"`
	URL         string  `json:"url,omitempty"`
	Handle      string  `json:"handle,omitempty"`
	Title       *string `json:"title,omitempty"`
	Description *string `json:"description,omitempty"`
	// DescriptionHTML is the description as the store's markup.
	DescriptionHTML *string  `json:"description_html,omitempty"`
	Vendor          *string  `json:"vendor,omitempty"`
	Brand           *string  `json:"brand,omitempty"`
	ProductType     *string  `json:"product_type,omitempty"`
	Tags            []string `json:"tags,omitempty"`

	// Platform names the store platform ("shopify"); PlatformID is the product's id there.
	Platform   *string `json:"platform,omitempty"`
	PlatformID *string `json:"platform_id,omitempty"`

	// CanonicalURL is the page's own canonical link.
	CanonicalURL *string `json:"canonical_url,omitempty"`
	VideoURL     *string `json:"video_url,omitempty"`

	// IsAvailable is true when at least one variant can be bought.
	IsAvailable *bool  `json:"is_available,omitempty"`
	Price       *Price `json:"price,omitempty"`

	// SKU, GTIN and MPN are the product's own codes, or those of its only variant.
	SKU  *string `json:"sku,omitempty"`
	GTIN *string `json:"gtin,omitempty"`
	MPN  *string `json:"mpn,omitempty"`

	Images      []Image      `json:"images,omitempty"`
	Options     []Option     `json:"options,omitempty"`
	Variants    []Variant    `json:"variants,omitempty"`
	Breadcrumbs []Breadcrumb `json:"breadcrumbs,omitempty"`

	// Reviews are the page's own rating and reviews; nil when it states none.
	Reviews *Reviews `json:"reviews,omitempty"`

	// UpdatedAt is the store's own last-modified time (ISO 8601), when it tells.
	UpdatedAt *string `json:"updated_at,omitempty"`

	// Sources maps a field name (the JSON name above) to the adapter that supplied it.
	// Merge fills it; an adapter may leave it empty.
	Sources map[string]string `json:"sources,omitempty"`
}

// Price is a current price with an optional compare-at ("was") price.
type Price struct {
	Current   float64  `json:"current_value"`
	CompareAt *float64 `json:"compare_at_value"`
	Currency  string   `json:"currency,omitempty"`
}

// Image is a product image; VariantIDs links it to the variants it shows.
type Image struct {
	ID         string   `json:"id,omitempty"`
	URL        string   `json:"url"`
	AltText    *string  `json:"alt_text,omitempty"`
	Position   int      `json:"position,omitempty"`
	Width      *int     `json:"width,omitempty"`
	Height     *int     `json:"height,omitempty"`
	VariantIDs []string `json:"variant_ids,omitempty"`
}

// Option is a dimension along which variants differ (size, colour).
type Option struct {
	Name     string   `json:"name"`
	Position int      `json:"position,omitempty"`
	Values   []string `json:"values"`
}

// Variant is one purchasable combination of option values.
type Variant struct {
	ID          string            `json:"id,omitempty"`
	Title       *string           `json:"title,omitempty"`
	SKU         *string           `json:"sku,omitempty"`
	GTIN        *string           `json:"gtin,omitempty"`
	MPN         *string           `json:"mpn,omitempty"`
	Options     map[string]string `json:"options,omitempty"`
	IsAvailable *bool             `json:"is_available,omitempty"`
	Price       *Price            `json:"price,omitempty"`
	ImageID     *string           `json:"image_id,omitempty"`
}

// Breadcrumb is one step of the page's category trail, outermost first.
type Breadcrumb struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// MinMaxPrice returns the lowest and highest current price over the variants, or the
// product price when there are no priced variants. ok is false when nothing is priced.
func (p *Product) MinMaxPrice() (min, max float64, ok bool) {
	for _, v := range p.Variants {
		if v.Price == nil {
			continue
		}
		if !ok || v.Price.Current < min {
			min = v.Price.Current
		}
		if !ok || v.Price.Current > max {
			max = v.Price.Current
		}
		ok = true
	}
	if !ok && p.Price != nil {
		return p.Price.Current, p.Price.Current, true
	}
	return min, max, ok
}
