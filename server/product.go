package server

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/core/enrich"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/product"
)

// The product object, in the v2 and v1 shapes. Every field is always present: null where
// unknown or where its flag is off, so the schema never changes with the flags. The fields
// the interface types as strings without "or null" (title, description, vendor) are
// strings, empty when unknown.

type priceJSON struct {
	CurrentValue   float64  `json:"current_value"`
	CompareAtValue *float64 `json:"compare_at_value"`
	Currency       string   `json:"currency"`
}

type imageJSON struct {
	ID         string   `json:"id"`
	URL        string   `json:"url"`
	AltText    *string  `json:"alt_text"`
	Position   int      `json:"position"`
	Width      *int     `json:"width"`
	Height     *int     `json:"height"`
	VariantIDs []string `json:"variant_ids"`
	Attributes any      `json:"attributes"`
}

type optionJSON struct {
	Name     string   `json:"name"`
	Position int      `json:"position"`
	Values   []string `json:"values"`
}

type variantJSON struct {
	ID            string            `json:"id"`
	Title         *string           `json:"title"`
	SKU           *string           `json:"sku"`
	Options       map[string]string `json:"options"`
	IsAvailable   *bool             `json:"is_available"`
	Price         *priceJSON        `json:"price,omitempty"`
	PriceAmount   *float64          `json:"price_amount,omitempty"`
	PriceCurrency *string           `json:"price_currency,omitempty"`
	ImageID       *string           `json:"image_id"`
}

// productJSON is the product of every generation; v2 fills Price, v1 PriceAmount and
// PriceCurrency, and the other side is left out.
type productJSON struct {
	ID                        string            `json:"id"`
	Title                     string            `json:"title"`
	Description               string            `json:"description"`
	Vendor                    string            `json:"vendor"`
	Brand                     *string           `json:"brand"`
	URL                       string            `json:"url"`
	Handle                    string            `json:"handle"`
	IsAvailable               bool              `json:"is_available"`
	Price                     *priceJSON        `json:"price,omitempty"`
	PriceAmount               *float64          `json:"price_amount,omitempty"`
	PriceCurrency             *string           `json:"price_currency,omitempty"`
	MinPrice                  *float64          `json:"min_price"`
	MaxPrice                  *float64          `json:"max_price"`
	Images                    []imageJSON       `json:"images"`
	Options                   []optionJSON      `json:"options"`
	Variants                  []variantJSON     `json:"variants"`
	StoreCanonicalURL         *string           `json:"store_canonical_url"`
	StoreDomain               string            `json:"store_domain"`
	Platform                  *string           `json:"platform"`
	PlatformID                *string           `json:"platform_id"`
	DescriptionHTML           *string           `json:"description_html"`
	ProductType               *string           `json:"product_type"`
	EngineProductCategoryID   *string           `json:"engine_product_category_id"`
	EngineProductCategoryPath *string           `json:"engine_product_category_path"`
	Tags                      []string          `json:"tags"`
	VideoURL                  *string           `json:"video_url"`
	UpdatedAt                 string            `json:"updated_at"`
	FieldSources              map[string]string `json:"field_sources"`
	Attributes                any               `json:"attributes"`
	SKU                       *string           `json:"sku"`
	GTIN                      *string           `json:"gtin"`
	MPN                       *string           `json:"mpn"`
	AverageRating             *float64          `json:"average_rating"`
	RatingScale               *float64          `json:"rating_scale"`
	ReviewCount               *int              `json:"review_count"`
	Reviews                   any               `json:"reviews"`
	SimilarProducts           any               `json:"similar_products"`
}

// generation picks the price fields of a shape.
type generation int

const (
	genV1 generation = iota + 1
	genV2
)

