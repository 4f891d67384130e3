package rank

import (
	"strings"
	"unicode"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// IsType reports whether a schema.org entity's @type is t or lists it, in any case, bare
// or as a URL ("http://schema.org/Product").
func IsType(e sdk.Value, t string) bool {
	for _, v := range e.Get("@type").List() {
		s := v.String()
		if i := strings.LastIndexAny(s, "/#:"); i >= 0 {
			s = s[i+1:]
		}
		if strings.EqualFold(s, t) {
			return true
		}
	}
	return false
}

func isType(e sdk.Value, t string) bool { return IsType(e, t) }

// IsProduct reports whether e is a product entity: Product and the schema.org types that
// specialise it or group its variants.
func IsProduct(e sdk.Value) bool {
	for _, t := range []string{"Product", "ProductGroup", "IndividualProduct", "ProductModel", "SomeProducts", "Vehicle", "Car"} {
		if IsType(e, t) {
			return true
		}
	}
	return false
}

func isProduct(e sdk.Value) bool { return IsProduct(e) }

// codesIn returns the code-like words of a URL's path and query: runs of letters and
// digits of 4 to 24 characters holding a digit ("B07FW264WL", "93133869").
func codesIn(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 4 && len(w) <= 24 && strings.ContainsAny(w, "0123456789") {
			out = append(out, w)
		}
	}
	return out
}
