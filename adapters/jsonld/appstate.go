package jsonld

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// The page's embedded application state (sdk.Doc.AppState) is this adapter's fallback:
// a page whose structured data leaves the title, price, sku or availability unknown often
// has them in the JSON its scripts start from. The state is read only then, so a page with
// complete JSON-LD costs nothing more.

// lacksState reports whether p leaves unknown a field application state could give.
func lacksState(p *sdk.Product) bool {
	return p.Title == nil || p.Price == nil || p.SKU == nil || p.IsAvailable == nil
}

// fillFromState fills the fields p leaves unknown from the page's own product in its
// application state: the object whose sku or name is p's, or, when p has neither, whose
// name is the page's heading. A price the page states in meta tags
// (product:price:amount) is left to the html adapter, which reads them. It returns the
// page's product in the state and whether there was one.
func fillFromState(page *sdk.Doc, states []sdk.AppState, p *sdk.Product) (sdk.Value, bool) {
	own, found := ownProduct(page, states, p)
	if found {
		if p.Title == nil {
			p.Title = text(field(own, "name", "title", "productname", "producttitle", "displayname"))
		}
		if p.SKU == nil {
			p.SKU = text(field(own, skuKeys...))
		}
		if p.IsAvailable == nil {
			p.IsAvailable = stateAvailability(own)
		}
	}
	if p.Price == nil && !page.Contains("price:amount") {
		if found {
			p.Price = statePrice(own)
		}
		if p.Price == nil && (found || p.Title != nil) {
			// A Magento or WooCommerce page has its price configuration beside the product
			// its structured data names without a price.
			p.Price, p.IsAvailable = configPrice(states, p.IsAvailable)
		}
	}
	return own, found
}

// isListing reports whether a state object holds a list of products: two or more objects
// with a name and a price under one key (a category's products), other than its own
// variants, options and offers.
func isListing(o sdk.Value) bool {
	names, values := o.Keys(), o.Array()
	for i, v := range values {
		if i >= len(names) || v.Kind() != sdk.Array {
			continue
		}
		switch foldKey(names[i]) {
		case "variants", "options", "offers", "skus":
			continue
		}
		items := v.Array()
		if len(items) >= 2 && productLike(items[0]) && productLike(items[1]) {
			return true
		}
	}
	return false
}

// productLike reports whether v is an object with a name and a price.
func productLike(v sdk.Value) bool {
	return field(v, "name", "title", "productname", "displayname").Kind() == sdk.String && field(v, priceKeys...).Exists()
}

var skuKeys = []string{"sku", "productsku", "skuid", "skucode"}

// ownProduct is the object of states that is the page's product: the one whose sku or
// name is p's when p has them, else the one whose name is the page's main heading or
// stands whole in its title. A listing page's tiles name none of them.
func ownProduct(page *sdk.Doc, states []sdk.AppState, p *sdk.Product) (sdk.Value, bool) {
	var names []string
	if p.Title != nil {
		names = append(names, *p.Title)
	}
	var headings []string
	if p.Title == nil && p.SKU == nil {
		root := page.HTML()
		headings = []string{root.TextOf("//h1"), root.FindOne("//meta[@property='og:title']").Attr("content"), root.TextOf("//title")}
	}
	for _, s := range states {
		if s.Source == "magento" || s.Source == "woocommerce" {
			continue
		}
		o := s.Object
		if p.SKU != nil && field(o, skuKeys...).String() == *p.SKU {
			return o, true
		}
		name := normalName(field(o, "name", "title", "productname", "producttitle", "displayname").String())
		if name == "" {
			continue
		}
		for _, n := range names {
			if normalName(n) == name {
				return o, true
			}
		}
		for i, h := range headings {
			h = normalName(h)
			if h == name || (i > 0 && len(name) >= 8 && containsWords(h, name)) {
				return o, true
			}
		}
	}
	return sdk.Value{}, false
}

