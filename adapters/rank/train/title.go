package main

import (
	"strings"
	"unicode"

	"github.com/stockroom/stockroom/adapters/rank"
)

// labelSeparators split a labelled title (most are the page's <title>) into segments.
var labelSeparators = []string{" | ", " - ", " – ", " — ", " :: ", " : "}

// titleMatches judges a title against the title a person marked, as the retail corpus's
// README asks: by words, with the store's name removed. The marked title is split into
// segments and a leading or trailing short segment naming the store is dropped; the
// first segment left is the product's name. A title is right when at least three
// quarters of its words are among the marked title's and it holds at least a third of
// the name's (marked titles often say more than the name: "Bomber Jacket | Black |
// Women").
func titleMatches(title, labelled, pageURL string) bool {
	segments := []string{labelled}
	for _, sep := range labelSeparators {
		var next []string
		for _, s := range segments {
			next = append(next, strings.Split(s, sep)...)
		}
		segments = next
	}
	site := rank.SiteOf(pageURL)
	namesStore := func(s string) bool {
		c := compactWords(s)
		return len(wordsOf(s)) <= 4 && c != "" && (strings.Contains(c, site) || strings.HasPrefix(site, c))
	}
	if len(segments) > 1 && namesStore(segments[0]) {
		segments = segments[1:]
	}
	if len(segments) > 1 && namesStore(segments[len(segments)-1]) {
		segments = segments[:len(segments)-1]
	}
	all := wordsOf(strings.Join(segments, " "))
	name := wordsOf(segments[0])
	got := wordsOf(title)
	if len(got) == 0 || len(name) == 0 {
		return false
	}
	return share(got, all) >= 0.75 && share(name, got) >= 1.0/3
}

// share is the part of the words of a found among b.
func share(a, b []string) float64 {
	in := 0
	for _, w := range a {
		for _, x := range b {
			if w == x {
				in++
				break
			}
		}
	}
	return float64(in) / float64(len(a))
}

// wordsOf splits s into lower-case words of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func compactWords(s string) string { return strings.Join(wordsOf(s), "") }
