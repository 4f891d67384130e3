package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// displayedPrice finds the price a shopper sees on a product page. It looks in the
// smallest block around the page's title (its first non-empty h1) that shows a price,
// for the first element whose id or class says price, whose short text holds an amount,
// and which is neither struck out nor a price of another kind.
func displayedPrice(root sdk.Node) (shownPrice, bool) {
	// The smallest block around the title that shows a price holds the product's own
	// price; a related product's price sits further out. Without a title, the first price
	// of a page is as likely a mini-cart's or a banner's as the product's, so there is no
	// guess. Nor is there when the nearest price is more than maxPriceLevels blocks out:
	// that is the page's frame, where carousels of other products are.
	scope := root.FindOne("(//h1[normalize-space()])[1]")
	for level := 0; scope.Exists() && level <= maxPriceLevels; level++ {
		if f, cur, ok := firstPrice(scope); ok {
			return shownPrice{amount: f, currency: cur, levelsAboveTitle: level, pricesInBlock: pricesUnder(scope)}, true
		}
		scope = scope.FindOne("..")
	}
	return shownPrice{}, false
}

// maxPriceLevels is how many blocks above the title displayedPrice looks, at most.
const maxPriceLevels = 8

// shownPrice is the price displayedPrice finds, and where it found it.
type shownPrice struct {
	amount   float64
	currency string // "" when the text does not say
	// levelsAboveTitle is how many levels above the title the block holding the price is.
	levelsAboveTitle int
	// pricesInBlock is how many prices that block shows.
	pricesInBlock int
}

// isAloneByTitle reports whether the price sits right by the title, on its own, as in a
// product's heading block and not in a listing's grid of tiles.
func (s shownPrice) isAloneByTitle() bool { return s.levelsAboveTitle <= 3 && s.pricesInBlock <= 2 }

// firstPrice returns the amount and currency of the first price shown under scope, in
// document order, skipping former prices, prices before tax and prices of other kinds.
func firstPrice(scope sdk.Node) (float64, string, bool) {
	for i, n := range scope.FindClass(priceWords...) {
		if i >= 60 {
			break
		}
		desc := strings.ToLower(n.Attr("id") + " " + n.Attr("class"))
		if containsAny(desc, otherPriceWords) {
			continue
		}
		t := n.Text()
		if t == "" || len(t) > 40 || strings.Contains(t, "%") {
			continue
		}
		if pricesUnder(n) > 1 || n.FindOne("ancestor-or-self::*[self::del or self::s or self::strike]").Exists() {
			// A container of several prices, or a struck-out price.
			continue
		}
		if around := strings.ToLower(n.FindOne("..").Text()); len(around) < 80 && containsAny(around, netWords) {
			// A price before tax, shown next to the price to pay.
			continue
		}
		if f, ok := sdk.ParsePrice(t); ok && f > 0 {
			return f, currencyOf(t), true
		}
	}
	return 0, "", false
}

// pricesUnder counts the price elements that have text, n and those below it.
func pricesUnder(n sdk.Node) int {
	count := 0
	for _, m := range n.FindClass(priceWords...) {
		if m.Text() != "" {
			count++
		}
	}
	return count
}

// priceWords mark a price's element in its id or class, in the languages stores write
// their markup in.
var priceWords = []string{"price", "preis", "prix", "prezzo", "precio", "preco", "preço", "cena", "cijena", "prijs", "pris", "hinta",
	"fiyat", "цена", "ціна"}

// otherPriceWords mark, in an id or class, a price that is not the one to pay: a former
// price, a price per unit, a saving, shipping.
var otherPriceWords = []string{"old", "was", "strike", "regular", "list", "compare", "before", "original", "save", "saving",
	"discount", "unit", "per-", "shipping", "delivery", "range", "from", "instal", "month", "crossed", "rrp", "uvp", "msrp", "vat-excl", "excl"}

// netWords say that a price is before tax.
var netWords = []string{"excl", "without tax", "before tax", "ex vat", "ex. vat", "+ vat", "netto", "ohne mwst", "zzgl", "hors taxe",
	"sans tva", " ht", "sin iva", "senza iva", "bez dph", "bez vat", "brez ddv", "bez pdv", "netto", "áfa nélkül", "без ндс"}

// currencyOf returns the code of the currency that the price text t is written in, when
// its symbol or code says so unambiguously; "" otherwise.
func currencyOf(t string) string {
	for _, c := range []struct{ sign, code string }{
		{"€", "EUR"}, {"£", "GBP"}, {"zł", "PLN"}, {"₹", "INR"}, {"₽", "RUB"}, {"₸", "KZT"}, {"₺", "TRY"}, {"Kč", "CZK"},
		{"R$", "BRL"}, {"CHF", "CHF"}, {"USD", "USD"}, {"EUR", "EUR"}, {"GBP", "GBP"}, {"NT$", "TWD"}, {"¥", "JPY"},
	} {
		if strings.Contains(t, c.sign) {
			return c.code
		}
	}
	return ""
}
