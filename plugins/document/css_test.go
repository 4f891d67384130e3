package document

import (
	"slices"
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
		{root, "*", 0, ""},                                                    // nothing is above the document
		{link, "li, nav", grid, "li.product-card"},                            // below the grid: the tile
		{link, "nav", grid, ""},                                               // the menu is above the grid
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

func TestSelect(t *testing.T) {
	const page = `<html><body><ul>
<li class="tile"><a href="/p/1"><img src="1.jpg"><h3 class="tile__title">One</h3></a><span class="name">n1</span></li>
<li class="tile"><a href="/p/2"><div class="product-title">Two</div><img src="2.jpg"></a></li>
</ul></body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	root, _ := s.HTML(0)
	describe := func(ns []Node) string {
		var out []string
		for _, n := range ns {
			class, _ := s.Attr(n, "class")
			src, _ := s.Attr(n, "src")
			out = append(out, s.Name(n)+"."+class+src)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		from     string // XPath of the node the selector starts from
		selector string
		want     string
	}{
		{"//body", "h2, h3, h4, [class*=title], [class*=name]", "h3.tile__title span.name div.product-title"}, // document order, not selector order
		{"(//a)[2]", "h2, h3, h4, [class*=title], [class*=name]", "div.product-title"},
		{"//ul", "img", "img.1.jpg img.2.jpg"},
		{"(//li)[1]", "li, a[href]:has(img)", "a."}, // below n only: the li itself is not selected
		{"//ul", "table", ""},
	} {
		from, _ := s.Query(root, c.from)
		all, err := s.Select(from, c.selector, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(all); got != c.want {
			t.Errorf("Select(%s, %q) = %q, want %q", c.from, c.selector, got, c.want)
		}
		one, err := s.SelectOne(from, c.selector)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Fields(c.want); len(want) == 0 && one != 0 || len(want) > 0 && describe([]Node{one}) != want[0] {
			t.Errorf("SelectOne(%s, %q) = %q, want the first of %q", c.from, c.selector, describe([]Node{one}), c.want)
		}
	}
	if _, err := s.Select(root, "li[", nil); err == nil || !strings.Contains(err.Error(), `"li["`) {
		t.Errorf("bad selector: error %v, want one naming it", err)
	}
	if _, err := s.SelectOne(root, strings.Repeat("li,", maxSelector)); err == nil {
		t.Error("huge selector accepted")
	}
}

func TestTexts(t *testing.T) {
	const page = `<html><body><div class="price"><s class="was">$189.99</s> <span class="now">$126.<b>00</b></span><script>var p = 1</script></div>
<div class="price price--was"><span>$80</span></div></body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	root, _ := s.HTML(0)
	for _, c := range []struct {
		from   string // XPath of the node whose texts are read
		except string
		want   []string
	}{
		{"(//div)[1]", "s, del, [class*=was]", []string{"", "$126.", "00"}}, // the white space between is a text too
		{"(//div)[1]", "", []string{"$189.99", "", "$126.", "00"}},          // scripts are never read
		{"(//div)[2]", "s, del, [class*=was]", nil},                         // the element itself is a former price
		{"(//div)[2]", "", []string{"$80"}},
		{"//s/text()", "", nil}, // a text node has no text nodes below it
	} {
		from, _ := s.Query(root, c.from)
		got, err := s.Texts(from, c.except, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Texts(%s, %q) = %q, want %q", c.from, c.except, got, c.want)
		}
	}
	if _, err := s.Texts(root, "li[", nil); err == nil || !strings.Contains(err.Error(), `"li["`) {
		t.Errorf("bad selector: error %v, want one naming it", err)
	}
}

// SelectEach answers for every node what SelectOne, or Ancestor, answers for it alone,
// 0 where nothing matches or the node is 0.
func TestSelectEach(t *testing.T) {
	const page = `<html><body><ul>
<li class="tile"><a href="/p/1"><img src="1.jpg"><h3>One</h3></a></li>
<li class="tile"><a href="/p/2">Two</a></li>
</ul><a href="/about">About</a></body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	root, _ := s.HTML(0)
	links, err := s.Select(root, "a", nil)
	if err != nil || len(links) != 3 {
		t.Fatalf("links %v, %v", links, err)
	}
	nodes := append(slices.Clone(links), 0)
	for _, c := range []struct {
		css   string
		above bool
	}{{"img, h3", false}, {"li.tile", true}, {"body", true}, {"b", false}} {
		got, err := s.SelectEach(nodes, c.css, c.above, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(nodes) {
			t.Fatalf("SelectEach(%q) answered %d nodes for %d", c.css, len(got), len(nodes))
		}
		for i, n := range nodes {
			var want Node
			if c.above {
				want, _ = s.Ancestor(n, c.css, 0)
			} else {
				want, _ = s.SelectOne(n, c.css)
			}
			// Handles differ from call to call; the nodes they name must not.
			if (got[i] == 0) != (want == 0) || got[i] != 0 && s.node(got[i]) != s.node(want) {
				t.Errorf("SelectEach(%q, above %v)[%d] = %v, alone %v", c.css, c.above, i, s.node(got[i]), s.node(want))
			}
		}
	}
	imgs, _ := s.SelectEach(links, "img", false, nil)
	if s.Name(imgs[0]) != "img" || imgs[1] != 0 || imgs[2] != 0 {
		t.Errorf("images of the links: %v", imgs)
	}
	if _, err := s.SelectEach(links, "li[", true, nil); err == nil || !strings.Contains(err.Error(), `"li["`) {
		t.Errorf("bad selector: error %v, want one naming it", err)
	}
}
