package magento

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// components are the JSON of a page's text/x-magento-init scripts: each maps element
// selectors to the components initialised on them, and each component to its
// configuration.
type components []gjson.Result

// initScripts reads the page's text/x-magento-init scripts. A script's text comes with
// its white space collapsed, which changes no value the adapter reads.
func initScripts(root sdk.Node) components {
	var out components
	for _, s := range sdk.Nodes(root.Select(`script[type="text/x-magento-init"]`)).Text() {
		if gjson.Valid(s) {
			out = append(out, gjson.Parse(s))
		}
	}
	return out
}

// config is the configuration of the first component named name.
func (cs components) config(name string) gjson.Result {
	var found gjson.Result
	for _, script := range cs {
		script.ForEach(func(_, element gjson.Result) bool {
			found = element.Get(storefront.JSONKey(name))
			return !found.Exists()
		})
		if found.Exists() {
			return found
		}
	}
	return gjson.Result{}
}

// configurable is the configuration a configurable product's options are initialised
// with: the swatch renderer's jsonConfig, or the drop-down's spConfig.
func (cs components) configurable() gjson.Result {
	if c := cs.config("Magento_Swatches/js/swatch-renderer").Get("jsonConfig"); c.Exists() {
		return c
	}
	return cs.config("configurable").Get("spConfig")
}

// readConfigurable reads a configurable product's configuration into its options and
// variants.
//
// The configuration lists the product's attributes (each with its label, position and
// options, an option naming the children that have it and can be sold), and keys the
// children by id in "index" (each child's option per attribute) and "optionPrices" (its
// final and old price). A store that shows products out of stock keeps its unsalable
// children in the index but out of every option's list: they are the unavailable
// variants. Some versions add each child's SKU under "sku".
func readConfigurable(p *sdk.Product, config gjson.Result, currency string) {
	type option struct{ id, label string }
	type attribute struct {
		id, label string
		position  int
		options   []option
	}
	var attrs []attribute
	salable := map[string]bool{}
	config.Get("attributes").ForEach(func(_, a gjson.Result) bool {
		attr := attribute{id: a.Get("id").String(), label: a.Get("label").String(), position: int(a.Get("position").Int())}
		a.Get("options").ForEach(func(_, o gjson.Result) bool {
			attr.options = append(attr.options, option{o.Get("id").String(), o.Get("label").String()})
			if len(attrs) == 0 {
				for _, child := range o.Get("products").Array() {
					salable[child.String()] = true
				}
			}
			return true
		})
		attrs = append(attrs, attr)
		return true
	})
	sort.SliceStable(attrs, func(i, j int) bool { return attrs[i].position < attrs[j].position })
	for i, a := range attrs {
		opt := sdk.Option{Name: a.label, Position: i + 1}
		for _, o := range a.options {
			opt.Values = append(opt.Values, o.label)
		}
		p.Options = append(p.Options, opt)
	}

	prices, skus := config.Get("optionPrices"), config.Get("sku")
	chosen := -1
	anySalable := false
	config.Get("index").ForEach(func(child, values gjson.Result) bool {
		id := child.String()
		v := sdk.Variant{ID: id, Options: map[string]string{}, SKU: storefront.NonEmpty(skus.Get(storefront.JSONKey(id)).String())}
		var title []string
		for _, a := range attrs {
			optionID := values.Get(storefront.JSONKey(a.id)).String()
			for _, o := range a.options {
				if o.id == optionID {
					v.Options[a.label] = o.label
					title = append(title, o.label)
				}
			}
		}
		if len(title) > 0 {
			t := strings.Join(title, " / ")
			v.Title = &t
		}
		available := salable[id]
		v.IsAvailable = &available
		price := prices.Get(storefront.JSONKey(id))
		if final := price.Get("finalPrice.amount"); final.Exists() {
			v.Price = &sdk.Price{Current: storefront.Cents(final.Float()), Currency: currency}
			if old := storefront.Cents(price.Get("oldPrice.amount").Float()); old > v.Price.Current {
				v.Price.CompareAt = &old
			}
		}
		if available {
			anySalable = true
			if chosen < 0 {
				chosen = len(p.Variants)
			}
		}
		p.Variants = append(p.Variants, v)
		return true
	})
	if len(p.Variants) == 0 {
		return
	}
	// The product's price is its first salable child's, as Shopify's adapter takes the
	// first available variant's: the configurable's own "As low as" is the lowest of all.
	if pr := p.Variants[max(chosen, 0)].Price; pr != nil {
		price := *pr
		p.Price = &price
	}
	p.IsAvailable = &anySalable
}

// galleryImages are the images of the product gallery's configuration (mage/gallery/gallery):
// each one's full size, caption and position.
func galleryImages(cs components) []sdk.Image {
	var out []sdk.Image
	cs.config("mage/gallery/gallery").Get("data").ForEach(func(_, im gjson.Result) bool {
		src := im.Get("full").String()
		if src == "" {
			src = im.Get("img").String()
		}
		if src == "" {
			return true
		}
		position := len(out) + 1
		if n, err := strconv.Atoi(im.Get("position").String()); err == nil && n > 0 {
			position = n
		}
		out = append(out, sdk.Image{URL: src, AltText: storefront.NonEmpty(im.Get("caption").String()), Position: position})
		return true
	})
	return out
}
