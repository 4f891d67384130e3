package html

import (
	"strings"
	"unicode"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// The heuristics below read what a shopper reads: the buy button, the stock line and the
// labelled codes next to the product. They hold words in the languages stores commonly
// use; none names a store.

// buyWords mark a control that puts the product in a cart or buys it, in its text, value,
// id, class, name or label.
var buyWords = []string{
	"add to cart", "add to bag", "add to basket", "add to trolley", "buy now", "buy it now", "addtocart", "add-to-cart", "add_to_cart",
	"addtobag", "add-to-bag", "addtobasket", "add-to-basket", "buy-button", "buybutton", "buy_button",
	"in den warenkorb", "in den einkaufswagen", "jetzt kaufen", "warenkorb", "ajouter au panier", "acheter", "añadir al carrito",
	"agregar al carrito", "añadir a la cesta", "comprar", "aggiungi al carrello", "acquista", "do koszyka", "kup teraz",
	"в корзину", "купить", "adicionar ao carrinho", "in winkelwagen", "bestellen", "lägg i varukorgen", "læg i kurv", "legg i handlekurv",
	"kosárba", "do košíku", "do košarice", "v košarico", "sepete ekle", "lisää ostoskoriin", "į krepšelį", "ielikt grozā", "в кошик",
	"加入購物車", "加入购物车", "立即購買", "カートに入れる", "장바구니", "أضف إلى",
}

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

// buyControls returns the enabled and disabled buy controls of the page.
func buyControls(root sdk.Node) (enabled, disabled int) {
	for _, n := range root.Find("//button | //input[@type='submit' or @type='button' or @type='image'] | //a[@role='button' or contains(@class,'btn') or contains(@class,'button') or contains(@id,'cart') or contains(@id,'Cart')]") {
		desc := strings.ToLower(n.Attr("id") + " " + n.Attr("class") + " " + n.Attr("name") + " " + n.Attr("value") + " " + n.Attr("aria-label") + " " + n.Attr("title"))
		if t := n.Text(); len(t) < 60 {
			desc += " " + strings.ToLower(t)
		}
		if !containsAny(desc, buyWords) || strings.Contains(desc, "wishlist") || strings.Contains(desc, "wish-list") {
			continue
		}
		if _, off := n.AttrOK("disabled"); off || strings.Contains(desc, "disabled") {
			disabled++
			continue
		}
		enabled++
	}
	return enabled, disabled
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
	return false, false
}

// skuLabels start the text a store puts before a product's code; matched in lower case at
// the start of a short text.
var skuLabels = []string{
	"sku", "ebay item number", "item number", "numero oggetto", "item no", "item #", "item code", "article number", "article no",
	"art.-nr", "art.nr", "art. nr", "artikelnummer", "artikel-nr", "artikelnr", "artikel nr", "bestellnummer", "product code",
	"product number", "product no", "product id", "productcode", "part number", "asin", "référence", "reference", "réf", "ref.",
	"código", "codigo", "cód.", "cod.", "codice articolo", "codice prodotto", "codice", "kod produktu", "kod towaru", "numer katalogowy",
	"indeks", "šifra", "sifra", "katalógové číslo", "kód produktu", "kód", "cikkszám", "термін", "код товара", "артикул",
	"varenummer", "varenr", "tuotenumero", "ürün kodu", "stock code", "catalog number", "cat. no", "商品編號", "商品编号", "型番",
}

// labelledSKU finds a code written after one of skuLabels: in the same text ("SKU: 123")
// or in the next text of the page (a definition list or a table row).
func labelledSKU(root sdk.Node) string {
	for i, n := range root.FindLabels(skuLabels...) {
		if i >= 20 {
			break
		}
		t := invisible.Replace(n.Text())
		low := strings.ToLower(t)
		label := ""
		for _, l := range skuLabels {
			if strings.HasPrefix(low, l) && len(l) > len(label) {
				label = l
			}
		}
		rest := strings.TrimLeft(t[len(label):], " :#.-\u00a0")
		if len(label) > 0 && len(rest) > 0 && unicode.IsLetter(rune(rest[0])) && !strings.ContainsAny(t[len(label):len(label)+1], " :#.\u00a0") {
			// "skuId", "references": the label is part of a longer word.
			continue
		}
		if code := skuCode(rest); code != "" {
			return code
		}
		if rest != "" {
			continue
		}
		if code := skuCode(invisible.Replace(n.TextOf("following::text()[normalize-space(.)][1]"))); code != "" {
			return code
		}
	}
	return ""
}

// invisible drops the format characters pages put between a label and its colon.
var invisible = strings.NewReplacer("\u200e", "", "\u200f", "", "\u200b", "", "\ufeff", "", "\u2060", "")

// skuCode returns s when it looks like a product code: one word of 3 to 40 letters, digits
// and - _ / . with at least one digit.
func skuCode(s string) string {
	s = strings.Trim(strings.TrimSpace(s), ".,;:)(")
	if len(s) < 3 || len(s) > 40 || !strings.ContainsAny(s, "0123456789") {
		return ""
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("-_/.", r) {
			return ""
		}
	}
	return s
}

// priceHints are id and class words of the shown price's element; priceNots those of
// prices that are not the one to pay (struck-out, per unit, savings, shipping).
var priceNots = []string{"old", "was", "strike", "regular", "list", "compare", "before", "original", "save", "saving",
	"discount", "unit", "per-", "shipping", "delivery", "range", "from", "instal", "month", "crossed", "rrp", "uvp", "msrp", "vat-excl", "excl"}

// displayedPrice finds the price a shopper sees: the innermost element whose id or class
// says price, after the page heading, not struck out and not a price of another kind,
// whose short text holds an amount. The first such element after the h1 is the one next to
// the product's title and buy button; related products come later.
func displayedPrice(root sdk.Node) (float64, string, bool) {
	// The smallest block around the title that shows a price holds the product's own: a
	// related product's price sits further out.
	scope := root.FindOne("//h1")
	for level := 0; scope.Exists(); level++ {
		if f, cur, ok := firstPrice(scope); ok {
			return f, cur, true
		}
		if level >= 8 {
			break
		}
		scope = scope.FindOne("..")
	}
	return firstPrice(root)
}

// firstPrice returns the first shown price under scope, in document order.
func firstPrice(scope sdk.Node) (float64, string, bool) {
	for i, n := range scope.FindClass("price") {
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
		if len(n.FindClass("price")) > 1 || n.FindOne("ancestor-or-self::*[self::del or self::s or self::strike]").Exists() {
			// A container of several prices, or a struck-out one.
			continue
		}
		if f, ok := sdk.ParsePrice(t); ok && f > 0 {
			return f, currencyOf(t), true
		}
	}
	return 0, "", false
}

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
