package document

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/core/adapter"
)

// FuzzRepair: Repair returns nil or valid JSON, and valid JSON unchanged.
func FuzzRepair(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2,],}`,
		"<!-- {\"@type\":\"Product\",\n\"name\":\"a\tb\"} -->",
		`{"a":"it\'s"}{"b":1}`,
		"{\"name\":\"Caf\xe9\"}",
		`//<![CDATA[ {"x":1}; //]]>`,
		`[{"a":1},]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := Repair(in)
		if out == nil {
			return
		}
		if !valid(out) {
			t.Fatalf("Repair(%q) = %q, not valid JSON", in, out)
		}
		if valid(in) && !bytes.Equal(in, out) {
			t.Fatalf("Repair changed valid JSON %q into %q", in, out)
		}
	})
}

// FuzzMicrodataAndWords: on any page, Microdata is a JSON array and FindWords answers in
// document order without failing.
func FuzzMicrodataAndWords(f *testing.F) {
	f.Add([]byte(`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name offers" itemscope><i itemprop="price" content="1">x</i></span></div>`))
	f.Add([]byte(`<p class="Price">SKU: 1</p><div itemscope><div itemscope itemprop="a"><meta itemprop="b"></div></div>`))
	f.Add([]byte("<li>\u200eSKU\u200f:</li><li>A-1</li>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := NewSession([]*adapter.Document{{Body: body}}, 0)
		md, err := s.Microdata(0)
		if err != nil {
			t.Fatal(err)
		}
		if raw := s.Raw(md); !gjson.Valid(raw) || !gjson.Parse(raw).IsArray() {
			t.Fatalf("microdata %q is not a JSON array", raw)
		}
		root, _ := s.HTML(0)
		for _, kind := range []WordsKind{ClassWords, LabelWords} {
			if _, err := s.FindWords(root, kind, []string{"price", "sku"}, nil); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzScanMembers: on any valid JSON object, the member index finds what gjson finds for
// every key, duplicates and escaped keys included; on any array, $each's elements.
func FuzzScanMembers(f *testing.F) {
	f.Add(`{"a":1,"b":"x\"}","c":{"d":[1,{"e":"]"}]},"a":2}`)
	f.Add(`{ "k\u0065y" : "v\\" , "n" : null, "t":true ,"s":"\\\"" }`)
	f.Add(`{}`)
	f.Add(`[ 1, "]", [2, [3]] , {"a":"]"}, null ]`)
	f.Add(`[{"big":"` + strings.Repeat("x", 1100) + `","k\"":{"n":[1]}}, {"small":1}, "` + strings.Repeat("y", 1100) + `"]`)
	f.Fuzz(func(t *testing.T, obj string) {
		if !gjson.Valid(obj) {
			return
		}
		if list := gjson.Parse(obj); list.IsArray() {
			// $each's elements, and the members of those it indexed on the way.
			s := NewSession(nil, 0)
			got, want := s.elements(list), list.Array()
			if len(got) != len(want) {
				t.Fatalf("%s: %d elements, gjson has %d", obj, len(got), len(want))
			}
			for i := range want {
				if got[i].Raw != want[i].Raw {
					t.Fatalf("%s: element %d is %q, gjson has %q", obj, i, got[i].Raw, want[i].Raw)
				}
				if m, ok := s.indexes[keyOf(got[i])]; ok && !slices.Equal(m, scanMembers(got[i].Raw)) {
					t.Fatalf("%s: element %d indexed as %+v", obj, i, m)
				}
			}
			return
		}
		if !gjson.Parse(obj).IsObject() {
			return
		}
		members := scanMembers(obj)
		n := 0
		gjson.Parse(obj).ForEach(func(key, value gjson.Result) bool {
			if n >= len(members) || members[n].key != key.Str || members[n].raw != value.Raw {
				t.Fatalf("member %d of %s: index has %+v, gjson has %q: %q", n, obj, members[min(n, len(members)-1):], key.Str, value.Raw)
			}
			n++
			if plainKey(key.Str) && !strings.Contains(key.Str, ".") { // a path's key, as get looks up
				if got, _ := lookupMember(members, key.Str); got != gjson.Get(obj, key.Str).Raw {
					t.Fatalf("key %q of %s: index finds %q, gjson %q", key.Str, obj, got, gjson.Get(obj, key.Str).Raw)
				}
			}
			return true
		})
		if n != len(members) {
			t.Fatalf("%s: index has %d members, gjson %d", obj, len(members), n)
		}
	})
}

// FuzzGet: on any valid JSON document, the session finds at any path what gjson finds,
// whether it walks the path itself (plain keys and indexes, through indexes of large
// objects) or hands it to gjson.
func FuzzGet(f *testing.F) {
	big := strings.Repeat("x", 1100)
	f.Add(`{"variants":[{"id":1,"price":"9.50"},{"price":"1"}],"images":[]}`, "variants.0.price")
	f.Add(`{"variants":[{"id":1},{"price":"1"}]}`, "variants.0.price")
	f.Add(`{"a":{"0":"key","b":[[1,2],[3]]}}`, "a.0")
	f.Add(`[[1,2],{"k\u0065y":[true]}]`, "1.key.0")
	f.Add(`{"p":{"d":"`+big+`","i":[{"src":"s","alt":null}]},"p":2}`, "p.i.0.alt")
	f.Add(`{"a":[1,2,3]}`, "a.#")
	f.Add(`{"a":[1,2,3]}`, "a.01")
	f.Add(`{"a":{"b":1}}`, "a.")
	f.Add(` {"a" : [ {"b" : "c"} ] } `, "a.0.b")
	f.Add(`{"products":[{"t":"`+big+`","v":[{"p":1}]},{"t":"x"}],"n":1}`, "products.#")
	f.Add(`{"products":[{"t":"`+big+`","v":[{"p":1}]},{"t":"x"}],"n":1}`, "products.0.v.0.p")
	f.Add(`{"products":[{"t":"`+big+`"},{"t":"x"}]}`, "products.1.t")
	f.Add(`{"a":{"b":[]}}`, "a.b.#")
	f.Add(`[1,[2,3]]`, "#")
	f.Add(`{"a":{"#":1}}`, "a.#")
	f.Fuzz(func(t *testing.T, doc, path string) {
		if !gjson.Valid(doc) {
			return
		}
		s := NewSession(nil, 0)
		root := gjson.Parse(doc)
		if !root.IsObject() && !root.IsArray() {
			// gjson reads paths into scalars' text ("0" of "[0" is 0"); nothing is below one.
			if parsePath(path).walk && s.get(root, path).Exists() {
				t.Fatalf("%q in scalar %s found %q", path, doc, s.get(root, path).Raw)
			}
			return
		}
		for range 2 { // the second time through the indexes the first built
			got, want := s.get(root, path), root.Get(path)
			if got.Raw != want.Raw || got.Type != want.Type || got.String() != want.String() {
				t.Fatalf("%q in %s: session finds %s %q, gjson %s %q", path, doc, got.Type, got.Raw, want.Type, want.Raw)
			}
		}
	})
}

// scanMembers lists the members of obj, the text of a valid JSON object, as the session's
// indexes do for the objects they pass.
func scanMembers(obj string) []member {
	members, _ := scanObject(obj, 0, make([]member, 0, 16), skipValue)
	return members
}
