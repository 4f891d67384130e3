//go:build !wasip1

package sdk

import (
	"net/http"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/document"
)

func TestParseLocaleReadsTagsAsPagesWriteThem(t *testing.T) {
	for tag, want := range map[string]Locale{
		"en-US":             {Language: "en", Territory: "US"},
		"en_us":             {Language: "en", Territory: "US"},
		"pt-BR":             {Language: "pt", Territory: "BR"},
		"zh-Hant-TW":        {Language: "zh", Script: "Hant", Territory: "TW"},
		"sr_latn_rs":        {Language: "sr", Script: "Latn", Territory: "RS"},
		"es-419":            {Language: "es", Territory: "419"},
		"de":                {Language: "de"},
		" fr-CA ":           {Language: "fr", Territory: "CA"},
		"de-AT, de;q=0.9":   {Language: "de", Territory: "AT"},
		"en-GB-oxendict":    {Language: "en", Territory: "GB"},
		"x-default":         {},
		"und-CA":            {Territory: "CA"},
		"english":           {},
		"":                  {},
		"*":                 {},
		"en-US-x-twain-123": {Language: "en", Territory: "US"},
	} {
		if got := ParseLocale(tag); got != want {
			t.Errorf("ParseLocale(%q) = %+v, want %+v", tag, got, want)
		}
	}
	if s := (Locale{Language: "zh", Script: "Hant", Territory: "TW"}).String(); s != "zh-Hant-TW" {
		t.Errorf("String() = %q", s)
	}
	if s := (Locale{Territory: "CA"}).String(); s != "" {
		t.Errorf("a locale without a language is %q", s)
	}
}

func TestLocaleSignalsPointToTheStoresTerritory(t *testing.T) {
	for _, tc := range []struct {
		name    string
		signals LocaleSignals
		want    Locale
	}{
		{"country domain", LocaleSignals{URL: "https://shop.example.ca/p/1"}, Locale{Territory: "CA"}},
		{"second-level domain", LocaleSignals{URL: "https://www.example.co.uk/p/1", HTMLLang: "en"}, Locale{Language: "en", Territory: "GB"}},
		{"commercial second level", LocaleSignals{URL: "https://www.example.com.au/p/1"}, Locale{Territory: "AU"}},
		{"Mexico", LocaleSignals{URL: "https://tienda.example.com.mx/p/1", HTMLLang: "es"}, Locale{Language: "es", Territory: "MX"}},
		{"Japan", LocaleSignals{URL: "https://example.co.jp/p/1", HTMLLang: "ja"}, Locale{Language: "ja", Territory: "JP"}},
		{"domain over a default tag", LocaleSignals{URL: "https://example.ca/p", HTMLLang: "en-US"}, Locale{Language: "en", Territory: "CA"}},
		{"generic domain", LocaleSignals{URL: "https://example.com/p", HTMLLang: "en-US"}, Locale{Language: "en", Territory: "US"}},
		{"nothing", LocaleSignals{URL: "https://example.com/p"}, Locale{}},
		{"vanity domain", LocaleSignals{URL: "https://brand.co/p"}, Locale{}},
		{"vanity domain under a second level", LocaleSignals{URL: "https://tienda.com.co/p"}, Locale{Territory: "CO"}},
		{"io", LocaleSignals{URL: "https://shop.io/p", HTMLLang: "de-DE"}, Locale{Language: "de", Territory: "DE"}},
		{"not a country", LocaleSignals{URL: "https://shop.eu/p"}, Locale{}},
		{"path locale", LocaleSignals{URL: "https://example.com/en-ca/products/x", HTMLLang: "en-US"}, Locale{Language: "en", Territory: "CA"}},
		{"path locale over domain", LocaleSignals{URL: "https://example.de/fr_ch/p"}, Locale{Language: "fr", Territory: "CH"}},
		{"bare language path", LocaleSignals{URL: "https://example.com/fr/p", HTMLLang: "fr-BE"}, Locale{Language: "fr", Territory: "BE"}},
		{"og:locale", LocaleSignals{URL: "https://example.com/p", HTMLLang: "en", OGLocale: "en_CA"}, Locale{Language: "en", Territory: "CA"}},
		{"non-US tag wins", LocaleSignals{URL: "https://example.com/p", HTMLLang: "en-US", OGLocale: "en_GB"}, Locale{Language: "en", Territory: "GB"}},
		{"first non-US tag", LocaleSignals{URL: "https://example.com/p", HTMLLang: "en-AU", OGLocale: "en_NZ"}, Locale{Language: "en", Territory: "AU"}},
		{"region is no territory", LocaleSignals{URL: "https://example.com/p", HTMLLang: "es-419", OGLocale: "es_MX"}, Locale{Language: "es", Territory: "MX"}},
		{"content language", LocaleSignals{URL: "https://example.com/p", ContentLanguage: "de-AT, de"}, Locale{Language: "de", Territory: "AT"}},
		{"hreflang", LocaleSignals{URL: "https://example.com/p", HTMLLang: "fr", HrefLang: "fr-CA"}, Locale{Language: "fr", Territory: "CA"}},
		{"address", LocaleSignals{URL: "https://example.com/p", HTMLLang: "de", AddressCountry: "ch"}, Locale{Language: "de", Territory: "CH"}},
		{"address after tags", LocaleSignals{URL: "https://example.com/p", HTMLLang: "en-IE", AddressCountry: "GB"}, Locale{Language: "en", Territory: "IE"}},
		{"unknown address", LocaleSignals{URL: "https://example.com/p", AddressCountry: "Germany"}, Locale{}},
		{"bad URL", LocaleSignals{URL: "://", HTMLLang: "it-IT"}, Locale{Language: "it", Territory: "IT"}},
	} {
		if got := tc.signals.Locale(); got != tc.want {
			t.Errorf("%s: %+v.Locale() = %+v, want %+v", tc.name, tc.signals, got, tc.want)
		}
	}
}

