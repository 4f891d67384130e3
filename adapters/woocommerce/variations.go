package woocommerce

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// readVariations reads a variable product's form (form.variations_form): its attributes
// as options, in the order of the form's rows, and its variations as variants, from the
// JSON WooCommerce writes into data-product_variations. Each variation names its
// attributes by the select's name ("attribute_pa_color") and its value by the option's
// value (a slug, "blue"); the form's labels and option texts give their names ("Farbe",
// "Blau"). An empty value means any value of that attribute. A product with more
// variations than WooCommerce writes in the page (30 by default) has "false" there and
// loads them by script: it gets options and no variants.
//
// The product's price is the price of the variation the form starts on: the one its
// default attributes select, else the first in stock, else the first.
func readVariations(p *sdk.Product, form sdk.Node, currency string) {
	type attribute struct {
		key, name string
		labels    map[string]string // option value -> text
		preset    string            // the value the form starts on, "" for none
	}
	var attrs []attribute
	for i, sel := range form.Select(`select[name^="attribute_"]`) {
		a := attribute{key: sel.Attr("name"), labels: map[string]string{}}
		a.name = sel.Ancestor("tr").SelectOne("th label, .label label, label").Text()
		if a.name == "" {
			a.name = strings.TrimPrefix(strings.TrimPrefix(a.key, "attribute_"), "pa_")
		}
		opt := sdk.Option{Name: a.name, Position: i + 1}
		options := sdk.Nodes(sel.Select(`option[value]:not([value=""])`))
		values, texts := options.Attr("value"), options.Text()
		for k, v := range values {
			a.labels[v] = texts[k]
			opt.Values = append(opt.Values, texts[k])
		}
		a.preset = sel.SelectOne("option[selected]").Attr("value")
		attrs = append(attrs, a)
		p.Options = append(p.Options, opt)
	}

	raw := form.Attr("data-product_variations")
	if !gjson.Valid(raw) {
		return
	}
	chosen, firstInStock := -1, -1
	anyInStock := false
	gjson.Parse(raw).ForEach(func(_, v gjson.Result) bool {
		variant := sdk.Variant{ID: v.Get("variation_id").String(), Options: map[string]string{}}
		inStock := v.Get("is_in_stock").Bool() && v.Get("is_purchasable").Bool()
		variant.IsAvailable = &inStock
		variant.SKU = storefront.NonEmpty(v.Get("sku").String())
		if price := v.Get("display_price"); price.Exists() {
			variant.Price = &sdk.Price{Current: price.Float(), Currency: currency}
			if was := v.Get("display_regular_price").Float(); was > variant.Price.Current {
				variant.Price.CompareAt = &was
			}
		}
		var title []string
		preset := len(attrs) > 0
		for _, a := range attrs {
			value := v.Get("attributes." + storefront.JSONKey(a.key)).String()
			if a.preset == "" || value != "" && value != a.preset {
				preset = false
			}
			if value == "" {
				continue
			}
			text, ok := a.labels[value]
			if !ok {
				text = value
			}
			variant.Options[a.name] = text
			title = append(title, text)
		}
		if len(title) > 0 {
			t := strings.Join(title, " / ")
			variant.Title = &t
		}
		k := len(p.Variants)
		if preset && chosen < 0 {
			chosen = k
		}
		if inStock {
			anyInStock = true
			if firstInStock < 0 {
				firstInStock = k
			}
		}
		p.Variants = append(p.Variants, variant)
		return true
	})
	if len(p.Variants) == 0 {
		return
	}
	if chosen < 0 {
		chosen = max(firstInStock, 0)
	}
	if pr := p.Variants[chosen].Price; pr != nil {
		price := *pr
		p.Price = &price
	}
	p.IsAvailable = &anyInStock
}
