// Package cldr holds the Unicode CLDR's currency data the SDK reads prices with: each
// currency's minor-unit digits, each territory's currency, the symbols each currency is
// written with per locale, and the locales' fallbacks. The tables (data.go) are generated
// from github.com/bojanz/currency by ./gen, and the lookups answer as the library's do.
//
// The SDK does not import the library itself: it builds its tables as maps, and a
// decimal package, when a program starts, which every WebAssembly guest instance would
// pay for (see adapters/sdk/RATIONALE.md). Static tables cost a guest nothing at start.
package cldr

import (
	"slices"
	"strings"
	"unicode"
)

//go:generate go run ./gen data.go

// Currency is an ISO 4217 currency and the digits of its minor unit.
type Currency struct {
	Code   string
	Digits uint8
}

// TerritoryCurrency is the currency a territory (ISO 3166-1 code) pays in.
type TerritoryCurrency struct{ Territory, Code string }

// Symbol is a symbol a currency is written with and the locales that write it so.
type Symbol struct {
	Code, Symbol string
	// Key is Symbol as SymbolKey compares it.
	Key string
	// Locales are locale identifiers, space-separated ("en-CA fr-CA").
	Locales string
}

// ParentLocale is a locale whose fallback is not the one its identifier implies.
type ParentLocale struct{ Locale, Parent string }

// Digits returns the digits of code's minor unit; ok is false for a code CLDR does not
// know.
func Digits(code string) (digits int, ok bool) {
	i, found := slices.BinarySearchFunc(Currencies[:], code, func(c Currency, code string) int {
		return strings.Compare(c.Code, code)
	})
	if !found {
		return 0, false
	}
	return int(Currencies[i].Digits), true
}

// ForTerritory returns the currency territory pays in, "" when CLDR names none.
func ForTerritory(territory string) string {
	i, found := slices.BinarySearchFunc(TerritoryCurrencies[:], territory, func(t TerritoryCurrency, territory string) int {
		return strings.Compare(t.Territory, territory)
	})
	if !found {
		return ""
	}
	return TerritoryCurrencies[i].Code
}

// SymbolsOf returns the symbols of code, its symbol in "en" first.
func SymbolsOf(code string) []Symbol {
	i, _ := slices.BinarySearchFunc(Symbols[:], code, func(s Symbol, code string) int {
		return strings.Compare(s.Code, code)
	})
	j := i
	for j < len(Symbols) && Symbols[j].Code == code {
		j++
	}
	return Symbols[i:j]
}

// CodesOf appends to codes the currencies written with a symbol of key (as SymbolKey
// makes it) in some locale, each once, in the order of their codes.
func CodesOf(codes []string, key string) []string {
	i, _ := slices.BinarySearchFunc(SymbolsByKey[:], key, func(at uint16, key string) int {
		return strings.Compare(Symbols[at].Key, key)
	})
	first := len(codes)
	for ; i < len(SymbolsByKey) && Symbols[SymbolsByKey[i]].Key == key; i++ {
		// A key's symbols are in the order of their currencies: a currency written so in
		// several locales comes in a row.
		if code := Symbols[SymbolsByKey[i]].Code; len(codes) == first || codes[len(codes)-1] != code {
			codes = append(codes, code)
		}
	}
	return codes
}

// SymbolIn returns the symbol code is written with in the locale of identifier id
// ("fr-CA"), falling back through its parent locales to English; a currency without a
// symbol is written as its code.
func SymbolIn(code, id string) string {
	symbols := SymbolsOf(code)
	if len(symbols) == 0 {
		return code
	}
	if id == "" || id == "en" || id == "en-US" {
		return symbols[0].Symbol
	}
	for ; id != ""; id = Parent(id) {
		for _, s := range symbols {
			if hasField(s.Locales, id) {
				return s.Symbol
			}
		}
	}
	return ""
}

// Parent returns the locale CLDR falls back to from id: "es-AR" to "es-419", "fr-CA" to
// "fr", "zh-Hant-TW" to "zh-Hant", "fr" to "en", "en" to "".
func Parent(id string) string {
	if id == "" || id == "en" {
		return ""
	}
	i, found := slices.BinarySearchFunc(ParentLocales[:], id, func(p ParentLocale, id string) int {
		return strings.Compare(p.Locale, id)
	})
	if found {
		return ParentLocales[i].Parent
	}
	if cut := strings.LastIndexByte(id, '-'); cut > 0 {
		return id[:cut]
	}
	return "en"
}

// SymbolKey is the form symbols are compared in: without spaces, direction marks and a
// final full stop, in lower case, full-width signs as their usual forms. "kr." and "kr",
// "$ US" and "$US", "￥" and "¥" have one key.
func SymbolKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || IsDirectionMark(r):
		case r == '￥':
			b.WriteRune('¥')
		case r == '＄':
			b.WriteRune('$')
		case r == '￡':
			b.WriteRune('£')
		case r == '￦':
			b.WriteRune('₩')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return strings.TrimSuffix(b.String(), ".")
}

// IsDirectionMark reports whether r is one of the invisible marks that set the direction
// of a right-to-left symbol.
func IsDirectionMark(r rune) bool { return r == '\u200e' || r == '\u200f' || r == '\u061c' }

// hasField reports whether the space-separated list holds field.
func hasField(list, field string) bool {
	for list != "" {
		var f string
		f, list, _ = strings.Cut(list, " ")
		if f == field {
			return true
		}
	}
	return false
}
