package sdk

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stockroom/stockroom/adapters/sdk/internal/cldr"
)

// ParseAmount reads a price as a store displays it, and its currency: "R$ 99,90" is
// 99.9 BRL, "₩30,000" 30000 KRW, "29.990 CLP" 29990 CLP, "12.500 KWD" 12.5 KWD,
// "1.234,56 €" 1234.56 EUR, "12,–" 12. It reads the first amount written next to a
// currency's symbol or code, else the first amount, as ParsePrice does; digits of other
// scripts (Arabic-Indic "٣٤٥", full-width "１２８０") count as digits.
//
// currencyHint is the ISO 4217 code the page's prices are expected in (its markup's
// priceCurrency, or PageLocale(...).Currency()), "" when unknown. A symbol that the
// hinted currency is written with anywhere names it ("$" with the hint CAD is CAD);
// another symbol or a code names its own currency, as CurrencyFor reads it without a
// locale. An amount without a symbol is in the hinted currency. The currency's digits
// decide what a lone separator before three digits is: the decimal point in a currency
// of three decimals, a thousands separator otherwise.
//
// currency is "" when neither the text nor the hint names one; ok is false when text
// holds no amount.
func ParseAmount(text, currencyHint string) (value float64, currency string, ok bool) {
	s := asciiDigits(text)
	hint := strings.ToUpper(strings.TrimSpace(currencyHint))
	if !isCurrencyCode(hint) {
		hint = ""
	}
	var first amountRun
	for i, runs := 0, 0; i < len(s) && runs < maxAmountsRead; runs++ {
		for i < len(s) && !isDigitByte(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		run := scanAmount(s, i)
		if runs == 0 {
			first = run
		}
		if code := currencyBeside(s, run, hint); code != "" {
			v, ok := run.value(s, currencyDigits(code))
			return v, code, ok
		}
		i = run.end
	}
	if first.digits == 0 {
		return 0, "", false
	}
	v, ok := first.value(s, currencyDigits(hint))
	if !ok {
		return 0, "", false
	}
	return v, hint, true
}

// WritesCurrency reports whether text writes a currency's sign or code beside one of its
// amounts, whichever currency that stands for: "199 kr", "$5" and "12 EUR" write one,
// "12,50" and "3592 Reviews" none. ParseAmount names the currency; this tells an amount
// that states its currency from one that takes the hinted currency by default.
func WritesCurrency(text string) bool {
	s := asciiDigits(text)
	for i, runs := 0, 0; i < len(s) && runs < maxAmountsRead; runs++ {
		for i < len(s) && !isDigitByte(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		run := scanAmount(s, i)
		before, _ := markerBefore(s, run.start)
		for _, m := range [...]string{before, markerAfter(s, run.end)} {
			if isCurrencyMarker(m) {
				return true
			}
		}
		i = run.end
	}
	return false
}

// isUnitOfMeasure reports whether symbol is a unit a product's size or weight is written
// in. CLDR gives some of these letters to a currency in one locale's data ("Kg." in
// Turkmen), but beside an amount on a product page they are a quantity, never a price.
func isUnitOfMeasure(symbol string) bool {
	switch strings.ToLower(strings.TrimSuffix(symbol, ".")) {
	case "kg", "mg", "g", "lb", "lbs", "oz", "km", "cm", "mm", "m", "ml", "cl", "l", "gb", "tb", "mb", "kw", "w", "v", "mah":
		return true
	}
	return false
}

// isCurrencyMarker reports whether m, read beside an amount, is a currency's code or a
// symbol some locale writes a currency with. A lone letter ("D" of "3D", "R", "K") is
// not one: as in CurrencyFor, it is more often a unit or part of a name.
func isCurrencyMarker(m string) bool {
	key := cldr.SymbolKey(m)
	if key == "" || isUnitOfMeasure(m) || utf8.RuneCountInString(key) == 1 && isLoneLetter([]rune(key)[0]) {
		return false
	}
	if len(m) == 3 && isCurrencyCode(m) {
		return true
	}
	if sign, _, cut := strings.Cut(m, "/"); cut && sign != "" {
		key = cldr.SymbolKey(sign)
	}
	var found [32]string
	if key == "" || len(cldr.CodesOf(found[:0], key)) > 0 {
		return key != ""
	}
	for _, e := range storeSymbols {
		if e.Key == key {
			return true
		}
	}
	return false
}

// isLoneLetter reports whether r, alone beside an amount, is a letter rather than a
// currency's word: "D" of "3D", "R", "K". A Chinese, Japanese or Korean character
// alone ("元", "円", "원") is a word of its own.
func isLoneLetter(r rune) bool { return unicode.IsLetter(r) && !isUnspacedLetter(r) }

// maxAmountsRead bounds the amounts ParseAmount looks at for one with a currency: a
// price's text holds a few.
const maxAmountsRead = 8

// currencyDigits returns the digits of code's minor unit, unknownDigits for "".
func currencyDigits(code string) int {
	if d, ok := CurrencyDigits(code); ok {
		return d
	}
	return unknownDigits
}

// currencyBeside names the currency written right before or after the amount run in s
// (with at most a space between), "" when none is.
func currencyBeside(s string, run amountRun, hint string) string {
	before, wordBefore := markerBefore(s, run.start)
	after := markerAfter(s, run.end)
	// A code first: "USD $12" is in dollars whatever "$" stands for on the page.
	for _, m := range [...]string{before, after} {
		if len(m) == 3 && isCurrencyCode(m) {
			return m
		}
	}
	if wordBefore != "" && before != "" && !hasLetter(before) {
		// "US $649.99": the country's letters, then the sign.
		if code := symbolCurrency(wordBefore+before, hint); code != "" {
			return code
		}
	}
	for _, m := range [...]string{before, after} {
		if code := symbolCurrency(m, hint); code != "" {
			return code
		}
	}
	return ""
}

// symbolCurrency names the currency a symbol read beside an amount stands for, given
// the hinted currency; a symbol followed by a unit ("€/kg") is read without it.
func symbolCurrency(symbol, hint string) string {
	if symbol == "" || isUnitOfMeasure(symbol) {
		return ""
	}
	if code := currencyOfSymbol(symbol, hint, Locale{}); code != "" {
		return code
	}
	if sign, _, cut := strings.Cut(symbol, "/"); cut && sign != "" {
		return currencyOfSymbol(sign, hint, Locale{})
	}
	if sign := withoutLetters(symbol); sign != "" && sign != symbol {
		// A word run into the sign: "Price$5".
		return currencyOfSymbol(sign, hint, Locale{})
	}
	return ""
}

// markerBefore returns the word of symbol characters that ends at s[end] or one space
// before it ("R$" of "R$ 99,90", "€" of "€12"), and the word of up to three capital
// letters one space before that ("US" of "US $649.99").
func markerBefore(s string, end int) (marker, word string) {
	end = skipSpaceBack(s, end)
	start := end
	for start > 0 && end-start < maxMarkerBytes {
		r, w := utf8.DecodeLastRuneInString(s[:start])
		if !isMarkerRune(r) || !joinsMarker(r, start == end) {
			break
		}
		start -= w
		if isUnspacedLetter(r) {
			break
		}
	}
	marker = strings.TrimLeft(s[start:end], "./")
	if marker == "" || start == end {
		return "", ""
	}
	wordEnd := skipSpaceBack(s, start)
	if wordEnd == start {
		return marker, ""
	}
	wordStart := wordEnd
	for wordStart > 0 && wordEnd-wordStart < 3 && 'A' <= s[wordStart-1] && s[wordStart-1] <= 'Z' {
		wordStart--
	}
	if wordStart == wordEnd || (wordStart > 0 && s[wordStart-1] != ' ') {
		return marker, ""
	}
	return marker, s[wordStart:wordEnd]
}

// markerAfter returns the word of symbol characters that starts at s[start] or one
// space after it, past a dash that writes no decimals ("€" of "12,– €", "kr" of "1 299:-
// kr").
func markerAfter(s string, start int) string {
	if start < len(s) && (s[start] == ',' || s[start] == '.' || s[start] == ':') {
		if next := start + 1; strings.HasPrefix(s[next:], "-") {
			start = next + len("-")
		} else if strings.HasPrefix(s[next:], "–") {
			start = next + len("–")
		}
		for strings.HasPrefix(s[start:], "-") {
			start++
		}
	}
	start = skipSpace(s, start)
	end := start
	for end < len(s) && end-start < maxMarkerBytes {
		r, w := utf8.DecodeRuneInString(s[end:])
		if !isMarkerRune(r) || !joinsMarker(r, start == end) {
			break
		}
		end += w
		if isUnspacedLetter(r) {
			break
		}
	}
	return strings.TrimLeft(s[start:end], "./")
}

// maxMarkerBytes bounds a currency's symbol or code as read beside an amount: the longest
// CLDR symbols, in Arabic script with direction marks, take about a dozen bytes.
const maxMarkerBytes = 16

// joinsMarker reports whether r, read next to the amount (first) or further out, belongs
// to the marker being read. Scripts written without spaces (Chinese, Japanese, Korean)
// run a currency's one-character word into the words around it ("最低價$99元起"): only
// the character next to the amount can be the currency's, and their letters never join a
// sign read before them.
func joinsMarker(r rune, first bool) bool { return first || !isUnspacedLetter(r) }

// isUnspacedLetter reports whether r is a letter of a script written without spaces
// between words.
func isUnspacedLetter(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isMarkerRune reports whether r may be part of a currency's symbol or code: letters,
// currency signs, the full stop of "kr." and "Rs.", the slash of Peru's "S/", and the
// marks that set a right-to-left symbol's direction.
func isMarkerRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Sc, r) || r == '.' || r == '/' || cldr.IsDirectionMark(r)
}

// skipSpace returns i past one space at s[i], if there is one.
func skipSpace(s string, i int) int {
	if i < len(s) {
		if r, w := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
			return i + w
		}
	}
	return i
}

