package sdk

import (
	"strconv"
	"strings"
)

// ParsePrice reads the first amount written in s as a store displays it: "19.90",
// "19,90 €", "$1,299.00", "1.299,00", "1 299,00", "CHF 1'299.–", "EUR 20". A lone separator
// followed by exactly three digits groups thousands ("1.299" is 1299); otherwise the last
// separator is the decimal one. ok is false when s holds no digits.
func ParsePrice(s string) (float64, bool) {
	start := strings.IndexFunc(s, isDigit)
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
		if isDigit(r) {
			end = i + 1
			continue
		}
		if !isSeparator(r) || i+1 >= len(rs) || !isDigit(rs[i+1]) {
			break
		}
		if r != '.' && r != ',' && (i+3 >= len(rs) || !isDigit(rs[i+2]) || !isDigit(rs[i+3]) || (i+4 < len(rs) && isDigit(rs[i+4]))) {
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
		if isDigit(r) {
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

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func isSeparator(r rune) bool {
	switch r {
	case '.', ',', '\'', ' ', '\u00a0', '\u202f', '\u2009', '’':
		return true
	}
	return false
}
