package cldr

import (
	"slices"
	"strings"
	"testing"

	"github.com/bojanz/currency"
)

// The tables and lookups answer as the library does: every currency with its digits,
// every territory's currency, and every currency's symbol in every locale the symbols
// name, in each of their parents, and in locales they do not name.
func TestLookupsAgreeWithTheLibrary(t *testing.T) {
	codes := currency.GetCurrencyCodes()
	if len(codes) != len(Currencies) {
		t.Errorf("%d currencies, the library has %d", len(Currencies), len(codes))
	}
	for _, code := range codes {
		want, _ := currency.GetDigits(code)
		if got, ok := Digits(code); !ok || got != int(want) {
			t.Errorf("Digits(%s) = %d, %v; the library says %d", code, got, ok, want)
		}
	}
	if _, ok := Digits("XYZ"); ok {
		t.Error("Digits(XYZ) is ok")
	}
	for a := 'A'; a <= 'Z'; a++ {
		for z := 'A'; z <= 'Z'; z++ {
			territory := string([]rune{a, z})
			want, _ := currency.ForCountryCode(territory)
			if got := ForTerritory(territory); got != want {
				t.Errorf("ForTerritory(%s) = %q, the library says %q", territory, got, want)
			}
		}
	}
	locales := []string{"", "en", "en-US", "en-CA", "en-IN", "fr-CH", "de-AT", "es-AR", "es-MX", "es-419", "pt-BR", "pt-PT",
		"zh-Hans-CN", "zh-Hant-TW", "zh-Hant-HK", "sr-Latn-RS", "nl-BE", "ar-EG", "ru-BY", "ta-SG", "xx", "xx-YY"}
	for _, s := range Symbols {
		for _, id := range strings.Fields(s.Locales) {
			for ; id != ""; id = Parent(id) {
				locales = append(locales, id)
			}
		}
	}
	slices.Sort(locales)
	locales = slices.Compact(locales)
	for _, code := range codes {
		for _, id := range locales {
			want, _ := currency.GetSymbol(code, currency.NewLocale(id))
			if got := SymbolIn(code, id); got != want {
				t.Errorf("SymbolIn(%s, %q) = %q, the library says %q", code, id, got, want)
			}
		}
	}
	for _, s := range Symbols {
		if s.Key != SymbolKey(s.Symbol) {
			t.Errorf("%s %q: key %q, SymbolKey gives %q", s.Code, s.Symbol, s.Key, SymbolKey(s.Symbol))
		}
	}
}

func TestSymbolKeyDropsWhatStoresWriteDifferently(t *testing.T) {
	for in, want := range map[string]string{
		"kr.":             "kr",
		"$\u00a0US":       "$us",
		"US $":            "us$",
		"￥":               "¥",
		"د.إ.\u200f":      "د.إ",
		"Kč":              "kč",
		"\u200eCN¥\u200e": "cn¥",
		"":                "",
	} {
		if got := SymbolKey(in); got != want {
			t.Errorf("SymbolKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCodesOfFindsEveryCurrencyOfASymbol(t *testing.T) {
	for key, want := range map[string][]string{
		"kr":  {"DKK", "ISK", "NOK", "SEK"},
		"€":   {"EUR"},
		"¥":   {"CNY", "JPY"},
		"us$": {"USD"},
		"zzz": nil,
	} {
		got := CodesOf(nil, key)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("CodesOf(%q) = %v, want %v", key, got, want)
		}
	}
	for _, s := range Symbols {
		if !slices.Contains(CodesOf(nil, s.Key), s.Code) {
			t.Errorf("CodesOf(%q) lacks %s", s.Key, s.Code)
		}
	}
	if len(SymbolsByKey) != len(Symbols) {
		t.Errorf("%d keys indexed, %d symbols", len(SymbolsByKey), len(Symbols))
	}
}
