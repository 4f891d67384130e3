package document

import (
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
