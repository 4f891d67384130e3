package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// stockLine reads whether the product is in stock from what the page states: an
// itemprop availability anywhere; else the short text of an element whose id or class
// speaks of availability or stock; else a labelled stock line. ok is false when the page
// says nothing it recognises.
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
		case strings.Contains(v, "outofstock") || strings.Contains(v, "soldout") || strings.Contains(v, "discontinued") || containsAny(v, outOfStockWords):
			return false, true
		case strings.Contains(v, "instock") || strings.Contains(v, "preorder") || strings.Contains(v, "limitedavailability") || containsAny(v, inStockWords):
			return true, true
		}
	}
	// The first stock line in document order is the product's own. Popups and alerts
	// hold the texts for other states, so they are skipped.
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
		if containsAny(t, outOfStockWords) {
			return false, true
		}
		if containsAny(t, inStockWords) {
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
		if containsAny(t, outOfStockWords) {
			return false, true
		}
		if containsAny(t, inStockWords) {
			return true, true
		}
	}
	return false, false
}

// outOfStockWords say, in a stock line, that a product is sold out.
var outOfStockWords = []string{
	"out of stock", "sold out", "currently unavailable", "not available", "unavailable", "no longer available", "not in stock",
	"nicht verfügbar", "nicht lieferbar", "ausverkauft", "nicht auf lager", "vergriffen", "épuisé", "rupture de stock", "indisponible",
	"non disponible", "non disponibile", "esaurito", "agotado", "sin stock", "no disponible", "esgotado", "indisponível",
	"niedostępny", "brak w magazynie", "wyprzedany", "nedostupné", "vyprodáno", "nie je skladom", "nincs készleten",
	"нет в наличии", "немає в наявності", "uitverkocht", "niet op voorraad", "slutsåld", "ikke på lager", "udsolgt", "loppu",
	"tükendi", "stokta yok", "缺貨", "售完", "在庫切れ", "품절", "غير متوفر",
}

// inStockWords say, in a stock line, that a product is available to buy.
var inStockWords = []string{
	"in stock", "available", "em stock", "auf lager", "lieferbar", "sofort verfügbar", "verfügbar", "en stock", "disponible", "disponibile",
	"in magazzino", "disponibilità immediata", "en existencia", "em estoque", "disponível", "dostępny", "na stanie", "w magazynie",
	"skladem", "na sklade", "raktáron", "készleten", "в наличии", "є в наявності", "op voorraad", "leverbaar", "på lager",
	"varastossa", "stokta", "na zalogi", "dobavljivo", "na stanju", "dostupno", "sandėlyje", "noliktavā", "laos",
	"有庫存", "有货", "現貨", "在庫あり", "재고",
}

// stockLabels start a labelled stock line, such as "Availability: In stock".
var stockLabels = []string{"availability", "in stock", "stock", "verfügbarkeit", "lieferstatus", "lagerstatus", "disponibilité",
	"disponibilidad", "disponibilità", "disponibilidade", "dostępność", "dostupnost", "dostupnosť", "razpoložljivost", "raspoloživost",
	"elérhetőség", "наличие", "наявність", "beschikbaarheid", "voorraad", "saatavuus", "lagerstatus", "stok durumu", "在庫"}
