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
	// ParseFloat accepts nothing else first; rejecting here spares the error it would
	// allocate for every title and URL the host is asked to read as a number.
	if s == "" || !strings.ContainsRune("0123456789+-.iInN", rune(s[0])) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
