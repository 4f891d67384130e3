package jsonvalid

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var validCases = []string{
	`{}`, `[]`, ` {"a": [1, -2.5e+3, "x\"\\\/\b\f\n\r\t\u00e9", true, false, null, {}]} `,
	`"plain"`, `0`, `-0`, `1.5E-2`, `"é ✓"`, "\t\r\n[1]\n",
	``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `01`, `-`, `1.`, `1.e5`,
	`1e`, `1e+`, `.5`, `+1`, `tru`, `truex`, `nul`, `[true false]`, `"\x"`, `"\u12G4"`, `"\u123"`,
	"\"a\x01b\"", "\"tab\there\"", `"unterminated`, `"ends in backslash\`, `[1]]`, `{}{}`, `"a" "b"`,
	`{"a":1}x`, `["0123456789abcdef\"0123456789abcdef"]`, `["0123456789abcdefg\\"]`,
}

func TestValidAgreesWithGJSON(t *testing.T) {
	for _, c := range validCases {
		if got, want := Valid([]byte(c)), gjson.Valid(c); got != want {
			t.Errorf("Valid(%q) = %v, gjson says %v", c, got, want)
		}
	}
}

// A body of deeply nested brackets is checked, not a crash: gjson's recursion grew the
// stack past Go's limit at a few million levels.
func TestValidDeepNesting(t *testing.T) {
	const depth = 3_000_000
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	if !Valid([]byte(deep)) {
		t.Error("balanced nesting refused")
	}
	if Valid([]byte(deep[:len(deep)-1])) {
		t.Error("unbalanced nesting accepted")
	}
}

func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Add([]byte(storefrontPage(2)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), gjson.ValidBytes(b); got != want {
			t.Errorf("Valid(%q) = %v, gjson says %v", b, got, want)
		}
	})
}

// BenchmarkValid checks a storefront products.json page of 250 products (about a
// megabyte, mostly escaped HTML descriptions), with gjson's validator beside for the ratio.
func BenchmarkValid(b *testing.B) {
	page := []byte(storefrontPage(250))
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"stockroom", Valid}, {"gjson", gjson.ValidBytes}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if !v.valid(page) {
					b.Fatal("page refused")
				}
			}
		})
	}
}

// storefrontPage is a products.json page of n products shaped like a real storefront's.
func storefrontPage(n int) string {
	description := strings.Repeat(`\u003cp\u003eSoft organic cotton, \"relaxed\" fit — machine wash cold.\u003c\/p\u003e\n`, 40)
	var b strings.Builder
	b.WriteString(`{"products":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"title":"Relaxed Tee %d","handle":"relaxed-tee-%d","body_html":"%s",`+
			`"published_at":"2026-01-02T03:04:05-05:00","vendor":"Corner","product_type":"Tops","tags":["cotton","summer"],`+
			`"variants":[{"id":%d,"title":"S","price":"24.50","compare_at_price":null,"available":true,"grams":180},`+
			`{"id":%d,"title":"M","price":"24.50","compare_at_price":"30.00","available":false,"grams":190}],`+
			`"images":[{"id":%d,"src":"https:\/\/cdn.example\/files\/tee-%d.jpg","position":1,"width":1200,"height":1600,"variant_ids":[]}],`+
			`"options":[{"name":"Size","position":1,"values":["S","M"]}]}`, i+1, i, i, description, 10*i+1, 10*i+2, 10*i+3, i)
	}
	b.WriteString(`]}`)
	return b.String()
}
