package sdk

import (
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk/internal/cldr"
)

// Locale is the language and territory a page is written for, as far as the page tells.
// The zero Locale is "unknown".
type Locale struct {
	// Language is an ISO 639 code in lower case ("en", "pt"), "" when unknown.
	Language string
	// Script is an ISO 15924 code in title case ("Hant"), usually "".
	Script string
	// Territory is an ISO 3166-1 code in upper case ("US", "CA") or a UN M.49 region
	// ("419", Latin America), "" when unknown.
	Territory string
}

// ParseLocale reads a language tag as pages write them: "en-US", "en_us", "pt-BR",
// "zh-Hant-TW", "de". Parts it cannot place are dropped; a list ("de-AT, de;q=0.9")
// yields its first tag.
func ParseLocale(tag string) Locale {
	tag, _, _ = strings.Cut(tag, ",")
	tag, _, _ = strings.Cut(tag, ";")
	var l Locale
	for i, part := range strings.FieldsFunc(strings.TrimSpace(tag), func(r rune) bool { return r == '-' || r == '_' }) {
		switch {
		case i == 0:
			if (len(part) != 2 && len(part) != 3) || !isASCIILetters(part) {
				return Locale{}
			}
			if !strings.EqualFold(part, "und") {
				// "und" is an undetermined language: the territory may still be known.
				l.Language = strings.ToLower(part)
			}
		case len(part) == 4 && isASCIILetters(part) && l.Script == "" && l.Territory == "":
			l.Script = strings.ToUpper(part[:1]) + strings.ToLower(part[1:])
		case len(part) == 2 && isASCIILetters(part) && l.Territory == "":
			l.Territory = strings.ToUpper(part)
		case len(part) == 3 && isASCIIDigits(part) && l.Territory == "":
			l.Territory = part
		}
	}
	return l
}

// String returns l as a language tag ("en-CA"); "" for a locale without a language.
func (l Locale) String() string {
	if l.Language == "" {
		return ""
	}
	s := l.Language
	if l.Script != "" {
		s += "-" + l.Script
	}
	if l.Territory != "" {
		s += "-" + l.Territory
	}
	return s
}

// Currency returns the ISO 4217 code of the currency of l's territory (CAD for "en-CA"),
// "" when the territory is unknown or a region of several countries.
func (l Locale) Currency() string { return cldr.ForTerritory(l.Territory) }

// LocaleSignals are what a page says of its locale. PageLocale reads them from a page;
// an adapter that knows more (a store's settings in its application state) can fill them
// itself and call Locale.
type LocaleSignals struct {
	// URL is the page's address: its country-code domain (".ca", ".co.uk", ".com.mx") and
	// a locale as its first path segment ("/en-ca/...").
	URL string
	// HTMLLang is the lang attribute of the html element.
	HTMLLang string
	// OGLocale is the OpenGraph og:locale ("en_US").
	OGLocale string
	// ContentLanguage is the Content-Language header or meta element.
	ContentLanguage string
	// HrefLang is the hreflang of the alternate link that points at the page itself.
	HrefLang string
	// AddressCountry is the country of the store's address in the page's structured data,
	// as an ISO 3166-1 code.
	AddressCountry string
}

// Locale returns the locale the signals point to. The territory comes from a locale in
// the URL's path, then the country-code domain, then the language tags, then the store's
// address. Among the language tags a territory other than the United States wins:
// "en-US" and "en_US" are the defaults of the software many stores run, left in place
// where the store sells elsewhere. The language comes from the URL's path, then the
// language tags.
func (s LocaleSignals) Locale() Locale {
	var l Locale
	path := pathLocale(s.URL)
	tags := [...]Locale{path, ParseLocale(s.HTMLLang), ParseLocale(s.OGLocale), ParseLocale(s.ContentLanguage), ParseLocale(s.HrefLang)}
	for _, t := range tags {
		if t.Language != "" {
			l.Language, l.Script = t.Language, t.Script
			break
		}
	}
	l.Territory = path.Territory
	if l.Territory == "" {
		l.Territory = domainTerritory(s.URL)
	}
	if l.Territory == "" {
		for _, t := range tags[1:] {
			if cldr.ForTerritory(t.Territory) != "" && (l.Territory == "" || l.Territory == "US") {
				l.Territory = t.Territory
			}
		}
	}
	if c := strings.ToUpper(strings.TrimSpace(s.AddressCountry)); l.Territory == "" && cldr.ForTerritory(c) != "" {
		l.Territory = c
	}
	return l
}

