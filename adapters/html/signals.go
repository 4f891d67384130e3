package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// The heuristics below read what a shopper reads: the buy button, the stock line and the
// labelled codes next to the product. They hold words in the languages stores commonly
// use; none names a store.

// outWords and inWords are stock lines: sold out, and available to buy.
var outWords = []string{
	"out of stock", "sold out", "currently unavailable", "not available", "unavailable", "no longer available", "not in stock",
	"nicht verfügbar", "nicht lieferbar", "ausverkauft", "nicht auf lager", "vergriffen", "épuisé", "rupture de stock", "indisponible",
	"non disponible", "non disponibile", "esaurito", "agotado", "sin stock", "no disponible", "esgotado", "indisponível",
	"niedostępny", "brak w magazynie", "wyprzedany", "nedostupné", "vyprodáno", "nie je skladom", "nincs készleten",
	"нет в наличии", "немає в наявності", "uitverkocht", "niet op voorraad", "slutsåld", "ikke på lager", "udsolgt", "loppu",
	"tükendi", "stokta yok", "缺貨", "售完", "在庫切れ", "품절", "غير متوفر",
}

var inWords = []string{
	"in stock", "available", "em stock", "auf lager", "lieferbar", "sofort verfügbar", "verfügbar", "en stock", "disponible", "disponibile",
	"in magazzino", "disponibilità immediata", "en existencia", "em estoque", "disponível", "dostępny", "na stanie", "w magazynie",
	"skladem", "na sklade", "raktáron", "készleten", "в наличии", "є в наявності", "op voorraad", "leverbaar", "på lager",
	"varastossa", "stokta", "na zalogi", "dobavljivo", "na stanju", "dostupno", "sandėlyje", "noliktavā", "laos",
	"有庫存", "有货", "現貨", "在庫あり", "재고",
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// stockLine reads the availability a page states in words: an itemprop availability
// anywhere, else the short text of an element whose id or class speaks of availability or
// stock. ok is false when the page says nothing recognisable.
func stockLine(root sdk.Node) (in, ok bool) {
	for _, n := range root.Find("//*[@itemprop='availability']") {
		v, has := n.AttrOK("content")
		if !has {
			v, has = n.AttrOK("href")
		}
		if !has {
			v = n.Text()
		}
		v = strings.ToLower(v)
		switch {
		case strings.Contains(v, "outofstock") || strings.Contains(v, "soldout") || strings.Contains(v, "discontinued") || containsAny(v, outWords):
			return false, true
		case strings.Contains(v, "instock") || strings.Contains(v, "preorder") || strings.Contains(v, "limitedavailability") || containsAny(v, inWords):
			return true, true
		}
	}
	// The first stock line in document order is the product's own; popups and alerts
	// hold the texts for other states.
	for i, n := range root.FindClass("availability", "stock", "lager", "dispon", "inventory") {
		if i >= 200 {
			break
		}
		desc := strings.ToLower(n.Attr("id") + " " + n.Attr("class"))
		if containsAny(desc, []string{"popup", "modal", "dialog", "notify", "alert", "template", "hidden", "tooltip"}) {
			continue
		}
		t := strings.ToLower(n.Text())
		if t == "" || len(t) > 120 {
			continue
		}
		if containsAny(t, outWords) {
			return false, true
		}
		if containsAny(t, inWords) {
			return true, true
		}
	}
	// A labelled stock line: "Availability: In stock", "Verfügbarkeit: sofort lieferbar".
	for i, n := range root.FindLabels(stockLabels...) {
		if i >= 10 {
			break
		}
		t := strings.ToLower(n.Text())
		if _, v, found := strings.Cut(t, ":"); found && strings.TrimSpace(v) != "" {
			t = v
		} else {
			t = strings.ToLower(n.TextOf("following::text()[normalize-space(.)][1]"))
		}
		if containsAny(t, outWords) {
			return false, true
		}
		if containsAny(t, inWords) {
			return true, true
		}
	}
	return false, false
}

// stockLabels start a labelled stock line.
var stockLabels = []string{"availability", "in stock", "stock", "verfügbarkeit", "lieferstatus", "lagerstatus", "disponibilité",
	"disponibilidad", "disponibilità", "disponibilidade", "dostępność", "dostupnost", "dostupnosť", "razpoložljivost", "raspoloživost",
	"elérhetőség", "наличие", "наявність", "beschikbaarheid", "voorraad", "saatavuus", "lagerstatus", "stok durumu", "在庫"}

// priceHints are id and class words of the shown price's element; priceNots those of
// prices that are not the one to pay (struck-out, per unit, savings, shipping).
var priceNots = []string{"old", "was", "strike", "regular", "list", "compare", "before", "original", "save", "saving",
	"discount", "unit", "per-", "shipping", "delivery", "range", "from", "instal", "month", "crossed", "rrp", "uvp", "msrp", "vat-excl", "excl"}

// displayedPrice finds the price a shopper sees: the innermost element whose id or class
// says price, not struck out and not a price of another kind, whose short text holds an
// amount, in the smallest block around the page's title (its first non-empty h1) that
// has one.
func displayedPrice(root sdk.Node) (shown, bool) {
	// The smallest block around the title that shows a price holds the product's own: a
	// related product's price sits further out. Without a title to anchor on, the first
	// price of a page is as likely a mini-cart's or a banner's as the product's: no guess.
	// Nor when the nearest price is more than maxPriceLevels blocks out: that is the page
	// frame, where carousels of other products are.
	scope := root.FindOne("(//h1[normalize-space()])[1]")
	for level := 0; scope.Exists() && level <= maxPriceLevels; level++ {
		if f, cur, ok := firstPrice(scope); ok {
			return shown{amount: f, currency: cur, level: level, prices: pricesUnder(scope)}, true
		}
		scope = scope.FindOne("..")
	}
	return shown{}, false
}

// maxPriceLevels bounds how far above the title displayedPrice looks.
const maxPriceLevels = 8

// shown is a displayed price: its amount and currency, how many levels above the title
// the block holding it is, and how many prices that block shows.
type shown struct {
	amount   float64
	currency string
	level    int
	prices   int
}

// alone reports whether the price sits right by the title, on its own: a product's
// heading block, not a listing's grid of tiles.
func (s shown) alone() bool { return s.level <= 3 && s.prices <= 2 }

// firstPrice returns the first shown price under scope, in document order.
func firstPrice(scope sdk.Node) (float64, string, bool) {
	for i, n := range scope.FindClass(priceWords...) {
		if i >= 60 {
			break
		}
		desc := strings.ToLower(n.Attr("id") + " " + n.Attr("class"))
		if containsAny(desc, priceNots) {
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

// schemaProduct reports whether the page's JSON-LD or microdata describes a product, and
// whether that product is offered at a price.
func schemaProduct(page *sdk.Doc) (product, offered bool) {
	for _, entities := range []sdk.Value{page.JSONLD(), page.Microdata()} {
		for _, e := range entities.Array() {
			t := strings.ToLower(e.Get("@type").Raw())
			if !strings.Contains(t, "product") && !strings.Contains(t, "offer") {
				continue
			}
			product = true
			if e.Get("offers").Exists() || e.Get("price").Exists() {
				return true, true
			}
		}
	}
	return product, false
}
