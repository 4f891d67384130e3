package enrich

import (
	"strings"

	"github.com/stockroom/stockroom/core/product"
)

// Evidence is what the page states about the product beyond the product fields: the
// extractor fills it from the page's structured data. The zero value is valid.
type Evidence struct {
	// Properties are name/value facts the page states: schema.org Product color, material,
	// pattern, audience (suggestedGender, suggestedAge), and each additionalProperty
	// PropertyValue, in page order. PropertiesFromJSONLD builds them from decoded JSON-LD.
	Properties []Property
}

// Property is one stated fact ("Material": "100% merino wool").
type Property struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Result is the enrichment of one product. Pointers are nil (rendered null) where the
// product holds no evidence.
type Result struct {
	Attributes Attributes `json:"attributes"`
	// ProductType is the store's own product type, else the last category-like
	// breadcrumb, else the leaf of the matched category.
	ProductType *string `json:"product_type"`
	// CategoryID and CategoryPath name the matched node of the embedded Google Product
	// Taxonomy subset ("212", "Apparel & Accessories > Clothing > Shirts & Tops").
	CategoryID   *string `json:"engine_product_category_id"`
	CategoryPath *string `json:"engine_product_category_path"`
}

// Enrich derives attributes, product type and category from the product and the page's
// evidence. It is pure and deterministic: the same input always gives the same Result.
// A nil product gives an empty Result.
func Enrich(p *product.Product, in Evidence) Result {
	r := Result{Attributes: emptyAttributes()}
	if p == nil {
		return r
	}
	v := view(p)
	cat := Categorize(p)
	path := ""
	if cat != nil {
		r.CategoryID, r.CategoryPath = ptr(cat.ID), ptr(cat.Path)
		path = cat.Path
	}
	r.ProductType = productType(v, cat)
	r.Attributes = deriveAttributes(prepare(v, in.Properties, path))
	return r
}

func emptyAttributes() Attributes {
	return Attributes{Features: []string{}, Season: []string{}, Style: []string{},
		Occasion: []string{}, AdditionalAttributes: []AdditionalAttribute{}}
}

// productView is the product flattened to the strings the rules read.
type productView struct {
	title       string
	productType string // "" when absent or a placeholder
	breadcrumbs []string
	tags        []string
	options     []product.Option
	descText    string
	items       []string
}

func view(p *product.Product) productView {
	v := productView{options: p.Options}
	if p.Title != nil {
		v.title = squash(*p.Title)
	}
	if p.ProductType != nil {
		if t := squash(*p.ProductType); t != "" && !placeholders[strings.Join(words(t), " ")] {
			v.productType = t
		}
	}
	for _, b := range p.Breadcrumbs {
		n := squash(b.Name)
		if n == "" || navCrumbs[strings.Join(words(n), " ")] || strings.EqualFold(n, v.title) {
			continue
		}
		v.breadcrumbs = append(v.breadcrumbs, n)
	}
	for _, t := range p.Tags {
		if t = squash(t); t != "" {
			v.tags = append(v.tags, t)
		}
	}
	switch {
	case p.DescriptionHTML != nil && strings.TrimSpace(*p.DescriptionHTML) != "":
		h := parseHTML(*p.DescriptionHTML)
		v.descText, v.items = h.text, h.items
	case p.Description != nil:
		v.descText = *p.Description
	}
	return v
}

// productType: the store's own product type; else the last breadcrumb that is not
// navigation ("Home", "Shop") nor the product's title; else the leaf of the matched
// category; else nil.
func productType(v productView, cat *Category) *string {
	if v.productType != "" {
		return ptr(v.productType)
	}
	if n := len(v.breadcrumbs); n > 0 {
		return ptr(v.breadcrumbs[n-1])
	}
	if cat != nil {
		return ptr(leaf(cat.Path))
	}
	return nil
}