// normalName is a name lower-cased with its runs of white space made one space.
func normalName(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// containsWords reports whether the words of name stand together and whole in s.
func containsWords(s, name string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		if (start == 0 || !wordByte(s[start-1])) && (end == len(s) || !wordByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func wordByte(c byte) bool {
	return c >= 0x80 || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

// field is the value of the first of keys that o has, keys compared lower-cased without
// '_' and '-' (productName, product_name and product-name alike).
func field(o sdk.Value, keys ...string) sdk.Value {
	if o.Kind() != sdk.Object {
		return sdk.Value{}
	}
	names, values := o.Keys(), o.Array()
	for _, want := range keys {
		for i, k := range names {
			if i < len(values) && foldKey(k) == want {
				return values[i]
			}
		}
	}
	return sdk.Value{}
}

// foldKey is k lower-cased without '_' and '-'.
func foldKey(k string) string {
	b := make([]byte, 0, len(k))
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// priceKeys are the keys a state object gives its price under, the price paid first: a
// sale price before the regular one.
var priceKeys = []string{"saleprice", "finalprice", "currentprice", "sellingprice", "offerprice", "specialprice",
	"price", "displayprice", "pricevalue", "amount", "lowprice", "minprice"}

// statePrice reads the price of a state object: a number or a machine-written amount
// under one of priceKeys, or an object holding one ({"amount": "12.50", "currencyCode":
// "EUR"}), else its offers' price, else its lowest variant's. Shopify's product JSON
// writes whole numbers of cents.
func statePrice(o sdk.Value) *sdk.Price {
	cents := field(o, "handle").Exists() && field(o, "variants").Exists()
	currency := stateCurrency(o)
	if pr := amount(field(o, priceKeys...), currency, cents); pr != nil {
		return pr
	}
	if offers := field(o, "offers"); offers.Exists() {
		if pr, _ := offer(offers); pr != nil {
			return pr
		}
	}
	var low *sdk.Price
	for _, v := range field(o, "variants").Array() {
		if pr := amount(field(v, priceKeys...), currency, cents); pr != nil && (low == nil || pr.Current < low.Current) {
			low = pr
		}
	}
	return low
}

// amount reads a price value: a number, a string holding a machine-written amount, or an
// object holding either with its currency.
func amount(v sdk.Value, currency string, cents bool) *sdk.Price {
	switch v.Kind() {
	case sdk.Object:
		if c := stateCurrency(v); c != "" {
			currency = c
		}
		return amount(field(v, "value", "amount", "current", "sale", "final", "raw", "price"), currency, cents)
	case sdk.Number, sdk.String:
	default:
		return nil
	}
	f, ok := sdk.ParseMachinePrice(v.String())
	if !ok || f <= 0 {
		return nil
	}
	if cents && v.Kind() == sdk.Number && !strings.ContainsAny(v.String(), ".eE") {
		f /= 100
	}
	return &sdk.Price{Current: f, Currency: currency}
}

// stateCurrency is the ISO 4217 code a state object names its prices in, or "".
func stateCurrency(o sdk.Value) string {
	c := strings.ToUpper(strings.TrimSpace(field(o, "currency", "currencycode", "pricecurrency", "currencyiso").String()))
	if _, ok := sdk.CurrencyDigits(c); !ok {
		return ""
	}
	return c
}

// stateAvailability reads whether a state object is in stock: a boolean (available,
// inStock) or words as schema.org writes them ("InStock", "out_of_stock").
func stateAvailability(o sdk.Value) *bool {
	if v := field(o, "available", "isavailable", "instock", "isinstock"); v.Kind() == sdk.True || v.Kind() == sdk.False {
		in := v.Kind() == sdk.True
		return &in
	}
	if in, ok := availability(field(o, "availability", "stockstatus", "availabilitystatus")); ok {
		return &in
	}
	return nil
}

// configPrice reads the price of a Magento price configuration or of WooCommerce's
// variations: Magento's final price, or the lowest variation's price, with whether any
// variation is in stock when avail is unknown.
func configPrice(states []sdk.AppState, avail *bool) (*sdk.Price, *bool) {
	var low *sdk.Price
	for _, s := range states {
		var pr *sdk.Price
		switch s.Source {
		case "magento":
			pr = amount(s.Object.Get("prices.finalPrice.amount"), "", false)
			if pr == nil {
				pr = amount(field(s.Object, "baseprice", "productprice"), "", false)
			}
		case "woocommerce":
			pr = amount(s.Object.Get("display_price"), "", false)
			if in := s.Object.Get("is_in_stock"); in.Kind() == sdk.True || (avail == nil && in.Kind() == sdk.False) {
				b := in.Kind() == sdk.True
				avail = &b
			}
		}
		if pr != nil && (low == nil || pr.Current < low.Current) {
			low = pr
		}
	}
	return low, avail
}