// A page's locale names the currency of its prices' symbols: "$" is USD on a US store,
// CAD on a Canadian one, MXN on a Mexican one, AUD on an Australian one.
func TestPageLocaleReadsThePage(t *testing.T) {
	for _, tc := range []struct {
		name, url, head string
		header          http.Header
		wantLocale      Locale
		dollar          string
	}{
		{"html lang", "https://example.com/p", `<html lang="en-US">`, nil, Locale{Language: "en", Territory: "US"}, "USD"},
		{"canadian domain", "https://example.ca/p", `<html lang="en">`, nil, Locale{Language: "en", Territory: "CA"}, "CAD"},
		{"mexican domain", "https://example.com.mx/p", `<html lang="es">`, nil, Locale{Language: "es", Territory: "MX"}, "MXN"},
		{"australian domain", "https://example.com.au/p", `<html>`, nil, Locale{Territory: "AU"}, "AUD"},
		{"og:locale", "https://example.com/p", `<html><head><meta property="og:locale" content="fr_CA">`, nil, Locale{Language: "fr", Territory: "CA"}, "CAD"},
		{"content language header", "https://example.com/p", `<html>`, http.Header{"Content-Language": {"es-CL"}}, Locale{Language: "es", Territory: "CL"}, "CLP"},
		{"content language meta", "https://example.com/p", `<html><head><meta http-equiv="Content-Language" content="en-NZ">`, nil, Locale{Language: "en", Territory: "NZ"}, "NZD"},
		{"hreflang of the page itself", "https://example.com/p?variant=1",
			`<html lang="en"><head><link rel="alternate" hreflang="x-default" href="https://example.com/p"><link rel="alternate" hreflang="en-us" href="https://example.com/us/p"><link rel="alternate" hreflang="en-au" href="/p/">`,
			nil, Locale{Language: "en", Territory: "AU"}, "AUD"},
		{"alternates that differ by their query", "https://example.com/p",
			`<html lang="en"><head><link rel="alternate" hreflang="es-ec" href="https://example.com/p?_ul=EC"><link rel="alternate" hreflang="en-gb" href="https://example.com/p">`,
			nil, Locale{Language: "en", Territory: "GB"}, "USD"},
		{"no alternate is the page", "https://example.com/p?v=1",
			`<html lang="en"><head><link rel="alternate" hreflang="es-ec" href="https://example.com/p?_ul=EC"><link rel="alternate" hreflang="es-cl" href="https://example.com/p?_ul=CL">`,
			nil, Locale{Language: "en"}, "USD"},
		{"store address", "https://example.com/p", `<html lang="en"><head><script type="application/ld+json">{"@type":"Organization","address":{"@type":"PostalAddress","addressCountry":"SG"}}</script>`,
			nil, Locale{Language: "en", Territory: "SG"}, "SGD"},
		{"nothing", "https://example.com/p", `<html>`, nil, Locale{}, "USD"},
	} {
		page := testPage(t, tc.url, tc.head+"<body><h1>Rake</h1></body></html>", tc.header)
		got := PageLocale(page, tc.url)
		if got != tc.wantLocale {
			t.Errorf("%s: PageLocale = %+v, want %+v", tc.name, got, tc.wantLocale)
		}
		if cur := CurrencyFor("$", got); cur != tc.dollar {
			t.Errorf("%s: $ is %q, want %q", tc.name, cur, tc.dollar)
		}
	}
	if got := PageLocale(nil, "https://example.de/p"); got != (Locale{Territory: "DE"}) {
		t.Errorf("no page: %+v", got)
	}
}

// testPage returns the page of a call whose only document is body, served at pageURL.
func testPage(t *testing.T, pageURL, body string, header http.Header) *Doc {
	t.Helper()
	s := document.NewSession(nil, 0)
	req := &adapter.Request{Op: adapter.OpExtract, URL: pageURL, Docs: []*adapter.Document{
		{URL: pageURL, Status: 200, Header: header, Body: []byte(body)},
	}}
	s.Reset(req.Docs)
	t.Cleanup(func() { s.Reset(nil) })
	return newCall(wireRequestOf(req), nativeBackend{s}).Page()
}
