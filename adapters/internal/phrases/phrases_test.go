package phrases

import (
	"strings"
	"testing"
)

// TestInFindsWhatContainsFinds compares the one-pass search with strings.Contains phrase
// by phrase, on texts holding each phrase at the start, in the middle, at the end, cut
// short by one byte, and on texts holding none.
func TestInFindsWhatContainsFinds(t *testing.T) {
	list := []string{"add to cart", "buy", "in den warenkorb", "ajouter", "köp", "z"}
	texts := []string{"", "b", "btn btn-primary view details", "sold out notify me", "kö", "BUY"}
	for _, p := range list {
		texts = append(texts, p, "x "+p, "btn "+p+" large", p[:len(p)-1], "add to "+p[1:])
	}
	ix := New(list)
	for _, s := range texts {
		want := false
		for _, p := range list {
			want = want || strings.Contains(s, p)
		}
		if got := ix.In(s); got != want {
			t.Errorf("In(%q) = %v, strings.Contains phrase by phrase says %v", s, got, want)
		}
	}
}
