package document

import (
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

const page = `<!doctype html><html><head>
<title> Red   shoe </title>
<meta property="og:price:currency" content="EUR">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Product","name":"Red shoe","offers":{"price":"19.90",}},{"@type":"BreadcrumbList"}]}</script>
<script type="application/ld+json">
{"@type":"Organization","name":"Acme
Shoes","description":"it\'s"}
</script>
</head><body><h1 class="t">Red <b>shoe</b></h1><a href="/a">A</a><a href="/b">B</a></body></html>`

func session(body string) *Session {
	return NewSession([]*adapter.Document{{URL: "https://x/p", Status: 200, Body: []byte(body)}}, 0)
}

func TestSessionQueriesHTML(t *testing.T) {
	s := session(page)
	root, _ := s.HTML(0)
	h1, err := s.Query(root, "//h1")
	if err != nil || s.Text(h1) != "Red shoe" {
		t.Fatalf("h1 text = %q, %v; want %q", s.Text(h1), err, "Red shoe")
	}
	if v, ok := s.Attr(h1, "class"); !ok || v != "t" {
		t.Errorf("class = %q %v", v, ok)
	}
	links, _ := s.QueryAll(root, "//a/@href", nil)
	if len(links) != 2 || s.Text(links[1]) != "/b" {
		t.Errorf("hrefs = %d, second %q", len(links), s.Text(links[1]))
	}
	if _, err := s.Query(root, "//a["); err == nil {
		t.Error("bad XPath gave no error")
	}
	cur, _ := s.Query(root, "//meta[@property='og:price:currency']/@content")
	if s.Text(cur) != "EUR" {
		t.Errorf("currency = %q", s.Text(cur))
	}
}

func TestJSONLDRepairsAndFlattens(t *testing.T) {
	s := session(page)
	ld, _ := s.JSONLD(0)
	items, _ := s.Elems(ld, nil, nil)
	if len(items) != 3 {
		t.Fatalf("entities = %d, want 3 (two from @graph, one repaired block): %s", len(items), s.Raw(ld))
	}
	price, _ := s.Get(items[0], "offers.price")
	if f, ok := s.Float(price); !ok || f != 19.90 {
		t.Errorf("price = %v %v", f, ok)
	}
	name, _ := s.Get(items[2], "name")
	if s.String(name) != "Acme\nShoes" {
		t.Errorf("name = %q", s.String(name))
	}
}

func TestRepair(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"a":[1,2,],}`, `{"a":[1,2]}`},
		{"<!-- {\"a\":\"x\ty\"} -->", `{"a":"x\ty"}`},
		{`{"a":1}{"b":2}`, `[{"a":1},{"b":2}]`},
		{"{\"a\":\"caf\xe9\"}", `{"a":"café"}`},
		{`{"a":"\'q\'"}`, `{"a":"'q'"}`},
		{"\n/*<![CDATA[*/\n{\"a\":1}\n/*]]>*/\n", `{"a":1}`},
	} {
		if got := string(Repair([]byte(tc.in))); got != tc.want {
			t.Errorf("Repair(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if Repair([]byte(`{"a":`)) != nil {
		t.Error("Repair of truncated JSON should fail")
	}
}

func TestHandleBudget(t *testing.T) {
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 3)
	root, _ := s.HTML(0)
	if _, err := s.QueryAll(root, "//*", nil); err != ErrTooManyHandles {
		t.Fatalf("err = %v, want ErrTooManyHandles", err)
	}
}

func FuzzSession(f *testing.F) {
	f.Add([]byte(page))
	f.Add([]byte(`<script type="application/ld+json">{"a":[1,2,],}</script>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := NewSession([]*adapter.Document{{Body: body}}, 0)
		root, _ := s.HTML(0)
		nodes, _ := s.QueryAll(root, "//*[@href]", nil)
		for _, n := range nodes {
			s.Attr(n, "href")
			s.Text(n)
		}
		ld, _ := s.JSONLD(0)
		s.Elems(ld, nil, nil)
		j, _ := s.JSON(0)
		s.Kind(j)
		Repair(body)
	})
}
