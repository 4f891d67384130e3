// Package jsonld is the built-in generic adapter that reads schema.org product data from
// a page's JSON-LD: Product, ProductGroup with hasVariant, Offer, AggregateOffer and
// BreadcrumbList. It targets no platform: it runs after the platform adapter and fills
// what that one left unknown.
//
// This is the first cut; microdata, OpenGraph and the real-world quirks come next.
package jsonld

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the JSON-LD adapter.
type Adapter struct{}

func (Adapter) Info() sdk.Info { return sdk.Info{Name: "jsonld", Version: "1.0.0"} }

// Extract reads the first Product or ProductGroup entity of the page.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	var item sdk.Value
	var crumbs []sdk.Breadcrumb
	for _, e := range page.JSONLD().Array() {
		switch {
		case !item.Exists() && (isType(e, "Product") || isType(e, "ProductGroup")):
			item = e
		case isType(e, "BreadcrumbList"):
			crumbs = breadcrumbs(e)
		}
	}
	if !item.Exists() {
		return nil, sdk.NonProduct("no schema.org Product in JSON-LD")
	}
	p := &sdk.Product{
		Title:       text(item.Get("name")),
		Description: text(item.Get("description")),
		SKU:         text(item.Get("sku")),
		MPN:         text(item.Get("mpn")),
		GTIN:        gtin(item),
		Breadcrumbs: crumbs,
	}
	if b := item.Get("brand"); b.Kind() == sdk.Object {
		p.Brand = text(b.Get("name"))
	} else {
		p.Brand = text(b)
	}
	if u := item.Get("url").String(); u != "" {
		p.CanonicalURL = &u
	}
	for i, img := range item.Get("image").List() {
		u := img.String()
		if img.Kind() == sdk.Object {
			u = img.Get("url").String()
			if u == "" {
				u = img.Get("contentUrl").String()
			}
		}
		if u != "" {
			p.Images = append(p.Images, sdk.Image{URL: c.Resolve(u), Position: i + 1})
		}
	}
	p.Price, p.IsAvailable = offer(item.Get("offers"))
	for _, v := range item.Get("hasVariant").List() {
		pr, avail := offer(v.Get("offers"))
		p.Variants = append(p.Variants, sdk.Variant{
			ID: v.Get("sku").String(), Title: text(v.Get("name")), SKU: text(v.Get("sku")),
			GTIN: gtin(v), IsAvailable: avail, Price: pr,
		})
		if p.Price == nil {
			p.Price = pr
		}
		if avail != nil && *avail {
			t := true
			p.IsAvailable = &t
		}
	}
	return p, nil
}

// isType reports whether an entity's @type is t or lists it.
func isType(e sdk.Value, t string) bool {
	for _, v := range e.Get("@type").List() {
		s := v.String()
		if s == t || strings.HasSuffix(s, "/"+t) {
			return true
		}
	}
	return false
}

func text(v sdk.Value) *string {
	s := strings.TrimSpace(v.String())
	if s == "" || v.Kind() == sdk.Object || v.Kind() == sdk.Array {
		return nil
	}
	return &s
}

func gtin(v sdk.Value) *string {
	for _, k := range []string{"gtin", "gtin13", "gtin12", "gtin14", "gtin8"} {
		if s := text(v.Get(k)); s != nil {
			return s
		}
	}
	return nil
}

// offer reads an Offer, an AggregateOffer or a list of offers: the lowest price, and
// whether any offer is in stock.
func offer(v sdk.Value) (*sdk.Price, *bool) {
	var best *sdk.Price
	var avail *bool
	for _, o := range v.List() {
		if isType(o, "AggregateOffer") && !o.Get("price").Exists() {
			if low, ok := o.Get("lowPrice").Float(); ok {
				pr := &sdk.Price{Current: low, Currency: o.Get("priceCurrency").String()}
				if best == nil || pr.Current < best.Current {
					best = pr
				}
			}
			if sub := o.Get("offers"); sub.Exists() {
				sp, sa := offer(sub)
				if best == nil && sp != nil {
					best = sp
				}
				if sa != nil && (avail == nil || *sa) {
					avail = sa
				}
			}
			continue
		}
		price := o.Get("price")
		if !price.Exists() {
			price = o.Get("priceSpecification.price")
		}
		if f, ok := price.Float(); ok {
			pr := &sdk.Price{Current: f, Currency: o.Get("priceCurrency").String()}
			if pr.Currency == "" {
				pr.Currency = o.Get("priceSpecification.priceCurrency").String()
			}
			if best == nil || pr.Current < best.Current {
				best = pr
			}
		}
		if a := o.Get("availability").String(); a != "" {
			in := strings.Contains(a, "InStock") || strings.Contains(a, "PreOrder") || strings.Contains(a, "LimitedAvailability") || strings.Contains(a, "OnlineOnly")
			if avail == nil || in {
				avail = &in
			}
		}
	}
	return best, avail
}

func breadcrumbs(list sdk.Value) []sdk.Breadcrumb {
	var out []sdk.Breadcrumb
	for _, el := range list.Get("itemListElement").List() {
		name := el.Get("name").String()
		url := el.Get("item").String()
		if item := el.Get("item"); item.Kind() == sdk.Object {
			url = item.Get("@id").String()
			if name == "" {
				name = item.Get("name").String()
			}
		}
		if name != "" {
			out = append(out, sdk.Breadcrumb{Name: name, URL: url})
		}
	}
	return out
}
