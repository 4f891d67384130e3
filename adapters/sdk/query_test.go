//go:build !wasip1

package sdk

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

// reader records what an adapter reads from one JSON document, through Fields and Array
// and through one Get per path; the WebAssembly side of the same check is the plugins/wasm
// conformance test TestValuesReadTogetherReadAsOneByOne.
type reader struct {
	together, oneByOne string
}

func (*reader) Info() Info { return Info{Name: "reader", Version: "0.0.1"} }

func (r *reader) Extract(c *Call) (*Product, error) {
	v := c.Page().JSON()
	paths := []string{"s", "n", "ns", "t", "f", "z", "o", "a", "a.1", "absent", "o.k", `dotted\.key`}
	var one []Value
	for _, p := range paths {
		one = append(one, v.Get(p))
	}
	for i := range 4 {
		one = append(one, v.Get(fmt.Sprintf("a.%d", i)))
	}
	one = append(one, v.Get("o.k"))
	together := append(v.Fields(paths...), v.Get("a").Array()...)
	together = append(together, v.Get("o").Array()...)
	r.together, r.oneByOne = describe(together), describe(one)
	return nil, NonProduct("read")
}

func describe(vs []Value) string {
	var b strings.Builder
	for _, v := range vs {
		f, ok := v.Float()
		fmt.Fprintf(&b, "%d %q %v %v %v %v %q|", v.Kind(), v.String(), f, ok, v.Bool(), v.Exists(), v.Raw())
	}
	return b.String()
}

func TestFieldsAndArrayReadAsGet(t *testing.T) {
	doc := &adapter.Document{URL: "https://x/p.json", Status: 200, Body: []byte(
		`{"s": "text", "n": 19.9, "ns": " 12.50 ", "t": true, "f": false, "z": null, "o": {"k": "v"},
		  "a": ["true", 2, [1], {"x": 1}], "dotted.key": "d"}`)}
	r := &reader{}
	if _, err := Native(r).Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: doc.URL, Docs: []*adapter.Document{doc}}); err != nil {
		t.Fatal(err)
	}
	if r.together != r.oneByOne {
		t.Fatalf("read together:\n%s\none by one:\n%s", r.together, r.oneByOne)
	}
	for _, want := range []string{`5 " 12.50 " 12.5 true false true`, `5 "true" NaN false true true`, `5 "d" `, `0 "" 0 false false false ""`} {
		if !strings.Contains(r.together, want) {
			t.Errorf("%s\nlacks %s", r.together, want)
		}
	}
}

func TestFieldsOfNothingAreNothing(t *testing.T) {
	vs := Value{}.Fields("a", "b")
	if len(vs) != 2 || vs[0].Exists() || vs[1].String() != "" {
		t.Fatalf("Fields of the zero Value = %+v", vs)
	}
}
