package document

import (
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

func TestAncestor(t *testing.T) {
	const page = `<html><body><nav role="menu"><ul class="grid">
<li class="product-card"><div class="tile"><a class="product-link" href="/p/1"><img src="1.jpg"></a></div></li>
</ul></nav><del><span class="price">9</span></del></body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	root, _ := s.HTML(0)
	link, _ := s.Query(root, "//a")
	price, _ := s.Query(root, "//span")
	grid, _ := s.Query(root, "//ul")
	for _, c := range []struct {
		from     Node
		selector string
		within   Node
		want     string // tag and class of the match, "" for none
	}{
		{link, "li, article, [class*=product], [class*=tile]", 0, "div.tile"}, // the nearest, not the link itself
		{link, "li, [class*=card]", 0, "li.product-card"},                     // class substrings, as contains()
		{link, "header, nav, footer, [role=navigation]", 0, "nav."},           // a menu around the grid
		{link, "header, footer, [role=navigation]", 0, ""},                    // none above it
		{price, "s, del, strike", 0, "del."},                                  // a struck-through price
		{root, "*", 0, ""},
		{link, "li, nav", grid, "li.product-card"}, // below the grid: the tile
		{link, "nav", grid, ""},                    // the menu is above the grid                                                    // nothing is above the document
	} {
		got, err := s.Ancestor(c.from, c.selector, c.within)
		if err != nil {
			t.Fatal(err)
		}
		desc := ""
		if got != 0 {
			class, _ := s.Attr(got, "class")
			desc = s.Name(got) + "." + class
		}
		if desc != c.want {
			t.Errorf("Ancestor(%s, %q) = %q, want %q", s.Name(c.from), c.selector, desc, c.want)
		}
	}
	if _, err := s.Ancestor(link, "li[", 0); err == nil || !strings.Contains(err.Error(), `"li["`) {
		t.Errorf("bad selector: error %v, want one naming it", err)
	}
	if _, err := s.Ancestor(link, strings.Repeat("li,", maxSelector), 0); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("huge selector: error %v, want one saying it is too long", err)
	}
}
