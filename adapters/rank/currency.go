package rank

import (
	"strings"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
)

// symbols are currency signs that name one currency wherever they are written.
var symbols = []struct{ sign, code string }{
	{"€", "EUR"}, {"£", "GBP"}, {"₹", "INR"}, {"₽", "RUB"}, {"руб", "RUB"}, {"₺", "TRY"}, {"₩", "KRW"}, {"₪", "ILS"},
	{"₫", "VND"}, {"฿", "THB"}, {"₱", "PHP"}, {"₴", "UAH"}, {"грн", "UAH"}, {"₸", "KZT"}, {"тг", "KZT"}, {"zł", "PLN"},
	{"Kč", "CZK"}, {"Ft", "HUF"}, {"lei", "RON"}, {"Lei", "RON"}, {"R$", "BRL"}, {"NT$", "TWD"}, {"HK$", "HKD"},
	{"US$", "USD"}, {"S$", "SGD"}, {"A$", "AUD"}, {"AU$", "AUD"}, {"C$", "CAD"}, {"CA$", "CAD"}, {"NZ$", "NZD"},
	{"MX$", "MXN"}, {"RM", "MYR"}, {"Rp", "IDR"}, {"S/", "PEN"}, {"ر.س", "SAR"}, {"د.إ", "AED"}, {"Kn", "HRK"},
	{"kn", "HRK"}, {"лв", "BGN"}, {"din", "RSD"}, {"₦", "NGN"}, {"₵", "GHS"}, {"৳", "BDT"}, {"₮", "MNT"},
}

// families are signs several currencies write: the page's country tells which, and
// without one the first is taken.
var families = []struct {
	sign  string
	codes []string
}{
	{"$", []string{"USD", "CAD", "AUD", "NZD", "MXN", "CLP", "ARS", "COP", "SGD", "HKD", "TWD", "UYU", "DOP", "JMD", "TTD", "BSD", "FJD", "LRD", "NAD"}},
	{"kr", []string{"SEK", "NOK", "DKK", "ISK"}},
	{"¥", []string{"JPY", "CNY"}},
	{"Rs", []string{"INR", "PKR", "LKR", "NPR", "MUR"}},
	{"R", []string{"ZAR"}},
	{"Fr", []string{"CHF"}},
}

// currencyMark returns the currency sign or ISO code written in s: "€", "$", "kr", "EUR";
// "" when there is none.
func currencyMark(s string) string {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') }) {
		if len(w) == 3 && isCode(strings.ToUpper(w)) && strings.ToUpper(w) == w {
			return w
		}
	}
	for _, sym := range symbols {
		if strings.Contains(s, sym.sign) {
			return sym.sign
		}
	}
	for _, f := range families {
		if isLetters(f.sign) && hasToken(s, f.sign) || !isLetters(f.sign) && strings.Contains(s, f.sign) {
			return f.sign
		}
	}
	return ""
}

// isLetters reports whether s is all ASCII letters: a sign written as a word ("kr", "R").
func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			return false
		}
	}
	return true
}

// hasToken reports whether s holds sign as a word of its own ("kr 199", "199,- kr").
func hasToken(s, sign string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') }) {
		if strings.EqualFold(w, sign) {
			return true
		}
	}
	return false
}

// isoOf names the currency of a sign or code as written on a page of region (a CLDR
// region code, "" when unknown): "$" is USD on a US store, CAD on a Canadian one.
func isoOf(mark, region string) string { return isoIn(mark, region, nil) }

// isoIn is isoOf where the page's markup states currencies (stated): a sign several
// currencies write is read as the stated one it can be ("$" is CAD where the markup says
// CAD), else by the region.
func isoIn(mark, region string, stated map[string]bool) string {
	if mark == "" {
		return ""
	}
	if len(mark) == 3 && isCode(strings.ToUpper(mark)) {
		return strings.ToUpper(mark)
	}
	for _, s := range symbols {
		if s.sign == mark {
			return s.code
		}
	}
	local := regionCurrency(region)
	for _, f := range families {
		if f.sign != mark {
			continue
		}
		for _, c := range f.codes {
			if stated[c] {
				return c
			}
		}
		for _, c := range f.codes {
			if c == local {
				return c
			}
		}
		return f.codes[0]
	}
	return ""
}