// renderProduct shapes a stored product for a generation and the execution's flags.
func renderProduct(s *extract.Stored, gen generation, flags extract.Flags) *productJSON {
	if s == nil || s.Product == nil {
		return nil
	}
	p := s.Product
	out := &productJSON{
		ID: s.ID, Title: valueOr(p.Title, ""), Description: valueOr(p.Description, ""), Vendor: valueOr(p.Vendor, s.Vendor), Brand: p.Brand,
		URL: p.URL, Handle: handleOf(p), StoreCanonicalURL: p.CanonicalURL, StoreDomain: s.Vendor,
		Platform: p.Platform, PlatformID: p.PlatformID, DescriptionHTML: p.DescriptionHTML,
		Tags: nonNil(p.Tags), VideoURL: p.VideoURL, UpdatedAt: timestamp(s.UpdatedAt),
		SKU: p.SKU, GTIN: p.GTIN, MPN: p.MPN,
		Images: []imageJSON{}, Options: []optionJSON{}, Variants: []variantJSON{},
		FieldSources: p.Sources,
	}
	if out.FieldSources == nil {
		out.FieldSources = map[string]string{}
	}
	if p.IsAvailable != nil {
		out.IsAvailable = *p.IsAvailable
	}
	if lo, hi, ok := p.MinMaxPrice(); ok {
		out.MinPrice, out.MaxPrice = &lo, &hi
	}
	price := p.Price
	if price == nil && out.MinPrice != nil {
		price = &product.Price{Current: *out.MinPrice, Currency: firstCurrency(p)}
	}
	setPrice(price, gen, &out.Price, &out.PriceAmount, &out.PriceCurrency)
	for i, img := range p.Images {
		pos := img.Position
		if pos == 0 {
			pos = i + 1
		}
		id := img.ID
		if id == "" {
			id = s.ID + "-img-" + strconv.Itoa(pos)
		}
		out.Images = append(out.Images, imageJSON{ID: id, URL: img.URL, AltText: img.AltText, Position: pos,
			Width: img.Width, Height: img.Height, VariantIDs: nonNil(img.VariantIDs)})
	}
	for i, o := range p.Options {
		pos := o.Position
		if pos == 0 {
			pos = i + 1
		}
		out.Options = append(out.Options, optionJSON{Name: o.Name, Position: pos, Values: nonNil(o.Values)})
	}
	for _, v := range p.Variants {
		vj := variantJSON{ID: v.ID, Title: v.Title, SKU: v.SKU, Options: v.Options, IsAvailable: v.IsAvailable, ImageID: v.ImageID}
		if vj.Options == nil {
			vj.Options = map[string]string{}
		}
		setPrice(v.Price, gen, &vj.Price, &vj.PriceAmount, &vj.PriceCurrency)
		out.Variants = append(out.Variants, vj)
	}
	if gen == genV1 && out.PriceAmount == nil {
		// v1 keeps its price fields present (null) when there is no price.
		out.PriceAmount, out.PriceCurrency = nil, nil
	}
	if flags.Enrichment {
		enrichProduct(p, out)
	}
	if flags.ImageTags {
		tagImages(p, out)
	}
	if flags.Reviews {
		renderReviews(p.Reviews, out)
	}
	if flags.SimilarProducts {
		out.SimilarProducts = similarOf(s.Similar)
	}
	return out
}

// renderReviews fills the reviews fields from what the page stated: a page without rating
// data keeps the three numbers null and lists no reviews.
func renderReviews(r *product.Reviews, out *productJSON) {
	if r == nil {
		out.Reviews = []product.Review{}
		return
	}
	out.AverageRating, out.RatingScale, out.ReviewCount = r.AverageRating, r.RatingScale, r.ReviewCount
	out.Reviews = nonNil(r.Reviews)
}

type similarJSON struct {
	ID         string  `json:"id"`
	URL        string  `json:"url"`
	Title      *string `json:"title"`
	Brand      *string `json:"brand"`
	Similarity float64 `json:"similarity"`
}

func similarOf(list []extract.Similar) []similarJSON {
	out := make([]similarJSON, 0, len(list))
	for _, s := range list {
		out = append(out, similarJSON{ID: s.ID, URL: s.URL, Title: s.Title, Brand: s.Brand, Similarity: s.Similarity})
	}
	return out
}

// setPrice fills the generation's price fields. v2's price object names its currency, so
// a price whose currency the store does not state is left out there; v1 gives the amount
// with a null currency.
func setPrice(p *product.Price, gen generation, v2 **priceJSON, amount **float64, currency **string) {
	if p == nil {
		return
	}
	if gen == genV2 {
		if p.Currency != "" {
			*v2 = &priceJSON{CurrentValue: p.Current, CompareAtValue: p.CompareAt, Currency: p.Currency}
		}
		return
	}
	value := p.Current
	*amount, *currency = &value, nilIfEmpty(p.Currency)
}

func firstCurrency(p *product.Product) string {
	for _, v := range p.Variants {
		if v.Price != nil && v.Price.Currency != "" {
			return v.Price.Currency
		}
	}
	return ""
}

// handleOf is the product's slug: the platform's handle, else the URL's last path segment.
func handleOf(p *product.Product) string {
	if p.Handle != "" {
		return p.Handle
	}
	u, err := url.Parse(p.URL)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(path.Base(strings.TrimRight(u.Path, "/")), ".html")
}

// valueOr is *p, or otherwise when p is nil.
func valueOr(p *string, otherwise string) string {
	if p == nil {
		return otherwise
	}
	return *p
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// enrichProduct fills the enrichment fields from the product's own evidence, by the
// documented rules of core/enrich (deterministic: never a value the page does not support).
func enrichProduct(p *product.Product, out *productJSON) {
	r := enrich.Enrich(p, enrich.Evidence{})
	out.Attributes = r.Attributes
	out.ProductType, out.EngineProductCategoryID, out.EngineProductCategoryPath = r.ProductType, r.CategoryID, r.CategoryPath
}

// tagImages fills each image's attributes with its tags.
func tagImages(p *product.Product, out *productJSON) {
	tags := enrich.ImageTags(p)
	for i := range out.Images {
		t, ok := tags[out.Images[i].URL]
		if !ok {
			t = tags[out.Images[i].ID]
		}
		if t == nil {
			t = []string{}
		}
		out.Images[i].Attributes = map[string]any{"tags": t}
	}
}
