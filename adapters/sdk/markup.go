package sdk

import "strings"

// MarkupCurrency is the ISO 4217 code that a page's markup gives its prices: the
// OpenGraph or product meta tags (og:price:currency), the offers of its JSON-LD, or its
// microdata's priceCurrency, in that order; "" when none names a known currency. Adapters
// read a store's currency once per crawl from such a page (the home page, a product
// page), for the listings of a price feed that names none.
func MarkupCurrency(page *Doc) string {
	if !page.OK() {
		return ""
	}
	root := page.HTML()
	if c := knownCurrency(root.FindOne("//meta[@property='og:price:currency' or @property='product:price:currency']").Attr("content")); c != "" {
		return c
	}
	for _, e := range page.JSONLD().Array() {
		for _, o := range e.Get("offers").List() {
			if c := knownCurrency(o.Get("priceCurrency").String()); c != "" {
				return c
			}
			for _, sub := range o.Get("offers").List() {
				if c := knownCurrency(sub.Get("priceCurrency").String()); c != "" {
					return c
				}
			}
		}
	}
	n := root.FindOne("//*[@itemprop='priceCurrency']")
	if v, ok := n.AttrOK("content"); ok {
		return knownCurrency(v)
	}
	return knownCurrency(n.Text())
}

// knownCurrency is s as an ISO 4217 code in upper case when it is one, else "".
func knownCurrency(s string) string {
	if code := strings.ToUpper(strings.TrimSpace(s)); isCurrencyCode(code) {
		return code
	}
	return ""
}
