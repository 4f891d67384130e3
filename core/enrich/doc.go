// Package enrich derives, deterministically and from the product's own evidence, what the
// extraction API calls enrichment: the attributes, the product type and the category
// (enable_enrichment), the reviews block (enable_reviews) and per-image tags
// (enable_image_tags).
//
// Everything here is pure: no network, no clock, no files beyond the embedded taxonomy.
// The same input always yields the same output, and no value is ever produced that the
// input does not support: a product with no evidence gets null and empty attributes.
//
//	r := enrich.Enrich(p, enrich.Evidence{Properties: enrich.PropertiesFromJSONLD(docs)})
//	// r.Attributes, r.ProductType, r.CategoryID, r.CategoryPath
//	reviews := enrich.ReviewsFromJSONLD(docs) // nil when the page has no rating data
//	tags := enrich.ImageTags(p)                // image URL -> tags
//
// docs are the page's JSON-LD documents as decoded by encoding/json. The rules, the
// vocabularies and the scoring of the category match are written down in RULES.md.
package enrich
