// Package storefront holds what the built-in platform adapters (woocommerce, magento,
// headless, amazon, ebay) read alike from a store's pages: a URL's origin, page-number
// cursors, the currency a page's markup states, the counts its text shows, the first of a
// platform's selectors that holds a text, and the weighing of a platform's markup signs.
package storefront

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Origin returns scheme://host of rawURL, or "" when it has none.
func Origin(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// PageNumber reads a list cursor that is a page number; "" is the first page.
func PageNumber(cursor string) (int, error) {
	if cursor == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(cursor)
	if err != nil || n < 1 {
		return 0, sdk.Fail("bad cursor %q", cursor)
	}
	return n, nil
}

// MaxAhead bounds the pages one answer names ahead, whatever count a store states: the
// listing goes on from the last one's Next.
const MaxAhead = 500

// PagesAhead names pages page+1 to last as cursors (prefix followed by the number),
// at most MaxAhead of them.
func PagesAhead(prefix string, page, last int) []string {
	last = min(last, page+MaxAhead)
	var out []string
	for n := page + 1; n <= last; n++ {
		out = append(out, prefix+strconv.Itoa(n))
	}
	return out
}

// LastPage is the number of pages that hold total products, perPage a page.
func LastPage(total, perPage int) int {
	if total <= 0 || perPage <= 0 {
		return 0
	}
	return (total + perPage - 1) / perPage
}

// PageCurrency is the ISO 4217 code a page's markup states for its prices: product price
// meta tags, then the offers of its JSON-LD and microdata, then an
// itemprop="priceCurrency" element. "" when the markup states none.
func PageCurrency(page *sdk.Doc) string {
	root := page.HTML()
	if c := root.SelectOne(`meta[property="product:price:currency"], meta[property="og:price:currency"]`).Attr("content"); isCode(c) {
		return strings.ToUpper(strings.TrimSpace(c))
	}
	for _, entities := range []sdk.Value{page.JSONLD(), page.Microdata()} {
		for _, e := range entities.Array() {
			if c := offerCurrency(e.Get("offers")); c != "" {
				return c
			}
			for _, v := range e.Get("hasVariant").List() {
				if c := offerCurrency(v.Get("offers")); c != "" {
					return c
				}
			}
		}
	}
	if n := root.SelectOne(`[itemprop="priceCurrency"]`); n.Exists() {
		c, ok := n.AttrOK("content")
		if !ok {
			c = n.Text()
		}
		if isCode(c) {
			return strings.ToUpper(strings.TrimSpace(c))
		}
	}
	return ""
}

// offerCurrency is the priceCurrency of the first offer (or of a price specification of
// it) that states one.
func offerCurrency(offers sdk.Value) string {
	for _, o := range offers.List() {
		for _, path := range []string{"priceCurrency", "priceSpecification.priceCurrency", "priceSpecification.0.priceCurrency"} {
			if c := o.Get(path).String(); isCode(c) {
				return strings.ToUpper(strings.TrimSpace(c))
			}
		}
	}
	return ""
}

// isCode reports whether s is an ISO 4217 code.
func isCode(s string) bool {
	_, ok := sdk.CurrencyDigits(strings.ToUpper(strings.TrimSpace(s)))
	return ok
}

// LastNumber is the last whole number written in s ("Showing 1–24 of 300 results" is
// 300, "Items 1-12 of 1,204" is 1204), or 0 when s holds none. A comma or a dot followed
// by exactly three digits groups thousands.
func LastNumber(s string) int {
	last, n, inNumber := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			n, inNumber = n*10+int(c-'0'), true
		case inNumber && (c == ',' || c == '.') && threeDigitsAt(s, i+1):
			// A thousands separator: the number goes on.
		case inNumber:
			last, n, inNumber = n, 0, false
		}
	}
	if inNumber {
		last = n
	}
	return last
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// threeDigitsAt reports whether s holds exactly three digits from i on.
func threeDigitsAt(s string, i int) bool {
	return i+3 <= len(s) && isDigit(s[i]) && isDigit(s[i+1]) && isDigit(s[i+2]) && (i+3 == len(s) || !isDigit(s[i+3]))
}

// Cents rounds an amount to hundredths: stores compute prices with taxes and rates in
// more decimals than they charge ("71.910401").
func Cents(f float64) float64 { return math.Round(f*100) / 100 }

// NonEmpty is s trimmed, or nil when nothing is left.
func NonEmpty(s string) *string {
	if s = strings.TrimSpace(s); s == "" {
		return nil
	}
	return &s
}

// MarkupDetection weighs the signs of a platform found in a page's markup (evidence, one
// line per sign): three or more make a confident claim, two a claim, one alone too weak a
// one to act on; nil for none.
func MarkupDetection(platform string, evidence []string) *sdk.Detection {
	var confidence float64
	switch {
	case len(evidence) >= 3:
		confidence = 0.95
	case len(evidence) == 2:
		confidence = 0.9
	case len(evidence) == 1:
		confidence = 0.4
	default:
		return nil
	}
	return &sdk.Detection{Platform: platform, Confidence: confidence, Evidence: evidence}
}

// FirstText is the text of the first of selectors under root that holds some, its white
// space collapsed: a platform's title or price in whichever of its layouts the page has.
func FirstText(root sdk.Node, selectors ...string) string {
	for _, sel := range selectors {
		if t := strings.Join(strings.Fields(root.SelectOne(sel).Text()), " "); t != "" {
			return t
		}
	}
	return ""
}

// Resolver resolves the links of the page at pageURL; a link that does not parse
// resolves to "".
func Resolver(pageURL string) func(ref string) string {
	base, err := url.Parse(pageURL)
	return func(ref string) string {
		if err != nil {
			return ""
		}
		r, perr := url.Parse(strings.TrimSpace(ref))
		if perr != nil {
			return ""
		}
		return base.ResolveReference(r).String()
	}
}

// JSONKey escapes a JSON member name ("attribute_pa_color", an id) for a gjson path, as
// adapters reading a page's embedded JSON with gjson need.
func JSONKey(key string) string {
	if !strings.ContainsAny(key, `.*?|#@\!=<>%`) {
		return key
	}
	var b strings.Builder
	for _, r := range key {
		if strings.ContainsRune(`.*?|#@\!=<>%`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
