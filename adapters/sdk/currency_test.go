package sdk

import "testing"

func TestCurrencyForReadsSymbolsInThePageLocale(t *testing.T) {
	var (
		none   = Locale{}
		enUS   = Locale{Language: "en", Territory: "US"}
		enGB   = Locale{Language: "en", Territory: "GB"}
		enCA   = Locale{Language: "en", Territory: "CA"}
		frCA   = Locale{Language: "fr", Territory: "CA"}
		esMX   = Locale{Language: "es", Territory: "MX"}
		esAR   = Locale{Language: "es", Territory: "AR"}
		deDE   = Locale{Language: "de", Territory: "DE"}
		zhCN   = Locale{Language: "zh", Territory: "CN"}
		jaJP   = Locale{Language: "ja", Territory: "JP"}
		sv     = Locale{Language: "sv"}
		onlyCA = Locale{Territory: "CA"}
		onlyMX = Locale{Territory: "MX"}
		onlyAU = Locale{Territory: "AU"}
	)
	for _, tc := range []struct {
		symbol string
		loc    Locale
		want   string
	}{
		// Dollars: the territory's, else the language's, else the US dollar.
		{"$", enUS, "USD"},
		{"$", none, "USD"},
		{"$", enCA, "CAD"},
		{"$", frCA, "CAD"},
		{"$", onlyCA, "CAD"},
		{"$", esMX, "MXN"},
		{"$", onlyMX, "MXN"},
		{"$", onlyAU, "AUD"},
		{"$", Locale{Territory: "NZ"}, "NZD"},
		{"$", Locale{Territory: "SG"}, "SGD"},
		{"$", Locale{Territory: "HK"}, "HKD"},
		{"$", Locale{Language: "zh", Script: "Hant", Territory: "TW"}, "TWD"},
		{"$", esAR, "ARS"},
		{"$", Locale{Territory: "CL"}, "CLP"},
		{"$", Locale{Territory: "CO"}, "COP"},
		{"$", Locale{Language: "es", Territory: "419"}, "USD"},
		{"$", deDE, "USD"},
		{"$", enGB, "USD"},
		{"US$", enCA, "USD"},
		{"US $", onlyMX, "USD"},
		{"$US", frCA, "USD"},
		{"CA$", none, "CAD"},
		{"C$", enCA, "CAD"},
		{"C$", none, ""}, // Canadian in Dutch, Nicaraguan in Spanish
		{"A$", none, "AUD"},
		{"AU$", none, "AUD"},
		{"MX$", none, "MXN"},
		{"NT$", none, "TWD"},
		{"HK$", none, "HKD"},
		{"NZ$", none, "NZD"},
		{"S$", Locale{Territory: "SG"}, "SGD"},
		{"R$", none, "BRL"},
		// Yen and yuan.
		{"¥", none, "JPY"},
		{"¥", jaJP, "JPY"},
		{"¥", zhCN, "CNY"},
		{"¥", Locale{Territory: "CN"}, "CNY"},
		{"￥", none, "JPY"},
		{"CN¥", none, "CNY"},
		{"円", none, "JPY"},
		{"元", zhCN, "CNY"},
		// Pounds.
		{"£", none, "GBP"},
		{"£", enUS, "GBP"},
		{"£", Locale{Territory: "GI"}, "GIP"},
		{"E£", none, "EGP"},
		// Crowns: only the locale tells them apart.
		{"kr", Locale{Language: "sv", Territory: "SE"}, "SEK"},
		{"kr", Locale{Territory: "NO"}, "NOK"},
		{"kr.", Locale{Territory: "DK"}, "DKK"},
		{"kr", Locale{Territory: "DK"}, "DKK"},
		{"kr", sv, "SEK"},
		{"kr", none, ""},
		{"Kč", none, "CZK"},
		// Signs and abbreviations of one currency each.
		{"€", enUS, "EUR"},
		{"€", none, "EUR"},
		{"zł", none, "PLN"},
		{"Ft", none, "HUF"},
		{"₽", none, "RUB"},
		{"руб.", none, "RUB"},
		{"₴", none, "UAH"},
		{"грн", none, "UAH"},
		{"тг.", Locale{Language: "ru", Territory: "KZ"}, "KZT"},
		{"₺", none, "TRY"},
		{"TL", Locale{Language: "tr", Territory: "TR"}, "TRY"},
		{"₩", none, "KRW"},
		{"원", none, "KRW"},
		{"₹", none, "INR"},
		{"Rs.", none, "INR"},
		{"Rs", Locale{Territory: "PK"}, "PKR"},
		{"Rs.", Locale{Territory: "LK"}, "LKR"},
		{"RM", none, "MYR"},
		{"Rp", none, "IDR"},
		{"₫", none, "VND"},
		{"฿", none, "THB"},
		{"₱", none, "PHP"},
		{"₪", none, "ILS"},
		{"S/", none, "PEN"},
		{"Bs.", Locale{Territory: "BO"}, "BOB"},
		{"Fr.", Locale{Language: "de", Territory: "CH"}, "CHF"},
		{"lei", Locale{Territory: "RO"}, "RON"},
		{"د.إ.", none, "AED"},
		{"ر.س.\u200f", none, "SAR"},
		{"euro", none, "EUR"},
		// One letter names a currency only where the page's currency is written so.
		{"R", Locale{Territory: "ZA"}, "ZAR"},
		{"R", none, ""},
		{"L", none, ""},
		// Codes, in any case; what is none is nothing.
		{"CHF", none, "CHF"},
		{"eur", deDE, "EUR"},
		{" USD ", enCA, "USD"},
		{"XYZ", none, ""},
		{"Preis", deDE, ""},
		{"", enUS, ""},
	} {
		if got := CurrencyFor(tc.symbol, tc.loc); got != tc.want {
			t.Errorf("CurrencyFor(%q, %+v) = %q, want %q", tc.symbol, tc.loc, got, tc.want)
		}
	}
}

func TestCurrencyDigitsAreCLDRs(t *testing.T) {
	for code, want := range map[string]int{"EUR": 2, "USD": 2, "JPY": 0, "KRW": 0, "CLP": 0, "KWD": 3, "BHD": 3} {
		if got, ok := CurrencyDigits(code); !ok || got != want {
			t.Errorf("CurrencyDigits(%q) = %d, %v; want %d", code, got, ok, want)
		}
	}
	for _, code := range []string{"", "eur", "XYZ", "EURO"} {
		if _, ok := CurrencyDigits(code); ok {
			t.Errorf("CurrencyDigits(%q) is ok", code)
		}
	}
}

func BenchmarkCurrencyFor(b *testing.B) {
	loc := Locale{Language: "en", Territory: "CA"}
	for i := 0; i < b.N; i++ {
		if CurrencyFor("$", loc) != "CAD" || CurrencyFor("kr", Locale{}) != "" {
			b.Fatal("wrong currency")
		}
	}
}
