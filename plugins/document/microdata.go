package document

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
	"golang.org/x/net/html"

	"github.com/stockroom/stockroom/core/adapter"
)

// Microdata returns the top-level microdata items of document i (elements with itemscope
// that are no other item's property) as one JSON array, each item in JSON-LD's shape:
// {"@type": "http://schema.org/Product", "name": "…", "offers": {"@type": …, "price": …}},
// a property given once as a value, given several times as an array. So an adapter reads
// microdata and JSON-LD with the same code. A page without microdata yields an empty
// array, not 0.
//
// Property values follow the HTML standard (meta content, link and a href, img src, time
// datetime, data and meter value, else the text) with one addition stores rely on and
// search engines honour: a content attribute on any element wins over its text
// (<span itemprop="price" content="19.90">19,90 €</span>).
func (s *Session) Microdata(i int) (Value, error) {
	d := s.Doc(i)
	if d == nil {
		return 0, nil
	}
	return s.addValue(parsedOf(d).microdata(d))
}

// microdata is d's microdata items as one array, extracted on first use.
func (p *parsed) microdata(d *adapter.Document) gjson.Result {
	p.mdOnce.Do(func() { p.md = gjson.Parse(extractMicrodata(p.html(d))) })
	return p.md
}

// maxMicrodataItems bounds the items read from one page, so a hostile page cannot make the
// host build an arbitrarily large rendering.
const maxMicrodataItems = 2000

type mdItem struct {
	types []string
	names []string // property names in first-seen order
	props map[string][]any
}

func (it *mdItem) add(name string, v any) {
	if _, ok := it.props[name]; !ok {
		it.names = append(it.names, name)
	}
	it.props[name] = append(it.props[name], v)
}

func (it *mdItem) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	write := func(k string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(vb)
		return nil
	}
	switch len(it.types) {
	case 0:
	case 1:
		_ = write("@type", it.types[0])
	default:
		_ = write("@type", it.types)
	}
	for _, n := range it.names {
		var v any = it.props[n]
		if vs := it.props[n]; len(vs) == 1 {
			v = vs[0]
		}
		if err := write(n, v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func extractMicrodata(root *html.Node) string {
	var tops []*mdItem
	count := 0
	var walk func(n *html.Node, cur *mdItem)
	walk = func(n *html.Node, cur *mdItem) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			props := strings.Fields(attr(c, "itemprop"))
			if _, scope := attrOK(c, "itemscope"); scope && count < maxMicrodataItems {
				count++
				sub := &mdItem{types: strings.Fields(attr(c, "itemtype")), props: map[string][]any{}}
				if cur != nil && len(props) > 0 {
					for _, p := range props {
						cur.add(p, sub)
					}
				} else {
					tops = append(tops, sub)
				}
				walk(c, sub)
				continue
			}
			if cur != nil {
				for _, p := range props {
					cur.add(p, propValue(c))
				}
			}
			walk(c, cur)
		}
	}
	walk(root, nil)
	b, err := json.Marshal(tops)
	if err != nil || len(tops) == 0 {
		return "[]"
	}
	return string(b)
}

// propValue is the value of a property element that is not an item itself.
func propValue(n *html.Node) string {
	if v, ok := attrOK(n, "content"); ok {
		return strings.TrimSpace(v)
	}
	var key string
	switch n.Data {
	case "meta":
		key = "content"
	case "audio", "embed", "iframe", "img", "source", "track", "video":
		key = "src"
	case "a", "area", "link":
		key = "href"
	case "object":
		key = "data"
	case "data", "meter":
		key = "value"
	case "time":
		key = "datetime"
	}
	if key != "" {
		if v, ok := attrOK(n, key); ok {
			return strings.TrimSpace(v)
		}
	}
	return collapse(innerText(n))
}

func innerText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style"):
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}
