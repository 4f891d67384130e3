package document

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/core/adapter"
)

const shapeSource = `{"product":{"id":632910392,"handle":"ipod","title":"IPod \"Nano\"","body_html":"<p>It's <b>small</b></p>",
"options":[{"name":"Color","values":["Pink","Red"]},{"name":"Size","values":["S"]}],
"variants":[
 {"id":808950810,"title":"Pink","price":"199.00","compare_at_price":null,"option1":"Pink","option2":"S","image_id":null,"featured_image":{"id":562641783}},
 {"id":49148385,"title":"Red","price":"199,00","compare_at_price":"249.00","option1":"Red","option2":null,"image_id":850703190}],
"images":[{"id":850703190,"src":"https://cdn/a.jpg","alt":null,"width":123,"variant_ids":[]},
 {"id":562641783,"position":7,"src":"https://cdn/b.jpg","alt":"b","variant_ids":[808950810]}]}}`

const shapeAvailability = `{"pad":" a b\n","blank":"  ","variants":[{"id":49148385,"available":true},{"id":808950810,"available":false}]}`

func shapeSession(t *testing.T) (*Session, Value, Value) {
	t.Helper()
	s := NewSession([]*adapter.Document{
		{URL: "https://x/p.json", Status: 200, Body: []byte(shapeSource)},
		{URL: "https://x/p.js", Status: 200, Body: []byte(shapeAvailability)},
	}, 0)
	doc, err := s.JSON(0)
	if err != nil {
		t.Fatal(err)
	}
	js, err := s.JSON(1)
	if err != nil {
		t.Fatal(err)
	}
	product, _ := s.Get(doc, "product")
	return s, product, js
}

