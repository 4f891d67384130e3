package shopify

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// The Shape templates (adapters/ABI.md) that turn storefront JSON into the answer's wire
// form. The host walks a product's images and variants natively, because reading them
// field by field from a WebAssembly guest cost more than the rest of an extraction.

// imageTemplate maps the image at prefix ("" for the current value, "images.0." for a
// listing's first) to a wire image. In a product's list of images, an image without a
// position takes its place in the list.
func imageTemplate(prefix string, positionFromIndex bool) string {
	position := `{"$number":"` + prefix + `position"}`
	if positionFromIndex {
		position = `{"$first":[` + position + `,{"$index":1}]}`
	}
	return `{"id":{"$string":"` + prefix + `id"},"url":{"$string":"` + prefix + `src"},` +
		`"alt_text":{"$string":"` + prefix + `alt"},"position":` + position + `,` +
		`"width":{"$number":"` + prefix + `width"},"height":{"$number":"` + prefix + `height"},` +
		`"variant_ids":{"$each":"` + prefix + `variant_ids","$map":{"$string":"@this"}},"$required":["url"]}`
}

// priceTemplate maps the price and compare-at price of the variant at prefix to a wire
// price; currency "" leaves it out.
func priceTemplate(prefix, currency string) string {
	cur := ""
	if currency != "" {
		cur = `,"currency":{"$const":` + sdk.Quote(currency) + `}`
	}
	return `{"current_value":{"$number":"` + prefix + `price"},"compare_at_value":{"$number":"` + prefix + `compare_at_price"}` +
		cur + `,"$required":["current_value"]}`
}

// variantsTemplate maps a product's variants to wire variants. optionNames name the
// option1, option2… values. With availabilityFromJS, availability comes from the variants
// of /products/{handle}.js, passed as $1, which products/{handle}.json lacks.
func variantsTemplate(optionNames []string, currency string, availabilityFromJS bool) string {
	var b strings.Builder
	b.WriteString(`{"$each":"variants","$map":{"id":{"$string":"id"},"title":{"$string":"title"},` +
		`"sku":{"$string":"sku"},"gtin":{"$string":"barcode"},"options":{`)
	for i, name := range optionNames {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(sdk.Quote(name) + `:{"$string":"option` + string(rune('1'+i)) + `"}`)
	}
	available := `"available"`
	if availabilityFromJS {
		available = `{"$lookup":"$1.variants","$on":"id","$key":"id","$value":"available"}`
	}
	b.WriteString(`},"is_available":{"$bool":` + available + `},"price":` + priceTemplate("", currency) +
		`,"image_id":{"$first":[{"$string":"featured_image.id"},{"$string":"image_id"}]}}}`)
	return b.String()
}

// optionsTemplate maps a product's options to wire options.
const optionsTemplate = `{"$each":"options","$map":{"name":{"$string":"name"},"position":{"$first":[{"$number":"position"},{"$index":1}]},` +
	`"values":{"$each":"values","$map":{"$string":"@this"}},"$required":["name"]}}`

// listingsTemplate maps a products.json page to wire listings of the store at base. Each
// listing keeps its product as its record (recordTemplate), from which Assemble builds the
// product without its page.
func listingsTemplate(base string) string {
	return `{"$each":"products","$map":{"url":{"$concat":[{"$const":` + sdk.Quote(base+"/products/") + `},{"$string":"handle"}]},` +
		`"id":{"$string":"id"},"title":{"$string":"title"},"price":` + priceTemplate("variants.0.", "") +
		`,"images":[` + imageTemplate("images.0.", false) + `],"record":` + recordTemplate + `,"$required":["url"]}}`
}

// recordTemplate keeps of a products.json product what build reads, as products.json
// writes it: the crawl stores each record, and the rest (timestamps, weights, shipping
// flags, each variant's whole featured image) would be carried and stored for nothing.
// A member that is null or missing is left out, which build reads alike. The images are
// copied whole: the few members of theirs that build does not read are short, and reading
// every image's members to leave them out cost the crawl more CPU than storing them. The
// whole product ("@this") cost the crawl more memory and database time (RATIONALE.md).
const recordTemplate = `{"id":"id","handle":"handle","title":"title","vendor":"vendor","product_type":"product_type",` +
	`"updated_at":"updated_at","body_html":"body_html","tags":"tags","options":"options",` +
	`"images":"images",` +
	`"variants":{"$each":"variants","$map":{"id":"id","title":"title","sku":"sku","barcode":"barcode","option1":"option1","option2":"option2","option3":"option3",` +
	`"available":"available","price":"price","compare_at_price":"compare_at_price","featured_image":{"id":"featured_image.id"},"image_id":"image_id"}}}`
