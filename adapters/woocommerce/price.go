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
// "£1,250.00"); the currency is the one its symbol names, when it names one.
func shownPrice(el sdk.Node) *sdk.Price {
	if !el.Exists() {
		return nil
	}
	current, ok := sdk.ParsePrice(strings.Join(el.Texts("del, .screen-reader-text"), " "))
	if !ok {
		return nil
	}
	pr := &sdk.Price{Current: current, Currency: storefront.SymbolCurrency(el.SelectOne(".woocommerce-Price-currencySymbol").Text())}
	if del := el.SelectOne("del"); del.Exists() {
		if was, ok := sdk.ParsePrice(strings.Join(del.Texts(".screen-reader-text"), " ")); ok && was > current {
			pr.CompareAt = &was
		}
	}
	return pr
}
