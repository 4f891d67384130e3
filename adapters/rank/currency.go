package rank

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// shownAmount reads a price as a page displays it (see sdk.ParseAmount): its amount, and
// its currency where the text names one, a sign read as the currency the page's prices
// are expected in (hint) when that currency is written with it. marked reports whether
// the text itself names a currency, by a sign or a code; an amount without one is in no
// stated currency, whatever the page's.
func shownAmount(text, hint string) (amount float64, currency string, marked, ok bool) {
	amount, currency, ok = sdk.ParseAmount(text, hint)
	if !ok || !sdk.WritesCurrency(text) {
		return amount, "", false, ok
	}
	return amount, currency, true, true
}

// markupAmount reads an amount that markup gives (a JSON-LD or microdata price, a
// content attribute) as machine data, so that "29.990" stays 29.99; where a store wrote
// it for people instead ("71,91 €", "Price: 12"), it is read as displayed, in currency.
func markupAmount(s, currency string) (float64, bool) {
	if a, ok := sdk.ParseMachinePrice(s); ok {
		return a, true
	}
	a, _, ok := sdk.ParseAmount(s, currency)
	return a, ok
}

// isCurrencyCode reports whether s is an ISO 4217 currency code CLDR knows.
func isCurrencyCode(s string) bool {
	_, ok := sdk.CurrencyDigits(s)
	return ok
}

// markupCode returns a currency as markup gives it as an ISO 4217 code, or "": codes in
// any case, the former codes stores still write (RUR for the rouble), and signs read in
// the page's locale.
func (r *reader) markupCode(s string) string {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "RUR") {
		return "RUB"
	}
	return sdk.CurrencyFor(s, r.locale)
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
	for _, pr := range p.Candidates[Price] {
		if pr.Excluded != "" {
			continue
		}
		c := Candidate{Field: Currency, Source: pr.Source, Value: pr.currency, Where: "with " + pr.Where, el: pr.el}
		c.Features = pr.Features
		add(c)
	}
	for _, key := range []string{"product:price:currency", "og:price:currency"} {
		if m, ok := r.meta(key); ok {
			add(Candidate{Field: Currency, Source: Meta, Value: r.markupCode(m.content), Where: "meta " + key})
		}
	}
	if props := r.propsNamed("pricecurrency"); len(props) > 0 {
		for i, v := range propValues(props) {
			if i >= 4 {
				break
			}
			add(Candidate{Field: Currency, Source: props[i].source, Value: r.markupCode(v), Where: "itemprop priceCurrency"})
		}
	}
	if code := r.locale.Currency(); code != "" {
		add(Candidate{Field: Currency, Source: Implied, Value: code, Where: "the page's country " + r.locale.Territory})
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
		if !isCurrencyCode(c.Value) {
			c.Excluded = "not an ISO 4217 code"
		}
	}
	agree(cands, func(c *Candidate) string { return c.Value })
	p.Candidates[Currency] = cands
}
