package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// countWords start the texts in which listing pages state the size of their collection,
// in a few languages: "Showing 1–24 of 720 results", "Items 1-12 of 56", "Page 2 of 30".
var countWords = []string{
	"showing", "displaying", "viewing", "items", "results", "products", "page",
	"zeige", "anzeige", "artikel", "seite", "affichage", "articles", "produits",
	"mostrando", "página", "pagina", "visualizzazione", "weergave", "visar",
}

// ofWords join a range or a page number to the whole: "1–24 of 720", "Seite 2 von 30".
var ofWords = map[string]bool{"of": true, "von": true, "sur": true, "de": true, "di": true, "van": true, "av": true, "/": true}

// statedTotal reads how many products the collection holds from what its page says: a
// range out of a total, or a count of pages (times onPage, the number of listings on this
// page). It returns 0 when the page says neither, and on the last page, where nothing
// remains to list.
func statedTotal(root sdk.Node, onPage int) int {
	if onPage == 0 {
		return 0
	}
	for _, label := range root.FindLabels(countWords...) {
		if total := totalIn(label.Text(), onPage); total > 0 {
			return total
		}
		// The numbers are often elements of their own (<span>1</span>–<span>24</span>),
		// so read the text of the label's whole element too.
		if total := totalIn(label.FindOne("..").Text(), onPage); total > 0 {
			return total
		}
	}
	return 0
}

// totalIn reads a collection's size from a text that states it (see statedTotal); 0
// when it finds none.
func totalIn(text string, onPage int) int {
	if len(text) > 200 {
		// This is a container's text, not a statement of the collection's size.
		return 0
	}
	f := countFields(text)
	for i := 0; i+3 < len(f); i++ {
		// "page 2 of 30": each page holds as many listings as this one.
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

// countSpacing puts spaces around dashes and slashes, and replaces brackets and colons
// with spaces.
var countSpacing = strings.NewReplacer("–", " - ", "—", " - ", "-", " - ", "/", " / ", "(", " ", ")", " ", ":", " ")

// countFields splits a text, lower-cased, into words, numbers, dashes and slashes:
// "(1–24 of 1,512)" gives "1", "-", "24", "of", "1,512".
func countFields(text string) []string {
	return strings.Fields(countSpacing.Replace(strings.ToLower(text)))
}

// parseCount reads a count written with or without thousands separators ("1,512",
// "1.512"); 0 when s is not one. ("1 512" is two fields, and is not read as one count.)
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
