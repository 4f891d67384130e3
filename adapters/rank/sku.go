package rank

import (
	"strings"
	"unicode"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// strongLabels are the labels that name a store's own product code; the others
// ("reference", "code", "ASIN") name one less surely.
var strongLabels = []string{"sku", "item number", "item no", "item #", "article number", "article no", "art.-nr", "art.nr",
	"art. nr", "artikelnummer", "artikel-nr", "artikelnr", "artikel nr", "product code", "product number", "product no",
	"codice articolo", "codice prodotto", "kod produktu", "numer katalogowy", "cikkszám", "код товара", "артикул",
	"varenummer", "tuotenumero", "ürün kodu", "ebay item number", "numero oggetto", "商品編號", "商品编号", "型番"}

// gatherSKUs reads the product code candidates: structured sku, productID, mpn and gtin,
// code meta tags, labelled codes on the page, and code-like words of the URL.
func (r *reader) gatherSKUs(p *Page) {
	var cands []Candidate
	add := func(src Source, value, where string, kind Feature, el *element) {
		value = strings.TrimSpace(value)
		if value == "" {
			return
		}
		c := Candidate{Field: SKU, Source: src, Value: value, Where: where, el: el}
		if kind != Bias {
			c.Features[kind] = 1
		}
		cands = append(cands, c)
	}
	for i, e := range r.products {
		f := e.Strings("sku", "productID", "mpn", "gtin13", "gtin", "gtin12", "gtin14", "gtin8", "isbn")
		start := len(cands)
		add(JSONLD, codeWord(f[0]), "jsonld sku", Bias, nil)
		add(JSONLD, stripCodePrefix(f[1]), "jsonld productID", KindProductID, nil)
		add(JSONLD, f[2], "jsonld mpn", KindMPN, nil)
		for _, g := range f[3:] {
			if g != "" {
				add(JSONLD, g, "jsonld gtin", KindGTIN, nil)
				break
			}
		}
		if offers := e.Get("offers").List(); len(offers) == 1 {
			add(JSONLD, codeWord(offers[0].Get("sku").String()), "jsonld offers.sku", Bias, nil)
		}
		if i == 0 {
			for j := start; j < len(cands); j++ {
				cands[j].Features[FirstEntity] = 1
			}
		}
	}
	props := r.propsNamed("sku", "productid", "mpn", "gtin13", "gtin", "gtin12", "gtin14", "gtin8")
	values, scopes := propValues(props), productScopes(props)
	for i, pr := range props {
		kind := Bias
		switch {
		case pr.name == "productid":
			kind = KindProductID
		case pr.name == "mpn":
			kind = KindMPN
		case strings.HasPrefix(pr.name, "gtin"):
			kind = KindGTIN
		}
		add(pr.source, codeWord(stripCodePrefix(values[i])), "itemprop "+pr.name, kind, nil)
		if scopes[i] && len(cands) > 0 {
			cands[len(cands)-1].Features[ProductScope] = 1
		}
	}
	for _, key := range []string{"product:retailer_item_id", "product:sku", "og:sku", "product:mfr_part_no"} {
		if m, ok := r.meta(key); ok {
			add(Meta, m.content, "meta "+key, Bias, nil)
		}
	}
	labelled := sdk.LabelledCodes(r.root, 8)
	nodes := make([]sdk.Node, len(labelled))
	for i, l := range labelled {
		nodes[i] = l.Node
	}
	els := r.describe(nodes)
	for i, l := range labelled {
		add(Label, l.Code, "after "+l.Label, Bias, &els[i])
		for _, s := range strongLabels {
			if l.Label == s {
				cands[len(cands)-1].Features[StrongLabel] = 1
			}
		}
	}
	for _, code := range r.urlCodes {
		add(URL, code, "url", Bias, nil)
	}
	for i := range cands {
		r.skuFeatures(&cands[i])
	}
	agree(cands, func(c *Candidate) string { return strings.ToLower(c.Value) })
	p.Candidates[SKU] = cands
}

// skuFeatures describes a code candidate and applies the code rules.
func (r *reader) skuFeatures(c *Candidate) {
	v := r.baseFeatures(c)
	digits, letters := 0, 0
	for _, ch := range c.Value {
		switch {
		case unicode.IsDigit(ch):
			digits++
		case unicode.IsLetter(ch):
			letters++
		}
	}
	if digits > 0 && letters == 0 {
		v[DigitsOnly] = 1
		if n := len(c.Value); n == 8 || n == 12 || n == 13 || n == 14 {
			v[GTINLike] = 1
		}
	}
	if digits > 0 && letters > 0 {
		v[LettersDigits] = 1
	}
	v[CodeLength] = min(float64(len(c.Value)), 20) / 20
	for _, code := range r.urlCodes {
		if c.Source == URL || strings.EqualFold(code, c.Value) {
			v[InURL] = 1
		}
	}
	switch {
	case len(c.Value) < 3 || len(c.Value) > 40:
		c.Excluded = "not a code's length"
	case strings.ContainsAny(c.Value, " \t\n"):
		c.Excluded = "more than one word"
	case strings.Contains(c.Value, "{{") || strings.Contains(c.Value, "${"):
		c.Excluded = "an unrendered template key"
	}
}

// codeWord keeps the first word of a code followed by words ("TE502-14 Housse de
// chaise", as microdata taken from an element's text reads): a product code has no spaces.
func codeWord(s string) string {
	s = strings.TrimSpace(s)
	first, rest, found := strings.Cut(s, " ")
	if !found || !strings.ContainsAny(first, "0123456789") || strings.ContainsAny(rest, "0123456789") {
		return s
	}
	return first
}

// stripCodePrefix drops a scheme-like prefix of a productID ("sku:1234", "isbn:978…").
func stripCodePrefix(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, ':'); i > 0 && i < 6 && !strings.Contains(s, "//") {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}