func TestShape(t *testing.T) {
	for _, tc := range []struct{ name, template, want string }{
		{"path and absent members", `{"id":"id","nothing":"no.such","alt":"images.0.alt"}`, `{"id":632910392}`},
		{"string of a number", `{"$string":"id"}`, `"632910392"`},
		{"strings are trimmed, blank ones absent", `[{"$string":"$1.pad"},{"$string":"$1.blank"}]`, `["a b"]`},
		{"number of a decimal string", `{"$number":"variants.0.price"}`, `199`},
		{"comma decimals are not numbers", `{"p":{"$number":"variants.1.price"}}`, ``},
		{"bool of absent is false", `{"$bool":"variants.0.available"}`, `false`},
		{"const", `{"$const":{"a":[1]}}`, `{"a":[1]}`},
		{"first present", `{"$first":[{"$string":"variants.1.featured_image.id"},{"$string":"variants.1.image_id"}]}`, `"850703190"`},
		{"concat", `{"$concat":[{"$const":"https://x/products/"},"handle",{"$const":"?v="},{"$string":"id"}]}`, `"https://x/products/ipod?v=632910392"`},
		{"concat with an absent part is absent", `{"u":{"$concat":["handle","nope"]}}`, ``},
		{"text of HTML", `{"$text":"body_html"}`, `"It's small"`},
		{"escaping", `{"$concat":["title"]}`, `"IPod \"Nano\""`},
		{"required member", `{"$each":"variants","$map":{"cmp":{"$number":"compare_at_price"},"$required":["cmp"]}}`, `[{"cmp":249}]`},
		{"each with index", `{"$each":"images","$map":{"id":{"$string":"id"},"position":{"$first":["position",{"$index":1}]},"variant_ids":{"$each":"variant_ids","$map":{"$string":"@this"}}}}`,
			`[{"id":"850703190","position":1},{"id":"562641783","position":7,"variant_ids":["808950810"]}]`},
		{"lookup in a var", `{"$each":"variants","$map":{"$lookup":"$1.variants","$on":"id","$key":"id","$value":"available"}}`, `[false,true]`},
		{"literal array keeps present elements", `["handle","nope",{"$const":null}]`, `["ipod",null]`},
		{"var alone", `"$1.variants.#"`, `2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, product, js := shapeSession(t)
			h, err := s.Shape(product, tc.template, []Value{js})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Raw(h); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestShapeRefusesBadTemplates(t *testing.T) {
	for _, tc := range []struct{ template, want string }{
		{`{"a":`, "not valid JSON"},
		{`{"$each":"variants"}`, "$each needs $map"},
		{`{"$frobnicate":1}`, `unknown operator "$frobnicate"`},
		{`{"$string":"a","extra":1}`, `$string does not take "extra"`},
		{`{"a":"b","$required":["c"]}`, `$required names "c"`},
		{`"$0.a"`, "names a var"},
		{`"$1x"`, "followed by a dot"},
		{`{"$first":"a"}`, "takes an array"},
		{`{"$lookup":"a","$key":"b","$value":"c"}`, "needs $on"},
		{strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40), "nested deeper"},
	} {
		s, product, _ := shapeSession(t)
		_, err := s.Shape(product, tc.template, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Shape(%s) error = %v, want one saying %q", tc.template, err, tc.want)
		}
	}
}

func TestShapeBoundsItsOutput(t *testing.T) {
	// Each level of $each over the same list multiplies the output: 64^5 elements.
	list := "[" + strings.Repeat("1,", 63) + "1]"
	s := NewSession([]*adapter.Document{{Status: 200, Body: []byte(`{"l":` + list + `}`)}}, 0)
	root, _ := s.JSON(0)
	tmpl := `{"$const":1}`
	for i := 0; i < 5; i++ {
		tmpl = `{"$each":"$1.l","$map":` + tmpl + `}`
	}
	if _, err := s.Shape(root, tmpl, []Value{root}); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("error = %v, want the output cap", err)
	}
}

// FuzzShape: any template over any source either fails with an error or yields valid
// JSON.
func FuzzShape(f *testing.F) {
	f.Add(`{"id":{"$string":"id"},"v":{"$each":"variants","$map":{"$lookup":"$1.variants","$on":"id","$key":"id","$value":"available"}}}`, shapeSource)
	f.Add(`{"$concat":["title",{"$index":0}]}`, `{"title":"a\u0000\xff"}`)
	f.Add(`[{"$text":"b"},{"$number":"n"}]`, `{"b":"<p>x</p>","n":"1e400"}`)
	f.Fuzz(func(t *testing.T, template, source string) {
		s := NewSession([]*adapter.Document{{Status: 200, Body: []byte(source)}}, 0)
		root, err := s.JSON(0)
		if err != nil || root == 0 {
			return
		}
		h, err := s.Shape(root, template, []Value{root})
		if err != nil {
			return
		}
		if h != 0 && !gjson.Valid(s.Raw(h)) {
			t.Fatalf("Shape(%q) over %q = %q, not valid JSON", template, source, s.Raw(h))
		}
	})
}

func TestStringsReadsManyFieldsAtOnce(t *testing.T) {
	s, product, _ := shapeSession(t)
	got := s.Strings(product, []string{"handle", "id", "variants.1.option2", "variants.#", "nope", "options.1.values"}, nil)
	want := []string{"ipod", "632910392", "", "2", "", `["S"]`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Strings = %q, want %q", got, want)
	}
}

func TestShapeReadsLargeObjectsAsGjsonDoes(t *testing.T) {
	// Large elements are read through an index of their members: the answers must not
	// change, duplicate keys and nested paths included.
	pad := strings.Repeat("x", 2000)
	src := `[{"pad":"` + pad + `","a":1,"b":{"c":[true]},"a":2,"d\u002e":3},{"a":4,"pad":"` + pad + `"}]`
	s := NewSession([]*adapter.Document{{Status: 200, Body: []byte(src)}}, 0)
	root, _ := s.JSON(0)
	h, err := s.Shape(root, `{"$each":"@this","$map":{"a":"a","c":"b.c.0","none":"b.x","miss":"zz"}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Raw(h), `[{"a":1,"c":true},{"a":4}]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestShapeReadsNestedListsAsGjsonDoes(t *testing.T) {
	// A page's products and each product's large lists are split in one pass over the
	// page: walking them must give what gjson gives, small and large lists alike.
	var page strings.Builder
	page.WriteString(`{"products":[`)
	for p := range 4 {
		if p > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"id":%d,"pad":"%s","variants":[`, p, strings.Repeat("x", 600))
		for v := range 3 + 20*(p%2) { // small lists and large ones
			if v > 0 {
				page.WriteByte(',')
			}
			fmt.Fprintf(&page, `{"price":"%d.%d","sku":null,"big":"%s","price":"dup"}`, p, v, strings.Repeat("y", 50*(v%3)))
		}
		page.WriteString(`],"tags":["a","b"]}`)
	}
	page.WriteString(`]}`)
	s := NewSession([]*adapter.Document{{Status: 200, Body: []byte(page.String())}}, 0)
	root, _ := s.JSON(0)
	h, err := s.Shape(root, `{"$each":"products","$map":{"id":"id","n":"variants.#","first":"variants.0.price",`+
		`"variants":{"$each":"variants","$map":{"price":"price","sku":"sku"}},"tags":"tags"}}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteByte('[')
	for i, p := range gjson.Get(page.String(), "products").Array() {
		if i > 0 {
			want.WriteByte(',')
		}
		fmt.Fprintf(&want, `{"id":%s,"n":%s,"first":%s,"variants":[`, p.Get("id").Raw, p.Get("variants.#").Raw, p.Get("variants.0.price").Raw)
		for j, v := range p.Get("variants").Array() {
			if j > 0 {
				want.WriteByte(',')
			}
			fmt.Fprintf(&want, `{"price":%s}`, v.Get("price").Raw)
		}
		fmt.Fprintf(&want, `],"tags":%s}`, p.Get("tags").Raw)
	}
	want.WriteByte(']')
	if got := s.Raw(h); got != want.String() {
		t.Errorf("got  %s\nwant %s", got, want.String())
	}
}
