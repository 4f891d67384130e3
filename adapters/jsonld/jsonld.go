// Package jsonld is the built-in generic adapter that reads schema.org product data from
// a page's JSON-LD: Product, ProductGroup with hasVariant, Offer, AggregateOffer and
// BreadcrumbList, from JSON-LD and from microdata (which the host hands over in JSON-LD's
// shape). What they leave unknown (title, price, sku, availability) it reads from the
// page's own product in its embedded application state (appstate.go). It targets no
// platform: it runs after the platform adapter and fills what that one left unknown.
package jsonld

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the JSON-LD adapter.
type Adapter struct{}

// Version is the adapter's version; its manifest repeats it. Its minor is the ABI minor
// the module needs (adapters/builtin/README.md).
const Version = "1.7.2"

func (Adapter) Info() sdk.Info { return sdk.Info{Name: "jsonld", Version: Version} }

// Extract reads the page's main product: JSON-LD first, then microdata, the first Product
// (or ProductGroup) entity that carries a price, else the first one at all; then the
// application state for what they leave unknown, or for the whole product when the page
// has no structured data.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	var items []sdk.Value
	var crumbs []sdk.Breadcrumb
	for _, entities := range []sdk.Value{page.JSONLD(), page.Microdata()} {
		for _, e := range entities.Array() {
			switch {
			case isProduct(e):
				items = append(items, e)
			case isType(e, "BreadcrumbList"):
				if crumbs == nil {
					crumbs = breadcrumbs(e)
				}
			case isType(e, "Offer") && isProduct(e.Get("itemOffered")):
				// An Offer wrapping its product: read it as the product with that offer.
				items = append(items, e.Get("itemOffered"))
			default:
				if m := e.Get("mainEntity"); isProduct(m) {
					items = append(items, m)
				}
			}
		}
	}
	if len(items) == 0 {
		// No structured data: the page's product may still be in its application state.
		p := &sdk.Product{Breadcrumbs: crumbs}
		if own, found := fillFromState(page, page.AppState(), p); !found || (p.Price == nil && p.SKU == nil) || isListing(own) {
			// An object named as the page is but without a price or a code, or holding a
			// list of products, is the page's category, not its product.
			return nil, sdk.NonProduct("no schema.org Product in JSON-LD or microdata, nor the page's product in its application state")
		}
		return p, nil
	}
	item := items[0]
	for _, it := range items {
		if pr, _ := offer(it.Get("offers")); pr != nil {
			item = it
			break
		}
	}
	p := &sdk.Product{
		Title:       text(item.Get("name")),
		Description: text(item.Get("description")),
		SKU:         sku(item, page),
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
	if p.IsAvailable != nil && !*p.IsAvailable && len(item.Get("offers").List()) == 1 && !item.Get("hasVariant").Exists() {
		// One Offer out of stock often describes the default variant only (a size); a page
		// that still lets the shopper put the product in the cart sells other variants.
		if enabled, _ := sdk.BuyButtons(page.HTML()); enabled > 0 {
			t := true
			p.IsAvailable = &t
		}
	}
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
	if lacksState(p) {
		fillFromState(page, page.AppState(), p)
	}
	return p, nil
}

// isType and isProduct read schema.org types as the ranker does.
var (
	isType    = rank.IsType
	isProduct = rank.IsProduct
)

// sku is the product's own code: the one the page displays after a label (see
// sdk.DisplayedSKU: structured data often carries a variant's code or an internal id
// instead), else sku, else the sku of its only offer, else productID (without a "sku:"
// style prefix).
func sku(item sdk.Value, page *sdk.Doc) *string {
	if s := sdk.DisplayedSKU(page.HTML()); s != "" {
		return &s
	}
	if s := text(item.Get("sku")); s != nil {
		return code(s)
	}
	if offers := item.Get("offers").List(); len(offers) == 1 {
		if s := text(offers[0].Get("sku")); s != nil {
			return code(s)
		}
	}
	if s := text(item.Get("productID")); s != nil {
		if i := strings.IndexByte(*s, ':'); i > 0 && i < 6 && !strings.Contains(*s, "//") {
			v := strings.TrimSpace((*s)[i+1:])
			return code(&v)
		}
		return code(s)
	}
	return nil
}

// code keeps the first word of a code followed by words ("TE502-14 Housse de chaise", as
// microdata taken from an element's text reads): a product code has no spaces.
func code(s *string) *string {
	first, rest, found := strings.Cut(*s, " ")
	if !found || !strings.ContainsAny(first, "0123456789") || strings.ContainsAny(rest, "0123456789") {
		return s
	}
	return &first
}

// price reads a price given as a number or as displayed text ("1.299,00 €").
func price(v sdk.Value) (float64, bool) {
	if f, ok := v.Float(); ok {
		return f, true
	}
	if v.Kind() != sdk.String {
		return 0, false
	}
	return sdk.ParsePrice(v.String())
}

// availability reads a schema.org ItemAvailability in any spelling: a URL, a bare name,
// lower case, or words ("in stock"). ok is false when it says neither.
func availability(v sdk.Value) (in, ok bool) {
	a := strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(v.String()))
	switch {
	case a == "":
		return false, false
	case strings.Contains(a, "outofstock"), strings.Contains(a, "soldout"), strings.Contains(a, "discontinued"), strings.Contains(a, "unavailable"):
		return false, true
	case strings.Contains(a, "instock"), strings.Contains(a, "preorder"), strings.Contains(a, "presale"), strings.Contains(a, "backorder"),
		strings.Contains(a, "limitedavailability"), strings.Contains(a, "onlineonly"), strings.Contains(a, "instoreonly"), a == "available":
		return true, true
	}
	return false, false
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
	consider := func(pr *sdk.Price) {
		if pr != nil && pr.Current > 0 && (best == nil || pr.Current < best.Current) {
			best = pr
		}
	}
	for _, o := range v.List() {
		if o.Kind() != sdk.Object {
			continue
		}
		if a, ok := availability(o.Get("availability")); ok && (avail == nil || a) {
			avail = &a
		}
		if isType(o, "AggregateOffer") && !o.Get("price").Exists() {
			if low, ok := price(o.Get("lowPrice")); ok {
				consider(&sdk.Price{Current: low, Currency: o.Get("priceCurrency").String()})
			}
			if sub := o.Get("offers"); sub.Exists() {
				sp, sa := offer(sub)
				if best == nil {
					consider(sp)
				}
				if sa != nil && (avail == nil || *sa) {
					avail = sa
				}
			}
			continue
		}
		for _, spec := range []string{"", "priceSpecification.", "priceSpecification.0."} {
			f, ok := price(o.Get(spec + "price"))
			if !ok {
				continue
			}
			pr := &sdk.Price{Current: f, Currency: o.Get(spec + "priceCurrency").String()}
			if pr.Currency == "" {
				pr.Currency = o.Get("priceCurrency").String()
			}
			consider(pr)
			break
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
