package rank

// Feature is one number describing a candidate. Every field uses the same list; a
// feature that means nothing for a field stays 0 there and gets no weight.
type Feature int

// Vector holds a candidate's features.
type Vector [numFeatures]float64

const (
	Bias Feature = iota
	// Where the candidate was read: one of these is 1.
	FromJSONLD
	FromMicrodata
	FromRDFa
	FromMeta
	FromTitleTag
	FromHeading
	FromElement
	FromText
	FromLabel
	FromButton
	FromURL
	FromImplied
	// Agreement: another structured source, a visible element, a visible element near
	// the heading gives the same value; how often the page shows it; the structured
	// data gives a value no other candidate of the page contradicts.
	AgreeStructured
	AgreeVisible
	AgreeNear
	Repeats
	Alone
	// Nearness in the document to the main heading and to the buy button: 1 inside it,
	// falling to 0 ten levels above it or further.
	HeadingNear
	BuyNear
	// FirstNear marks the first candidate, in document order, of the smallest block
	// around the heading that shows any: the page's own price or stock line comes before
	// other offers'.
	FirstNear
	// Blocks the candidate sits in, by their tags and class and id words.
	InOther
	InSlider
	InChrome
	InCart
	InHidden
	InProduct
	// How it is shown.
	Emphasis
	BigFont
	OtherKind
	HasCurrency
	ExtraText
	FromPrice
	// Structured data: the first product entity, the lowest of several offers, a
	// variant's offer, an aggregate's low price, an itemprop in a product's scope.
	FirstEntity
	LowestOffer
	VariantOffer
	AggregateLow
	ProductScope
	// Titles: the share of the candidate's words found in the <title>, in og:title and
	// in the URL; the share of the <title>'s leading segment and of the URL's last
	// segment (its slug) it covers; its length.
	OverlapTitle
	OverlapOG
	OverlapSlug
	CoversTitle
	CoversSlug
	TitleWords
	ShortTitle
	LongTitle
	HasSiteName
	Banner
	TitleClass
	// Codes: found in the URL, shaped like a GTIN, digits only, letters and digits, its
	// length, after a strong label ("SKU", "item number"), and which structured key.
	InURL
	GTINLike
	DigitsOnly
	LettersDigits
	CodeLength
	StrongLabel
	KindMPN
	KindGTIN
	KindProductID
	// Availability: the statement says in stock.
	SaysInStock
	numFeatures
)

var featureNames = [numFeatures]string{
	"bias",
	"from_jsonld", "from_microdata", "from_rdfa", "from_meta", "from_title_tag", "from_heading", "from_element",
	"from_text", "from_label", "from_button", "from_url", "from_implied",
	"agree_structured", "agree_visible", "agree_near", "repeats", "alone",
	"heading_near", "buy_near", "first_near",
	"in_other", "in_slider", "in_chrome", "in_cart", "in_hidden", "in_product",
	"emphasis", "big_font", "other_kind", "has_currency", "extra_text", "from_price",
	"first_entity", "lowest_offer", "variant_offer", "aggregate_low", "product_scope",
	"overlap_title", "overlap_og", "overlap_slug", "covers_title", "covers_slug", "title_words", "short_title", "long_title",
	"has_site_name", "banner", "title_class",
	"in_url", "gtin_like", "digits_only", "letters_digits", "code_length", "strong_label", "kind_mpn", "kind_gtin",
	"kind_productid",
	"says_in_stock",
}

func (f Feature) String() string { return featureNames[f] }

// ParseFeature returns the feature named s.
func ParseFeature(s string) (Feature, bool) {
	for i, n := range featureNames {
		if n == s {
			return Feature(i), true
		}
	}
	return 0, false
}

// sourceFeature is the feature that says a candidate came from s.
func sourceFeature(s Source) Feature { return FromJSONLD + Feature(s) }

// nearness turns a number of levels above an anchor into a feature: 1 at the anchor,
// 0 at maxLevels or beyond, or when there is no anchor (levels < 0).
func nearness(levels int) float64 {
	if levels < 0 || levels >= maxLevels {
		return 0
	}
	return 1 - float64(levels)/maxLevels
}

// maxLevels is how far above the heading or the buy button nearness looks.
const maxLevels = 10
