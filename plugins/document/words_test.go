package document

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

func TestFindWords(t *testing.T) {
	const page = `<html><body>
<div id="PriceBox" class="a"><span class="product-Price__now">€ 9</span></div>
<script>var price = "SKU: no";</script>
<ul><li>  SKU&lrm;:  A-1 </li><li>Skus are codes we keep for a long time, longer than any label would be in a page</li>
<li>ref. 77</li></ul>
</body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	root, _ := s.HTML(0)

	els, err := s.FindWords(root, ClassWords, []string{"price"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range els {
		a, _ := s.Attr(n, "class")
		got = append(got, a)
	}
	if len(got) != 2 || got[0] != "a" || got[1] != "product-Price__now" {
		t.Errorf("class words: %q, want the box then the price, in document order", got)
	}

	labels, err := s.FindWords(root, LabelWords, []string{"sku", "ref."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, n := range labels {
		got = append(got, s.Text(n))
	}
	if len(got) != 2 || got[0] != "SKU\u200e: A-1" || got[1] != "ref. 77" {
		t.Errorf("labels: %q, want the short texts outside script that start with a label", got)
	}
}

func TestFindWordsAgainUnderTheSameOrAnotherNode(t *testing.T) {
	const page = `<html><body>
<div id="Stock" class="product"><span class="price">9</span><p>Stock: 3</p></div>
<p class="price-old">SKU 1</p>
</body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	root, _ := s.HTML(0)
	box, _ := s.Query(root, "//div")
	classes := func(n Node, words ...string) []string {
		t.Helper()
		found, err := s.FindWords(n, ClassWords, words, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range found {
			c, _ := s.Attr(f, "class")
			out = append(out, c)
		}
		return out
	}
	labels := func(n Node, words ...string) []string {
		t.Helper()
		found, err := s.FindWords(n, LabelWords, words, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range found {
			out = append(out, s.Text(f))
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		got, want []string
	}{
		{"prices under the root", classes(root, "price"), []string{"price", "price-old"}},
		{"stock under the root, after prices", classes(root, "stock"), []string{"product"}},
		{"prices under the box", classes(box, "price"), []string{"price"}},
		{"the box itself by its id", classes(box, "stock", "old"), []string{"product"}},
		{"labels under the root", labels(root, "stock", "sku"), []string{"Stock: 3", "SKU 1"}},
		{"labels under the box", labels(box, "sku", "stock"), []string{"Stock: 3"}},
		{"labels again under the root", labels(root, "sku"), []string{"SKU 1"}},
	} {
		if strings.Join(tc.got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	// A new call starts afresh: the handles of the last one are gone.
	s.Reset([]*adapter.Document{{Body: []byte(`<p class="price">1</p>`)}})
	root, _ = s.HTML(0)
	if got := classes(root, "price"); len(got) != 1 || got[0] != "price" {
		t.Errorf("after Reset: %q, want the new document's price", got)
	}
}

// TestWordIndexMatchesWordByWord compares the index's one-pass reading of a class and its
// comparison of a label's start with trying every word in turn.
func TestWordIndexMatchesWordByWord(t *testing.T) {
	wordLists := [][]string{
		{"price", "preis", "prix", "цена", "amount"},
		{"product-title", "title", "pdp__title"},
		{"0", "$", "us$", "€", "chf"},
		{"sku", ""},
	}
	texts := []string{"", "p", "pri", "product-price__now", "xprix", "цена-товара", "title", "pdp__titl", "us$ 4", "$4",
		"€ 9,99", "chf", "ch", "sku: 1", "amount-due", "PRICE"}
	for _, words := range wordLists {
		index := indexWords(words)
		for _, s := range texts {
			contains, starts := false, false
			for _, w := range words {
				contains = contains || strings.Contains(s, w)
				starts = starts || strings.HasPrefix(s, w)
			}
			if got := index.inside(s); got != contains {
				t.Errorf("words %q inside %q: %v, word by word %v", words, s, got, contains)
			}
			if got := index.startOf(s); got != starts {
				t.Errorf("words %q start %q: %v, word by word %v", words, s, got, starts)
			}
		}
	}
}
