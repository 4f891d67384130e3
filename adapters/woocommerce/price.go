package woocommerce

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// shownPrice reads a WooCommerce price element (a tile's span.price, a product page's
// p.price): the amount a shopper pays and, on a sale, the struck regular price in <del>.
// WooCommerce follows each amount of a sale with a sentence for screen readers
// ("Original price was: 250,00 €.", "Current price is: 199,00 €.") and a range with
// another ("Price range: 42,00 € through 45,00 €"): those are left out, and of a range
// the lower amount is read. Amounts are read in the store's own format ("1.250,00 €",
// "£1,250.00"), the currency from the symbol beside them in the page's locale;
// currencyHint is the currency the page's prices are expected in (sdk.ParseAmount).
func shownPrice(el sdk.Node, currencyHint string) *sdk.Price {
	if !el.Exists() {
		return nil
	}
	current, currency, ok := sdk.ParseAmount(strings.Join(el.Texts("del, .screen-reader-text"), " "), currencyHint)
	if !ok {
		return nil
	}
	pr := &sdk.Price{Current: current, Currency: currency}
	if del := el.SelectOne("del"); del.Exists() {
		if was, _, ok := sdk.ParseAmount(strings.Join(del.Texts(".screen-reader-text"), " "), currency); ok && was > current {
			pr.CompareAt = &was
		}
	}
	return pr
}

// currencyHint is the currency a page's prices are expected in: the one its markup
// states, else the one of the territory it is written for.
func currencyHint(page *sdk.Doc, pageURL string) string {
	if c := storefront.PageCurrency(page); c != "" {
		return c
	}
	return sdk.PageLocale(page, pageURL).Currency()
}
