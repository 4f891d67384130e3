package enrich

import (
	"strings"
	"testing"
)

func TestWordsFoldAndSplit(t *testing.T) {
	for text, want := range map[string]string{
		"Women's T-Shirt":        "women t shirt",
		"already lower case":     "already lower case",
		"CAFÉ Crème, Grün/Écru":  "cafe creme grun ecru",
		"Straße 2XL":             "strasse 2xl",
		"kids’ boots":            "kids boots",
		"bad \xff byte ok":       "bad byte ok",
		"ÅNGSTRÖM":               "angstrom",
		"日本 cotton":              "日本 cotton",
		"  ":                     "",
		"d'Or isn't it's":        "d or isn t it",
		"multi\u00a0space\ttabs": "multi space tabs",
	} {
		if got := strings.Join(Words(text), " "); got != want {
			t.Errorf("Words(%q) = %q, want %q", text, got, want)
		}
	}
}
