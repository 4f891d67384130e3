package sdk

import (
	"strings"
	"testing"
)

// TestContainsWordFindsWhatContainsFinds compares the one-pass search with strings.Contains
// word by word, on descriptions holding each buy word at the start, in the middle, at the
// end, cut short by one byte, and on descriptions holding none.
func TestContainsWordFindsWhatContainsFinds(t *testing.T) {
	descriptions := []string{"", "a", "wishlist", "btn btn-primary  view details", "sold out notify me"}
	for _, w := range buyWords {
		descriptions = append(descriptions, w, "x "+w, "btn "+w+" large", w[:len(w)-1], "add to "+w[1:])
	}
	for _, d := range descriptions {
		want := false
		for _, w := range buyWords {
			want = want || strings.Contains(d, w)
		}
		if got := containsWord(d, &buyWordsByFirstByte); got != want {
			t.Errorf("containsWord(%q) = %v, strings.Contains word by word says %v", d, got, want)
		}
	}
}
