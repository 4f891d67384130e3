// Package rank decides a product page's price, title, currency, availability and SKU the
// way Mozilla Fathom does: it gathers every candidate value the page offers (JSON-LD,
// microdata and RDFa attributes, OpenGraph and product meta tags, the page's <title>, its
// headings, the visible elements that look like a price, stock lines, buy buttons,
// labelled codes, the URL), describes each by a vector of features (where it was read,
// whether other sources agree, how near it sits to the product's heading and buy button,
// whether it is in a struck-out, related-product, cart or header block, …), and ranks
// them with weights learned from labelled pages (weights.txt, written by the train
// command: `make train`).
//
// Hand-written rules stay where they are clearer, as hard constraints: a price is above
// zero and never struck out; a title is never the store's name, a menu, a price or a
// template key. A candidate a rule rules out is kept, with the rule's name, so that
// Explain shows it.
//
// Gather does the document work through the SDK's queries, so the same code runs in a
// WebAssembly guest and natively (where the train command runs it over saved pages).
package rank

import (
	"strconv"
)

// Field is a product field the ranker decides.
type Field int

const (
	Price Field = iota
	Title
	Currency
	Availability
	SKU
	numFields
)

// Fields lists the fields the ranker decides, in the order it decides them.
var Fields = []Field{Price, Title, Currency, Availability, SKU}

var fieldNames = [numFields]string{"price", "title", "currency", "availability", "sku"}

func (f Field) String() string { return fieldNames[f] }

// ParseField returns the field named s.
func ParseField(s string) (Field, bool) {
	for i, n := range fieldNames {
		if n == s {
			return Field(i), true
		}
	}
	return 0, false
}

// Source says where on the page a candidate was read.
type Source int

const (
	JSONLD    Source = iota // a schema.org entity in an application/ld+json block
	Microdata               // an itemprop attribute
	RDFa                    // a property attribute outside the head's meta tags
	Meta                    // an OpenGraph, product: or other meta tag
	TitleTag                // the page's <title>
	Heading                 // an h1 heading
	Element                 // a visible element, found by its class or id
	Text                    // a visible text found by its form (an amount with a currency)
	Label                   // a text after a label ("SKU: 1234", "Availability: in stock")
	Button                  // a buy button
	URL                     // the page's address
	Implied                 // what the page implies when it says nothing (a price on show is for sale)
	numSources
)

var sourceNames = [numSources]string{"jsonld", "microdata", "rdfa", "meta", "title_tag", "heading", "element", "text",
	"label", "button", "url", "implied"}

func (s Source) String() string { return sourceNames[s] }

// structured reports whether s is markup written for machines.
func (s Source) structured() bool { return s <= Meta }

// Availability values.
const (
	InStock    = "InStock"
	OutOfStock = "OutOfStock"
)

// Candidate is one value a page offers for a field.
type Candidate struct {
	Field  Field
	Source Source
	// Value is the candidate as the product takes it: an amount as a decimal ("19.9"), an
	// ISO 4217 code, InStock or OutOfStock, a title's or a code's text.
	Value string
	// Amount is a price candidate's amount.
	Amount float64
	// Where says where the page wrote it, for an adapter author: "offers.price",
	// "meta product:price:amount", "span.price-now".
	Where string
	// Features describe the candidate to the model.
	Features Vector
	// Excluded names the hard rule that rules the candidate out; "" when it competes.
	Excluded string
	// Score is the model's probability that the candidate is the field's value, once
	// ranked.
	Score float64

	// currency is the currency a price candidate is written in, when it says.
	currency string
	// struck marks a price shown as a former or reference price: never the current
	// price, perhaps the compare-at one.
	struck bool
	// namedFormer marks a shown price that only its class calls former ("price-old"):
	// neither drawn struck nor worded "was".
	namedFormer bool
	// el is the visible element the candidate was read from, nil for markup.
	el *element
}

// Competes reports whether no hard rule rules c out.
func (c *Candidate) Competes() bool { return c.Excluded == "" }

// amountValue is the canonical text of an amount: the shortest decimal that reads back
// as the same number.
func amountValue(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Page is what Gather found on one page: every field's candidates, and what the page's
// structure says about it as a whole.
type Page struct {
	Candidates [numFields][]Candidate
	// CompareAt are former and reference prices: struck out, "was", a list price.
	CompareAt []Candidate
	// Heading is the text of the page's main heading, "" when it has none.
	Heading string
	// BuyEnabled and BuyDisabled count the page's buy controls.
	BuyEnabled, BuyDisabled int
	// PricesNearHeading counts the prices shown in the smallest block around the heading
	// that shows any (its distinct amounts, and its price elements that show several),
	// and HeadingPriceLevel is how many levels above the
	// heading that block is (-1: none within reach): a product's block shows one or two,
	// a listing's grid many.
	PricesNearHeading int
	HeadingPriceLevel int
	// SchemaProduct says the page's JSON-LD or microdata describes a product.
	SchemaProduct bool
	// metas are the page's meta tags, key (property or name, lower case) to content,
	// the first of each key.
	metas map[string]string
	// marked says a meta tag or itemprop states a price.
	marked bool
	// Images are the product's image URLs, resolved, in the order of their sources'
	// trust: structured data, then meta tags.
	Images []string
}

// Meta returns the content of the page's first meta tag (by property or name) of the
// first of keys it has; "" when it has none.
func (p *Page) Meta(keys ...string) string {
	for _, k := range keys {
		if v := p.metas[k]; v != "" {
			return v
		}
	}
	return ""
}

// MarkedPrice reports whether a meta tag, an itemprop or an RDFa property states a price.
func (p *Page) MarkedPrice() bool { return p.marked }

// Stated reports whether the page states field f itself, in its markup or its text: a
// competing candidate not merely implied, read from the URL or from a buy button.
func (p *Page) Stated(f Field) bool {
	for _, c := range p.Candidates[f] {
		if c.Competes() && c.Source != Implied && c.Source != URL && c.Source != Button {
			return true
		}
	}
	return false
}