// PageLocale returns the locale page is written for, read from pageURL and the page's
// language tags and structured data (see LocaleSignals.Locale). CurrencyFor reads a
// price's symbol in it, and Locale.Currency names the currency its territory pays in.
func PageLocale(page *Doc, pageURL string) Locale {
	s := LocaleSignals{URL: pageURL}
	if page == nil {
		return s.Locale()
	}
	s.ContentLanguage = page.Header("Content-Language")
	root := page.HTML()
	s.HTMLLang = root.SelectOne("html").Attr("lang")
	s.OGLocale = root.SelectOne(`meta[property="og:locale"]`).Attr("content")
	if s.ContentLanguage == "" {
		s.ContentLanguage = root.SelectOne(`meta[http-equiv="content-language" i]`).Attr("content")
	}
	if links := Nodes(root.Select("link[hreflang][href]")); len(links) > 0 {
		s.HrefLang = ownHrefLang(pageURL, links.Attr("hreflang"), links.Attr("href"))
	}
	l := s.Locale()
	if l.Territory == "" {
		// Only now: the structured data may be parsed for nothing else.
		s.AddressCountry = addressCountry(page)
		l = s.Locale()
	}
	return l
}

// addressCountry returns the country code of the first address in page's JSON-LD or
// microdata entities that names its country by code.
func addressCountry(page *Doc) string {
	for _, entities := range [...]Value{page.JSONLD(), page.Microdata()} {
		for _, e := range entities.Array() {
			for _, c := range e.Strings("address.addressCountry", "address.addressCountry.name", "address.0.addressCountry") {
				if len(c) == 2 && isASCIILetters(c) {
					return strings.ToUpper(c)
				}
			}
		}
	}
	return ""
}

// pathLocale reads a locale written as the first segment of rawURL's path ("/en-ca/",
// "/de_CH/"); a bare language ("/fr/") is not read, since it names no territory.
func pathLocale(rawURL string) Locale {
	u, err := url.Parse(rawURL)
	if err != nil {
		return Locale{}
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if len(first) != 5 || (first[2] != '-' && first[2] != '_') {
		return Locale{}
	}
	l := ParseLocale(first)
	if l.Territory == "" || cldr.ForTerritory(l.Territory) == "" {
		return Locale{}
	}
	return l
}

// domainTerritory returns the territory of rawURL's country-code domain: CA for
// "shop.example.ca", GB for ".co.uk", MX for ".com.mx"; "" for a generic domain. The
// country domains sold as generic ones (".io", ".co", ".me", ".tv") count only under a
// second level ("example.com.co").
func domainTerritory(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	labels := strings.Split(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), ".")
	if len(labels) < 2 {
		return ""
	}
	tld := labels[len(labels)-1]
	if len(tld) != 2 {
		return ""
	}
	if tld == "uk" {
		return "GB"
	}
	if genericCountryDomains.has(tld) && !secondLevelDomains.has(labels[len(labels)-2]) {
		return ""
	}
	territory := strings.ToUpper(tld)
	if cldr.ForTerritory(territory) == "" {
		return ""
	}
	return territory
}

// wordSet is a small set of words, written space-separated.
type wordSet string

func (w wordSet) has(word string) bool {
	for list := string(w); list != ""; {
		var f string
		f, list, _ = strings.Cut(list, " ")
		if f == word {
			return true
		}
	}
	return false
}

// genericCountryDomains are the country-code domains sold and used as generic ones.
const genericCountryDomains wordSet = "ai cc co fm gg io la ly me ms nu sh st to tv vc ws"

// secondLevelDomains are the labels registries put under a country-code domain.
const secondLevelDomains wordSet = "ac co com edu gob gov ltd ne net nom or org plc"

// ownHrefLang returns the hreflang of the alternate link (hrefs[i], langs[i]) that
// points at pageURL itself: the one with the same address, query included, else the only
// one with the same host and path ("?variant=2" pages share their product's alternates;
// "?_ul=EC" alternates differ by their query alone). "x-default" names no locale.
func ownHrefLang(pageURL string, langs, hrefs []string) string {
	base, err := url.Parse(pageURL)
	if err != nil {
		return ""
	}
	var samePath []string
	for i, href := range hrefs {
		ref, err := base.Parse(strings.TrimSpace(href))
		if err != nil || ParseLocale(langs[i]).Language == "" || pageKey(ref) != pageKey(base) {
			continue
		}
		if ref.RawQuery == base.RawQuery {
			return langs[i]
		}
		samePath = append(samePath, langs[i])
	}
	if len(samePath) == 1 {
		return samePath[0]
	}
	return ""
}

// pageKey is u's host, without "www.", and path, without a final slash.
func pageKey(u *url.URL) string {
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") + strings.TrimSuffix(u.EscapedPath(), "/")
}

func isASCIILetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

func isASCIIDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return s != ""
}
