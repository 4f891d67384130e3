package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// displayedPrice finds the price a shopper sees: the innermost element whose id or class
// says price, not struck out and not a price of another kind, whose short text holds an
// amount, in the smallest block around the page's title (its first non-empty h1) that
// has one.
func displayedPrice(root sdk.Node) (shownPrice, bool) {
	// The smallest block around the title that shows a price holds the product's own: a
	// related product's price sits further out. Without a title to anchor on, the first
	// price of a page is as likely a mini-cart's or a banner's as the product's: no guess.
	// Nor when the nearest price is more than maxPriceLevels blocks out: that is the page
	// frame, where carousels of other products are.
	scope := root.FindOne("(//h1[normalize-space()])[1]")
	for level := 0; scope.Exists() && level <= maxPriceLevels; level++ {
		if f, cur, ok := firstPrice(scope); ok {
			return shownPrice{amount: f, currency: cur, levelsAboveTitle: level, pricesInBlock: pricesUnder(scope)}, true
		}
		scope = scope.FindOne("..")
	}
	return shownPrice{}, false
}

// maxPriceLevels bounds how far above the title displayedPrice looks.
const maxPriceLevels = 8

// shownPrice is a displayed price: its amount and currency, how many levels above the title
// the block holding it is, and how many prices that block shows.
type shownPrice struct {
	amount           float64
	currency         string
	levelsAboveTitle int
	pricesInBlock    int
}

// isAloneByTitle reports whether the price sits right by the title, on its own: a product's
// heading block, not a listing's grid of tiles.
func (s shownPrice) isAloneByTitle() bool { return s.levelsAboveTitle <= 3 && s.pricesInBlock <= 2 }

// firstPrice returns the first shown price under scope, in document order.
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
			// A container of several prices, or a struck-out one.
			continue
		}
		if around := strings.ToLower(n.FindOne("..").Text()); len(around) < 80 && containsAny(around, netWords) {
			// A price before tax, shown next to the one to pay.
			continue
		}
		if f, ok := sdk.ParsePrice(t); ok && f > 0 {
			return f, currencyOf(t), true
		}
	}
	return 0, "", false
}

// pricesUnder counts the price elements with text under n, n included.
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

// priceHints are id and class words of the shown price's element; otherPriceWords those of
// prices that are not the one to pay (struck-out, per unit, savings, shipping).
var otherPriceWords = []string{"old", "was", "strike", "regular", "list", "compare", "before", "original", "save", "saving",
	"discount", "unit", "per-", "shipping", "delivery", "range", "from", "instal", "month", "crossed", "rrp", "uvp", "msrp", "vat-excl", "excl"}

// netWords say a price is before tax.
var netWords = []string{"excl", "without tax", "before tax", "ex vat", "ex. vat", "+ vat", "netto", "ohne mwst", "zzgl", "hors taxe",
	"sans tva", " ht", "sin iva", "senza iva", "bez dph", "bez vat", "brez ddv", "bez pdv", "netto", "áfa nélkül", "без ндс"}

// currencyOf names the currency a displayed amount is written in, when its symbol or code
// says so unambiguously.
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
