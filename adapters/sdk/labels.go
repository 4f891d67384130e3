package sdk

import (
	"strings"
	"unicode"
)

// skuLabels start the text a store puts before a product's code; matched in lower case at
// the start of a short text.
var skuLabels = []string{
	"sku", "ebay item number", "item number", "numero oggetto", "item no", "item #", "item code", "article number", "article no",
	"art.-nr", "art.nr", "art. nr", "artikelnummer", "artikel-nr", "artikelnr", "artikel nr", "bestellnummer", "product code",
	"product number", "product no", "product id", "productcode", "part number", "asin", "référence", "reference", "réf", "ref.",
	"código", "codigo", "cód.", "cod.", "codice articolo", "codice prodotto", "codice", "kod produktu", "kod towaru", "numer katalogowy",
	"indeks", "šifra", "sifra", "katalógové číslo", "kód produktu", "kód", "cikkszám", "код товара", "код", "артикул",
	"varenummer", "varenr", "tuotenumero", "ürün kodu", "stock code", "catalog number", "cat. no", "商品編號", "商品编号", "型番",
	// Classified ads name the listing, which is what they sell.
	"post id", "ad id", "listing id", "item id", "anzeigennummer", "anzeigen-id",
}

// DisplayedSKU returns the product code a page shows its shoppers after a label ("SKU:",
// "Art.-Nr.", "Item number", "Réf.", and their kin in the languages stores use): in the same
// text ("SKU: 123") or in the next text of the page (a definition list, a table row); ""
// when there is none. The first labelled code in document order wins. Where a page's
// structured data carries another code (often a variant's or an internal id), this is the
// one shoppers and the store's search know the product by.
func DisplayedSKU(root Node) string {
	if codes := LabelledCodes(root, 1); len(codes) > 0 {
		return codes[0].Code
	}
	return ""
}

// LabelledCode is a product code a page shows after a label: the label as matched (in
// lower case, "sku", "item number"), the code, and the text node of the label.
type LabelledCode struct {
	Label, Code string
	Node        Node
}

// LabelledCodes returns the product codes the page shows after labels (see DisplayedSKU),
// in document order, at most limit of them.
func LabelledCodes(root Node, limit int) []LabelledCode {
	var out []LabelledCode
	for i, n := range root.FindLabels(skuLabels...) {
		if i >= 20 || len(out) >= limit {
			break
		}
		t := strings.TrimLeftFunc(invisible.Replace(n.Text()), unicode.IsPunct)
		low := strings.ToLower(t)
		label := ""
		for _, l := range skuLabels {
			if strings.HasPrefix(low, l) && len(l) > len(label) {
				label = l
			}
		}
		rest := strings.TrimLeft(t[len(label):], " :：#.-\u00a0")
		if strings.HasSuffix(rest, ":") || strings.HasSuffix(rest, "：") {
			// "Numero oggetto eBay:": the label goes on to its colon; the code follows.
			rest = ""
		}
		if len(label) > 0 && len(rest) > 0 && unicode.IsLetter(rune(rest[0])) && !strings.ContainsAny(t[len(label):len(label)+1], " :#.\u00a0") {
			// "skuId", "references": the label is part of a longer word.
			continue
		}
		if code := skuCode(rest); code != "" {
			out = append(out, LabelledCode{label, code, n})
			continue
		}
		if rest != "" {
			continue
		}
		if code := skuCode(invisible.Replace(n.TextOf("following::text()[normalize-space(.)][1]"))); code != "" {
			out = append(out, LabelledCode{label, code, n})
		}
	}
	return out
}

// invisible drops the format characters pages put between a label and its colon.
var invisible = strings.NewReplacer("\u200e", "", "\u200f", "", "\u200b", "", "\ufeff", "", "\u2060", "")

// skuCode returns s when it looks like a product code: one word of 3 to 40 letters, digits
// and - _ / . with at least one digit.
func skuCode(s string) string {
	s = strings.TrimFunc(strings.TrimSpace(s), func(r rune) bool { return unicode.IsPunct(r) && !strings.ContainsRune("-_/", r) })
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
