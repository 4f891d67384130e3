package document

import (
	"strconv"
	"strings"
)

// parseNumber reads a plain decimal number from s ("19.90", " 20 "), as JSON carries
// prices in strings. Locale formats ("1.299,00 €") are the adapters' business: they know
// the page's conventions, the host does not.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