// skipSpaceBack returns i before one space that ends at s[i], if there is one.
func skipSpaceBack(s string, i int) int {
	if i > 0 {
		if r, w := utf8.DecodeLastRuneInString(s[:i]); unicode.IsSpace(r) {
			return i - w
		}
	}
	return i
}

// asciiDigits returns s with the digits and separators of other scripts written in
// ASCII: Arabic-Indic and Extended Arabic-Indic, Devanagari, Bengali and full-width
// digits, the Arabic decimal and thousands separators, full-width full stop and comma.
// s itself when it holds none.
func asciiDigits(s string) string {
	if strings.IndexFunc(s, isOtherDigit) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case '٠' <= r && r <= '٩':
			return '0' + r - '٠'
		case '۰' <= r && r <= '۹':
			return '0' + r - '۰'
		case '०' <= r && r <= '९':
			return '0' + r - '०'
		case '০' <= r && r <= '৯':
			return '0' + r - '০'
		case '０' <= r && r <= '９':
			return '0' + r - '０'
		case r == '٫' || r == '．':
			return '.'
		case r == '٬' || r == '，':
			return ','
		}
		return r
	}, s)
}

func isOtherDigit(r rune) bool {
	return '٠' <= r && r <= '٩' || '۰' <= r && r <= '۹' || '०' <= r && r <= '९' || '০' <= r && r <= '৯' || '０' <= r && r <= '９'
}

