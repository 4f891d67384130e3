package html

import (
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// pageCurrency is the ISO 4217 code of the prices of page, at pageURL, as far as the page
// says: its markup's (sdk.MarkupCurrency), else the currency its first price is written
// in, read in the page's locale, else the currency of the locale's territory; "" when
// nothing says.
func pageCurrency(page *sdk.Doc, pageURL string) string {
	if c := sdk.MarkupCurrency(page); c != "" {
		return c
	}
	local := sdk.PageLocale(page, pageURL).Currency()
	for i, n := range page.HTML().FindClass(rank.PriceClassWords()...) {
		if i >= 20 {
			break
		}
		if t := n.Text(); hasDigit(t) && len(t) <= 40 {
			if _, c, ok := sdk.ParseAmount(t, local); ok && c != "" {
				return c
			}
		}
	}
	return local
}
