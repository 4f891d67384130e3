package document

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

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

func TestValidJSONAgreesWithGJSON(t *testing.T) {
	for _, c := range validCases {
		if got, want := validJSON([]byte(c)), gjson.Valid(c); got != want {
			t.Errorf("validJSON(%q) = %v, gjson says %v", c, got, want)
		}
	}
}

// A body of deeply nested brackets is checked, not a crash: gjson's recursion grew the
// stack past Go's limit at a few million levels.
func TestValidJSONDeepNesting(t *testing.T) {
	const depth = 3_000_000
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	if !validJSON([]byte(deep)) {
		t.Error("balanced nesting refused")
	}
	if validJSON([]byte(deep[:len(deep)-1])) {
		t.Error("unbalanced nesting accepted")
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Add([]byte(storefrontPage(2)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), gjson.ValidBytes(b); got != want {
			t.Errorf("validJSON(%q) = %v, gjson says %v", b, got, want)
		}
	})
}

// BenchmarkValidJSON checks a storefront products.json page of 250 products (about a
// megabyte, mostly escaped HTML descriptions), with gjson's validator beside for the ratio.
func BenchmarkValidJSON(b *testing.B) {
	page := []byte(storefrontPage(250))
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"stockroom", validJSON}, {"gjson", gjson.ValidBytes}} {
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

// A string written into a Shape result is valid JSON that reads back as the string, with
// each invalid UTF-8 byte read as U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain text", `quote " and \ slash`, "tab\there\n", "\x00\x1f", "é ✓ 😀", "bad \xff utf8", "\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q wrote %s: %v", s, out, err)
		}
		var want strings.Builder
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				want.WriteRune(utf8.RuneError)
			} else {
				want.WriteString(s[i : i+size])
			}
			i += size
		}
		if back != want.String() {
			t.Fatalf("%q wrote %s, which reads %q", s, out, back)
		}
	})
}