// ParseMachinePrice reads an amount of machine data (a JSON-LD or microdata price, a
// price in a page's application state) as written, where ParsePrice would read it as a
// shopper does: the full stop is always the decimal point ("29.990" is 29.99, "1234.500"
// is 1234.5), a comma is the decimal one unless it groups ("12,50" is 12.5; "1,234",
// "1,234.50" and "1.234,50" group thousands), and an integer is the amount in the
// currency's major unit, never in cents. A currency's symbol or code around the number is
// allowed ("GBP 12.89", "US $649.99"); any other text, a range, a negative or non-finite
// number is not, and ok is false.
func ParseMachinePrice(value string) (float64, bool) {
	s := trimCurrencyMarks(value)
	if s == "" {
		return 0, false
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXnNpP_") {
		// A number as JSON writes it ("1234.5", "1.2e3"); not hex, "NaN", "Inf" or "1_000".
		if f < 0 || math.IsInf(f, 0) {
			return 0, false
		}
		return f, true
	}
	var (
		dots, commas int
		last         byte // the last separator
		lastAt       int  // its index
		group        = -1 // digits since the last separator; -1 before the first
	)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigitByte(c):
			if group >= 0 {
				group++
			}
		case c == '.' || c == ',':
			if i == 0 || !isDigitByte(s[i-1]) || (group >= 0 && group != 3) {
				// A separator must follow a digit, and one that groups, three of them.
				return 0, false
			}
			if c == '.' {
				dots++
			} else {
				commas++
			}
			last, lastAt, group = c, i, 0
		default:
			return 0, false
		}
	}
	if !isDigitByte(s[len(s)-1]) {
		return 0, false
	}
	decimal := byte(0)
	switch {
	case dots > 0 && commas > 0:
		// The other separator grouped; the last one, written once, is the decimal point.
		if (last == '.' && dots > 1) || (last == ',' && commas > 1) {
			return 0, false
		}
		decimal = last
	case dots == 1:
		decimal = '.'
	case commas == 1 && len(s)-lastAt-1 != 3:
		decimal = ','
	}
	number := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isDigitByte(c):
			number = append(number, c)
		case c == decimal:
			number = append(number, '.')
		}
	}
	f, err := strconv.ParseFloat(string(number), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// trimCurrencyMarks returns s without the spaces and the currency's symbol or code around
// its number: "12.89" of "GBP 12.89", "US $649.99" and "12,89 kr.". A leading full stop
// is the number's own (".5") unless it ends a symbol ("Rs.12").
func trimCurrencyMarks(s string) string {
	isMark := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.Is(unicode.Sc, r) || unicode.IsSpace(r) || cldr.IsDirectionMark(r)
	}
	trimmed := strings.TrimLeftFunc(s, isMark)
	if len(trimmed) < len(s) {
		trimmed = strings.TrimLeft(trimmed, "./")
		trimmed = strings.TrimLeftFunc(trimmed, unicode.IsSpace)
	}
	return strings.TrimRightFunc(trimmed, func(r rune) bool { return isMark(r) || r == '.' || r == '/' })
}