// regionCurrency is the legal tender of a region in CLDR, "" when unknown.
func regionCurrency(region string) string {
	if region == "" {
		return ""
	}
	r, err := language.ParseRegion(region)
	if err != nil {
		return ""
	}
	u, ok := currency.FromRegion(r)
	if !ok {
		return ""
	}
	return u.String()
}

// isCode reports whether s is an ISO 4217 currency code.
func isCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	u, err := currency.ParseISO(s)
	return err == nil && u.String() != "XXX"
}

// normalizeCode returns a currency as markup gives it as an ISO 4217 code, or "": codes
// in any case, and the former codes stores still write (RUR for the rouble).
func normalizeCode(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	switch s {
	case "RUR":
		return "RUB"
	case "":
		return ""
	}
	if isCode(s) {
		return s
	}
	return isoOf(currencyMark(s), "")
}

// region finds the country a page is written for: its html lang or og:locale, else its
// domain's country code.
func (r *reader) region() string {
	langs := []string{r.root.SelectOne("html").Attr("lang")}
	if m, ok := r.meta("og:locale"); ok {
		langs = append(langs, m.content)
	}
	for _, l := range langs {
		tag, err := language.Parse(strings.ReplaceAll(strings.TrimSpace(l), "_", "-"))
		if err != nil {
			continue
		}
		if reg, conf := tag.Region(); conf == language.Exact {
			return reg.String()
		}
	}
	if r.url != nil {
		host := r.url.Hostname()
		if i := strings.LastIndexByte(host, '.'); i >= 0 && len(host)-i == 3 {
			if reg, err := language.ParseRegion(host[i+1:]); err == nil {
				return reg.String()
			}
		}
	}
	return ""
}

// gatherCurrencies reads the currency candidates: the currencies of the structured
// prices, the currency meta tags and itemprops, and the signs of the visible prices read
// in the page's country.
func (r *reader) gatherCurrencies(p *Page) {
	var cands []Candidate
	seen := map[string]bool{}
	add := func(c Candidate) {
		key := c.Source.String() + " " + c.Value + " " + c.Where
		if c.Value == "" || c.el == nil && seen[key] {
			return
		}
		seen[key] = true
		cands = append(cands, c)
	}
	region := r.region()
	stated := map[string]bool{}
	for _, pr := range p.Candidates[Price] {
		if pr.Source.structured() {
			if code := normalizeCode(pr.currency); code != "" {
				stated[code] = true
			}
		}
	}
	for _, key := range []string{"product:price:currency", "og:price:currency"} {
		if m, ok := r.meta(key); ok {
			stated[normalizeCode(m.content)] = true
		}
	}
	for _, pr := range p.Candidates[Price] {
		if pr.Excluded != "" {
			continue
		}
		c := Candidate{Field: Currency, Source: pr.Source, Value: normalizeCode(isoIn(pr.currency, region, stated)), Where: "with " + pr.Where, el: pr.el}
		c.Features = pr.Features
		add(c)
	}
	for _, key := range []string{"product:price:currency", "og:price:currency"} {
		if m, ok := r.meta(key); ok {
			add(Candidate{Field: Currency, Source: Meta, Value: normalizeCode(m.content), Where: "meta " + key})
		}
	}
	if props := r.propsNamed("pricecurrency"); len(props) > 0 {
		for i, v := range propValues(props) {
			if i >= 4 {
				break
			}
			add(Candidate{Field: Currency, Source: props[i].source, Value: normalizeCode(v), Where: "itemprop priceCurrency"})
		}
	}
	if code := regionCurrency(region); code != "" {
		add(Candidate{Field: Currency, Source: Implied, Value: code, Where: "the page's country " + region})
	}
	for i := range cands {
		c := &cands[i]
		keep := Vector{}
		for _, f := range []Feature{HeadingNear, BuyNear, InOther, InChrome, InCart, InHidden, InProduct, Emphasis, FirstEntity} {
			keep[f] = c.Features[f]
		}
		c.Features = keep
		c.Features[Bias] = 1
		c.Features[sourceFeature(c.Source)] = 1
		if !isCode(c.Value) {
			c.Excluded = "not an ISO 4217 code"
		}
	}
	agree(cands, func(c *Candidate) string { return c.Value })
	p.Candidates[Currency] = cands
}
