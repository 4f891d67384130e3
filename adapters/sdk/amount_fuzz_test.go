package sdk

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// FuzzParseAmount: any text yields a finite, non-negative amount and a known currency
// or none, and a text without letters, currency signs or other scripts' digits is read
// as ParsePrice reads it.
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"19,90 €", "$1,299.00", "1 299,00", "CHF 1'299.–", "12,-", "₩30,000", "NT$2,320", "29.990 CLP",
		"1,23,456.00", "٣٤٥ ر.س.", "US $649.99", "2 x 5,00 €", "12.500 KWD", "１,２８０円", "1.2.3,4,5", "", "\xc2\xa0 5", "R 5",
		"12 kr.", "€/kg 3", "S/ 59.90", "\u200e5\u200f", "Fr. 5", "5 euro"} {
		for _, hint := range []string{"", "CAD", "CHF", "JPY", "KWD"} {
			f.Add(s, hint)
		}
	}
	f.Fuzz(func(t *testing.T, s, hint string) {
		v, cur, ok := ParseAmount(s, hint)
		checkAmount(t, "ParseAmount", s, v, ok)
		if !ok && cur != "" {
			t.Fatalf("ParseAmount(%q, %q) = %q without ok", s, hint, cur)
		}
		if _, known := CurrencyDigits(cur); cur != "" && !known {
			t.Fatalf("ParseAmount(%q, %q) names currency %q", s, hint, cur)
		}
		if !plainAmount(s) {
			return
		}
		want, wantOK := ParsePrice(s)
		if v, cur, ok := ParseAmount(s, ""); v != want || ok != wantOK || cur != "" {
			t.Fatalf("ParseAmount(%q, \"\") = %v, %q, %v; ParsePrice reads %v, %v", s, v, cur, ok, want, wantOK)
		}
	})
}

// plainAmount reports whether s names no currency and writes its digits in ASCII.
func plainAmount(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.Is(unicode.Sc, r) || isOtherDigit(r) }) < 0
}

// FuzzParseMachinePrice: any value yields a finite, non-negative amount or none, and a
// number Go writes is read back as itself.
func FuzzParseMachinePrice(f *testing.F) {
	for _, s := range []string{"1234.50", "29.990", "1,234.50", "1.234,50", "12,50", "GBP 12.89", "US $649.99", "-5", "1e3", ".5",
		"1,23,456.00", "NaN", "", "1.2.3"} {
		f.Add(s, 12.5)
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		v, ok := ParseMachinePrice(s)
		checkAmount(t, "ParseMachinePrice", s, v, ok)
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return
		}
		for _, format := range []byte{'f', 'g', 'e'} {
			written := strconv.FormatFloat(x, format, -1, 64)
			if v, ok := ParseMachinePrice(written); !ok || v != x {
				t.Fatalf("ParseMachinePrice(%q) = %v, %v; want %v", written, v, ok, x)
			}
		}
	})
}
