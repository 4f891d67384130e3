package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// countWords start the texts in which listing pages state their size: "Showing 1–24 of
// 720 results", "Items 1-12 of 56", "Page 2 of 30", in a few languages.
var countWords = []string{
	"showing", "displaying", "viewing", "items", "results", "products", "page",
	"zeige", "anzeige", "artikel", "seite", "affichage", "articles", "produits",
	"mostrando", "página", "pagina", "visualizzazione", "weergave", "visar",
}

// ofWords join a range or a page number to the whole: "1–24 of 720", "Seite 2 von 30".
var ofWords = map[string]bool{"of": true, "von": true, "sur": true, "de": true, "di": true, "van": true, "av": true, "/": true}

// statedTotal reads the number of products the collection holds from what its page says:
// a range of a total, or a page count (times onPage, the listings of this page). It is 0
// when the page says neither, and on the last page, where nothing remains to list.
func statedTotal(root sdk.Node, onPage int) int {
	if onPage == 0 {
		return 0
	}
	for _, label := range root.FindLabels(countWords...) {
		if total := totalIn(label.Text(), onPage); total > 0 {
			return total
		}
		// The numbers are often elements of their own (<span>1</span>–<span>24</span>):
		// read the label's whole element.
		if total := totalIn(label.FindOne("..").Text(), onPage); total > 0 {
			return total
		}
	}
	return 0
}

// totalIn reads a collection's size from a text stating it (see statedTotal).
func totalIn(text string, onPage int) int {
	if len(text) > 200 {
		// A container's text, not a statement of the page's size.
		return 0
	}
	f := countFields(text)
	for i := 0; i+3 < len(f); i++ {
		// "page 2 of 30": the pages after this one hold as many listings as it.
		if f[i] == "page" || f[i] == "seite" || f[i] == "página" || f[i] == "pagina" {
			page, pages := parseCount(f[i+1]), parseCount(f[i+3])
			if ofWords[f[i+2]] && page > 0 && page < pages {
				return pages * onPage
			}
		}
		// "1 – 24 of 720", "1 to 24 of 720".
		if parseCount(f[i]) > 0 && (f[i+1] == "-" || f[i+1] == "to" || f[i+1] == "bis" || f[i+1] == "à" || f[i+1] == "a") &&
			parseCount(f[i+2]) > 0 && i+4 < len(f) && ofWords[f[i+3]] {
			if last, total := parseCount(f[i+2]), parseCount(f[i+4]); total > last {
				return total
			}
		}
	}
	return 0
}

// countSpacing sets dashes and slashes apart and drops brackets and colons.
var countSpacing = strings.NewReplacer("–", " - ", "—", " - ", "-", " - ", "/", " / ", "(", " ", ")", " ", ":", " ")

// countFields splits a lower-cased text into words, numbers and the dashes and slashes
// between them: "(1–24 of 1,512)" is 1 - 24 of 1,512.
func countFields(text string) []string {
	return strings.Fields(countSpacing.Replace(strings.ToLower(text)))
}

// parseCount reads a count written with or without thousands separators ("1,512", "1.512";
// "1 512" is two fields and not read); 0 when s is not one.
func parseCount(s string) int {
	n, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			if digits++; digits > 9 {
				return 0
			}
			n = 10*n + int(c-'0')
		case c != ',' && c != '.':
			return 0
		}
	}
	return n
}
