package sdk

import (
	"strconv"
	"unicode/utf8"
)

// ParsePrice reads the first amount written in s as a store displays it: "19.90",
// "19,90 €", "$1,299.00", "1.299,00", "1 299,00", "CHF 1'299.–", "EUR 20". A lone separator
// followed by exactly three digits groups thousands ("1.299" is 1299); otherwise the last
// separator is the decimal one. ok is false when s holds no digits. ParseAmount reads a
// price with its currency, and ParseMachinePrice an amount of structured data.
func ParsePrice(s string) (float64, bool) {
	start := 0
	for start < len(s) && !isDigitByte(s[start]) {
		start++
	}
	if start == len(s) {
		return 0, false
	}
	return scanAmount(s, start).value(s, unknownDigits)
}

// unknownDigits stands for the digits of an unknown currency's minor unit.
const unknownDigits = -1

// amountRun is an amount written in a text: where it runs, its digits and how
// separators split them.
type amountRun struct {
	start, end   int
	mantissa     uint64 // the first 19 digits as an integer
	digits       int    // digits in the amount
	seps         int    // separators between them
	last         rune   // the last separator,
	lastAt       int    // with the digits before it
	dots, commas int
}

// scanAmount reads the amount that starts with the digit at s[start].
func scanAmount(s string, start int) amountRun {
	// One pass over the bytes, decoding a rune only for a non-ASCII separator, and the
	// amount computed from its digits: a guest prices a page's every tile (RATIONALE.md).
	a := amountRun{start: start, end: start}
	// The amount runs over digits and single separators between them; a space or an
	// apostrophe only groups thousands, so it must be followed by exactly three digits
	// ("19.90 24.99" is two amounts).
	for a.end < len(s) {
		if c := s[a.end]; isDigitByte(c) {
			if a.digits < 19 {
				a.mantissa = 10*a.mantissa + uint64(c-'0')
			}
			a.digits++
			a.end++
			continue
		}
		r, w := rune(s[a.end]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[a.end:])
		}
		next := a.end + w
		if !isSeparator(r) || !digitAt(s, next) {
			break
		}
		if r != '.' && r != ',' && (!digitAt(s, next+1) || !digitAt(s, next+2) || digitAt(s, next+3)) {
			break
		}
		a.seps, a.last, a.lastAt = a.seps+1, r, a.digits
		switch r {
		case '.':
			a.dots++
		case ',':
			a.commas++
		}
		a.end = next
	}
	return a
}

// value returns the amount a is, read in s, fractionDigits being the digits of its
// currency's minor unit (unknownDigits when the currency is unknown). A lone separator
// followed by exactly three digits groups thousands ("1.299" is 1299), except in a
// currency of three decimals ("12.500" dinars are 12.5); otherwise the last separator
// is the decimal one.
func (a amountRun) value(s string, fractionDigits int) (float64, bool) {
	decimalAt := -1
	if a.seps > 0 {
		same := a.dots
		if a.last == ',' {
			same = a.commas
		}
		switch {
		case a.last != '.' && a.last != ',':
			// Spaces and apostrophes only group.
		case same > 1:
			// "1,299,000": the separator repeats, so it groups.
		case a.seps > 1:
			// "1.299,00": a different separator came before: this one is the decimal.
			decimalAt = a.lastAt
		case a.digits-a.lastAt != 3 || fractionDigits == 3:
			decimalAt = a.lastAt
		}
	}
	fraction := 0
	if decimalAt >= 0 {
		fraction = a.digits - decimalAt
	}
	if a.digits <= 15 {
		// Exact: the digits as an integer below 2^53 and a power of ten below 10^22 are
		// both float64s, and one division rounds correctly, as strconv's own fast path.
		return float64(a.mantissa) / float64pow10[fraction], true
	}
	number := make([]byte, 0, a.digits+1)
	for i := a.start; i < a.end; i++ {
		if isDigitByte(s[i]) {
			if len(number) == decimalAt {
				number = append(number, '.')
			}
			number = append(number, s[i])
		}
	}
	f, err := strconv.ParseFloat(string(number), 64)
	if err != nil {
		// Only a run of digits too long for a float64 gets here: no price.
		return 0, false
	}
	return f, true
}

// float64pow10 are the powers of ten an amount of at most 15 digits divides by.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// digitAt reports whether s has a digit at byte i.
func digitAt(s string, i int) bool { return i < len(s) && isDigitByte(s[i]) }

func isSeparator(r rune) bool {
	switch r {
	case '.', ',', '\'', ' ', '\u00a0', '\u202f', '\u2009', '’':
		return true
	}
	return false
}
