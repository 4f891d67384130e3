// Package phrases finds which of a fixed list of phrases a text holds. Adapters compare
// short texts (a button's description, a stock line) with lists of dozens of phrases;
// filing the phrases by their first byte reads each text once for all of them rather
// than once for each.
package phrases

import "strings"

// Index is a list of phrases filed by their first byte.
type Index struct {
	byFirstByte [256][]string
}

// New files phrases, none of them empty, in an Index.
func New(phrases []string) *Index {
	ix := &Index{}
	for _, p := range phrases {
		if p == "" {
			panic("phrases: an empty phrase is in every text")
		}
		ix.byFirstByte[p[0]] = append(ix.byFirstByte[p[0]], p)
	}
	return ix
}

// In reports whether s holds one of the phrases, as strings.Contains would find it.
func (ix *Index) In(s string) bool {
	for i := 0; i < len(s); i++ {
		for _, p := range ix.byFirstByte[s[i]] {
			if strings.HasPrefix(s[i:], p) {
				return true
			}
		}
	}
	return false
}
