package sdk

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stockroom/stockroom/adapters/sdk/internal/cldr"
)

// CurrencyFor names the ISO 4217 currency that symbolOrCode stands for on a page written
// for loc, or "" when it names none or none surely. A code names itself in any case
// ("eur" is EUR). A symbol is read as CLDR's locale data reads it: "$" is the currency of
// the locale's territory wherever that currency is written "$" (CAD in Canada, MXN in
// Mexico, AUD in Australia), else the currency the locale's language writes "$" (USD in
// English), else USD, the currency that English writes "$". A symbol that only some
// locales write ("kr" in Sweden, Norway, Denmark and Iceland) names no currency without
// the locale; neither does a one-letter symbol ("R", "L", "K").
func CurrencyFor(symbolOrCode string, loc Locale) string {
	s := strings.TrimSpace(symbolOrCode)
	if len(s) == 3 {
		if code := strings.ToUpper(s); isCurrencyCode(code) {
			return code
		}
	}
	return currencyOfSymbol(s, loc.Currency(), loc)
}

// CurrencyDigits returns the digits of a currency's minor unit as CLDR gives them: 2 for
// EUR, 0 for JPY, KRW and CLP, 3 for KWD. ok is false when code is no ISO 4217 currency
// CLDR knows, which makes it the check of a code read from markup.
func CurrencyDigits(code string) (digits int, ok bool) { return cldr.Digits(code) }

func isCurrencyCode(code string) bool {
	_, ok := cldr.Digits(code)
	return ok
}

// currencyOfSymbol names the currency symbol stands for, local being the currency the
// page is expected in ("" when unknown) and loc the page's locale (zero when unknown).
// Codes are not read here: the caller decides whether "all" may be a code.
func currencyOfSymbol(symbol, local string, loc Locale) string {
	key := cldr.SymbolKey(symbol)
	if key == "" {
		return ""
	}
	var found [32]string
	candidates := cldr.CodesOf(found[:0], key)
	for _, e := range storeSymbols {
		if e.Key == key && !slices.Contains(candidates, e.Code) {
			candidates = append(candidates, e.Code)
		}
	}
	if local != "" {
		if slices.Contains(candidates, local) {
			return local
		}
		// A form of the page's currency's symbol with letters dropped or added ("$" of
		// "MX$", "S$" of "$"), unless its letters name another currency ("US$").
		if (len(candidates) == 0 || !hasLetter(key)) && sameFamily(key, local) {
			return local
		}
	}
	if id := loc.String(); id != "" {
		for _, code := range candidates {
			if cldr.SymbolKey(cldr.SymbolIn(code, id)) == key {
				return code
			}
		}
	}
	if r, size := utf8.DecodeRuneInString(key); size == len(key) && r < utf8.RuneSelf && unicode.IsLetter(r) {
		// One Latin letter ("R", "L", "K") is a currency only where the page's currency is
		// written so.
		return ""
	}
	if len(candidates) == 1 {
		return candidates[0]
	}
	for _, code := range candidates {
		if symbols := cldr.SymbolsOf(code); len(symbols) > 0 && symbols[0].Key == key {
			// The currency English writes so: "$" is USD, "¥" JPY, "£" GBP.
			return code
		}
	}
	for _, p := range preferredCurrencies {
		if p.Key == key {
			return p.Code
		}
	}
	return ""
}

// storeSymbols are how stores write currencies where CLDR's symbols do not say so: the
// word or abbreviation shoppers read ("円", "руб.", "TL") rather than the sign. They only
// add candidates; a locale's own symbol is always CLDR's.
var storeSymbols = [...]cldr.Symbol{
	{Code: "JPY", Key: "円"},
	{Code: "CNY", Key: "元"},
	{Code: "TWD", Key: "元"},
	{Code: "KRW", Key: "원"},
	{Code: "RUB", Key: "руб"},
	{Code: "UAH", Key: "грн"},
	{Code: "KZT", Key: "тг"},
	{Code: "CHF", Key: "fr"},
	{Code: "TRY", Key: "tl"},
	{Code: "RON", Key: "lei"},
	{Code: "EGP", Key: "e£"},
	{Code: "EUR", Key: "euro"},
	{Code: "EUR", Key: "euros"},
}

// preferredCurrencies settle symbols that several currencies share, none of them in
// English, when the page says nothing of its locale: "Rs" is most often the Indian rupee.
var preferredCurrencies = [...]cldr.Symbol{
	{Code: "INR", Key: "rs"},
}

// sameFamily reports whether the symbol of key is a form of one of local's symbols
// without its letters: "$" of "MX$", "¥" of "CN¥", "S$" of "$". Stores abroad and at home
// drop or add the letters that tell dollars, pounds and yuans apart.
func sameFamily(key, local string) bool {
	sign := withoutLetters(key)
	if sign == "" {
		return false
	}
	for _, s := range cldr.SymbolsOf(local) {
		if withoutLetters(s.Key) == sign {
			return true
		}
	}
	return false
}

func withoutLetters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || r == '.' || unicode.IsSpace(r) || cldr.IsDirectionMark(r) {
			return -1
		}
		return r
	}, s)
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// CurrencyForSymbol names the ISO 4217 currency that a price's symbol stands for on a
// page written for locale, a language tag as pages give it ("fr-CA", "en_GB", "" when
// unknown): CurrencyFor with the tag ParseLocale reads. It is for the symbol a platform
// names apart from its prices (a theme's currency sign beside the page's language); a
// displayed price, symbol and amount together, is read by ParseAmount, and a page's
// locale, when the platform does not name one, by PageLocale.
func CurrencyForSymbol(symbol, locale string) string {
	return CurrencyFor(symbol, ParseLocale(locale))
}
