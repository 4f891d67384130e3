package sdk

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzParsePrice: any text yields a finite, non-negative amount or none, the same as
// referenceParsePrice's.
func FuzzParsePrice(f *testing.F) {
	for _, s := range []string{"19,90 €", "$1,299.00", "1 299,00", "CHF 1'299.–", "1.2.3,4,5", "9\u00a0999,9", "", "٣٤٥",
		"1’299.00", "1\u202f299,5", "1\u2009299", "1'299'000", "1 2345", "12 34", "7.", ",5", "1,,2", "0.000000000000001",
		"123456789012345.6", "1234567890123456", "12345678901234567890.12", strings.Repeat("9", 400), "1.2\xff3", "\xc2\xa0 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParsePrice(s)
		checkAmount(t, "ParsePrice", s, v, ok)
		if want, wantOK := referenceParsePrice(s); v != want || ok != wantOK {
			t.Fatalf("ParsePrice(%q) = %v, %v; the reference reads %v, %v", s, v, ok, want, wantOK)
		}
	})
}

// checkAmount fails t unless a parser, given s, answered a finite, non-negative amount,
// or none and 0.
func checkAmount(t *testing.T, parser, s string, v float64, ok bool) {
	t.Helper()
	if ok && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
		t.Fatalf("%s(%q) = %v", parser, s, v)
	}
	if !ok && v != 0 {
		t.Fatalf("%s(%q) = %v without ok", parser, s, v)
	}
}

// referenceParsePrice is ParsePrice as first written, over a rune slice and through
// strconv for every amount: plainly right, but slow in a guest. ParsePrice must read
// every text as it does.
func referenceParsePrice(s string) (float64, bool) {
	start := strings.IndexFunc(s, isDigitRune)
	if start < 0 {
		return 0, false
	}
	// The amount runs over digits and single separators between them; a space or an
	// apostrophe only groups thousands, so it must be followed by exactly three digits
	// ("19.90 24.99" is two amounts).
	rs := []rune(s[start:])
	end := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if isDigitRune(r) {
			end = i + 1
			continue
		}
		if !isSeparator(r) || i+1 >= len(rs) || !isDigitRune(rs[i+1]) {
			break
		}
		if r != '.' && r != ',' && (i+3 >= len(rs) || !isDigitRune(rs[i+2]) || !isDigitRune(rs[i+3]) || (i+4 < len(rs) && isDigitRune(rs[i+4]))) {
			break
		}
	}
	run := rs[:end]
	// Buffers of a price's usual size stay on the stack: a page's every tile is priced,
	// and a guest pays dearly for each allocation.
	digits := make([]byte, 0, 32)
	type sep struct {
		r   rune
		pos int // digits before it
	}
	seps := make([]sep, 0, 8)
	for _, r := range run {
		if isDigitRune(r) {
			digits = append(digits, byte(r))
			continue
		}
		seps = append(seps, sep{r, len(digits)})
	}
	decimalAt := -1
	if n := len(seps); n > 0 {
		last := seps[n-1]
		after := len(digits) - last.pos
		same := 0
		for _, sp := range seps {
			if sp.r == last.r {
				same++
			}
		}
		switch {
		case last.r != '.' && last.r != ',':
			// Spaces and apostrophes only group.
		case same > 1:
			// "1,299,000": the separator repeats, so it groups.
		case n > 1:
			// "1.299,00": a different separator came before: this one is the decimal.
			decimalAt = last.pos
		case after != 3:
			decimalAt = last.pos
		}
	}
	number := make([]byte, 0, 40)
	for i, d := range digits {
		if i == decimalAt {
			number = append(number, '.')
		}
		number = append(number, d)
	}
	f, err := strconv.ParseFloat(string(number), 64)
	if err != nil {
		// Only a run of digits too long for a float64 gets here: no price.
		return 0, false
	}
	return f, true
}

func isDigitRune(r rune) bool { return r >= '0' && r <= '9' }
