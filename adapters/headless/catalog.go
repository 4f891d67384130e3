package headless

import (
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// The members a state's objects name their parts by, first match wins: Shopify's
// Storefront API's names first, then those of other commerce APIs.
var (
	titleKeys     = []string{"title", "name"}
	handleKeys    = []string{"handle", "slug"}
	linkKeys      = []string{"path", "url", "href", "permalink", "link"}
	priceKeys     = []string{"price", "priceRange.minVariantPrice", "prices.price", "salePrice", "finalPrice", "currentPrice", "sellingPrice"}
	compareAtKeys = []string{"compareAtPrice", "regularPrice", "listPrice", "originalPrice", "oldPrice", "wasPrice", "prices.regular_price"}
	availableKeys = []string{"availableForSale", "available", "inStock", "isInStock", "in_stock"}
	currencyKeys  = []string{"currencyCode", "currency", "currency_code"}
	amountKeys    = []string{"amount", "value", "centAmount"}
	totalKeys     = []string{"totalCount", "total", "totalProducts", "total_count", "totalItems", "productsCount"}
)

// first is the first of keys that v has.
func first(v gjson.Result, keys []string) gjson.Result {
	for _, k := range keys {
		if r := v.Get(k); r.Exists() && r.Type != gjson.Null {
			return r
		}
	}
	return gjson.Result{}
}

// node unwraps a GraphQL connection's edge ({"node": {...}}).
func node(v gjson.Result) gjson.Result {
	if n := v.Get("node"); n.IsObject() {
		return n
	}
	return v
}

// isProduct reports whether v looks like a product: a title, a handle or link, a price.
func isProduct(v gjson.Result) bool {
	return v.IsObject() && first(v, titleKeys).Type == gjson.String && (first(v, handleKeys).Exists() || first(v, linkKeys).Exists()) &&
		first(v, priceKeys).Exists()
}

// isCollection reports whether v looks like a collection: a title and a handle or link,
// no price.
func isCollection(v gjson.Result) bool {
	return v.IsObject() && first(v, titleKeys).Type == gjson.String && (first(v, handleKeys).Exists() || first(v, linkKeys).Exists()) &&
		!first(v, priceKeys).Exists() && !v.Get("variants").Exists()
}

// arrays calls visit with every array in v and the name of the member holding it, down
// to maxDepth.
func arrays(v gjson.Result, key string, depth int, visit func(key string, list []gjson.Result)) {
	if depth > maxDepth {
		return
	}
	switch {
	case v.IsArray():
		list := v.Array()
		visit(key, list)
		for _, it := range list {
			arrays(it, key, depth+1, visit)
		}
	case v.IsObject():
		v.ForEach(func(k, member gjson.Result) bool {
			arrays(member, k.String(), depth+1, visit)
			return true
		})
	}
}

// matching is the members of list that pass is, edges unwrapped.
func matching(list []gjson.Result, is func(gjson.Result) bool) []gjson.Result {
	var out []gjson.Result
	for _, it := range list {
		if it = node(it); is(it) {
			out = append(out, it)
		}
	}
	return out
}

// findProducts is the state's listing: the longest list of products in it (a related
// products block is shorter than the page's grid).
func findProducts(data gjson.Result) []gjson.Result {
	var best []gjson.Result
	arrays(data, "", 0, func(_ string, list []gjson.Result) {
		if found := matching(list, isProduct); len(found) > len(best) {
			best = found
		}
	})
	return best
}

// findCollections is the state's list of collections: a list of collections under a
// member named for collections or categories (named is true), else the longest such
// list (a menu), its pages that are no collection left out.
func findCollections(data gjson.Result) (cols []gjson.Result, named bool) {
	var other []gjson.Result
	arrays(data, "", 0, func(key string, list []gjson.Result) {
		found := matching(list, isCollection)
		k := strings.ToLower(key)
		if (strings.Contains(k, "collection") || strings.Contains(k, "categor")) && len(found) > len(cols) {
			cols = found
		} else if len(found) > len(other) {
			other = found
		}
	})
	if len(cols) > 0 {
		return cols, true
	}
	for _, c := range other {
		if !isMenuPage(first(c, linkKeys).String() + "/" + first(c, handleKeys).String()) {
			cols = append(cols, c)
		}
	}
	return cols, false
}

// menuWords are path segments of a shop's pages that are no collection: contact, cart,
// account, legal and editorial pages.
var menuWords = []string{"contact", "cart", "basket", "checkout", "account", "login", "register", "wishlist", "legal",
	"privacy", "terms", "imprint", "impressum", "about", "faq", "help", "blog", "news", "shipping", "returns", "pages", "search?"}

// isMenuPage reports whether a path is one of the shop's pages that are no collection.
func isMenuPage(path string) bool {
	for _, seg := range strings.FieldsFunc(strings.ToLower(path), func(r rune) bool { return r == '/' }) {
		for _, w := range menuWords {
			if seg == w || strings.HasPrefix(seg, w+"-") || strings.HasSuffix(seg, "-"+w) {
				return true
			}
		}
	}
	return false
}

// findProduct is the product a product page's state is about: its "product" member,
// else of the products in it that are no member of a list (a listing's products are a
// list, even when it holds one), the first that carries variants or the only one.
func findProduct(data gjson.Result) gjson.Result {
	for _, k := range []string{"product", "data.product", "productData", "item"} {
		if v := data.Get(k); isProduct(v) {
			return v
		}
	}
	var withVariants, products []gjson.Result
	var visit func(v gjson.Result, inList bool, depth int)
	visit = func(v gjson.Result, inList bool, depth int) {
		if depth > maxDepth {
			return
		}
		if isProduct(v) {
			if !inList {
				products = append(products, v)
				if v.Get("variants").Exists() {
					withVariants = append(withVariants, v)
				}
			}
			return
		}
		v.ForEach(func(_, member gjson.Result) bool {
			visit(node(member), v.IsArray() || (inList && member.Get("node").Exists()), depth+1)
			return true
		})
	}
	visit(data, false, 0)
	switch {
	case len(withVariants) > 0:
		return withVariants[0]
	case len(products) == 1:
		return products[0]
	}
	return gjson.Result{}
}

// money reads an amount: a number, a displayed or decimal string ("12,50 €", "12.50"),
// or an object ({"amount": "12.50", "currencyCode": "EUR"}; commercetools' centAmount
// with its fractionDigits). hint is the currency when the amount states none.
func money(v gjson.Result, hint string) (amount float64, currency string, ok bool) {
	switch {
	case v.Type == gjson.Number:
		return v.Float(), hint, true
	case v.Type == gjson.String:
		return sdk.ParseAmount(v.String(), hint)
	case v.IsObject():
		a := first(v, amountKeys)
		if !a.Exists() {
			return 0, "", false
		}
		currency = strings.ToUpper(first(v, currencyKeys).String())
		if currency == "" {
			currency = hint
		}
		amount, _, ok = money(a, currency)
		if digits := v.Get("fractionDigits"); ok && v.Get("centAmount").Exists() && digits.Exists() {
			amount /= math.Pow10(int(digits.Int()))
		}
		return amount, currency, ok
	}
	return 0, "", false
}

// priceOf is an object's price and, when higher, its compare-at price.
func priceOf(v gjson.Result, hint string) *sdk.Price {
	current, currency, ok := money(first(v, priceKeys), hint)
	if !ok {
		return nil
	}
	p := &sdk.Price{Current: current, Currency: currency}
	if was, _, ok := money(first(v, compareAtKeys), currency); ok && was > current {
		p.CompareAt = &was
	}
	return p
}

// available reads an object's availability; ok is false when it states none.
func available(v gjson.Result) (value, ok bool) {
	a := first(v, availableKeys)
	if a.Type != gjson.True && a.Type != gjson.False {
		return false, false
	}
	return a.Bool(), true
}

// stateCurrency is the first currency code the state names, the hint for amounts that
// name none.
func stateCurrency(data gjson.Result) string {
	var code string
	var visit func(v gjson.Result, depth int) bool
	visit = func(v gjson.Result, depth int) bool {
		if depth > maxDepth || !(v.IsObject() || v.IsArray()) {
			return false
		}
		if c := first(v, currencyKeys); c.Type == gjson.String {
			if _, ok := sdk.CurrencyDigits(strings.ToUpper(c.String())); ok {
				code = strings.ToUpper(c.String())
				return true
			}
		}
		done := false
		v.ForEach(func(_, member gjson.Result) bool {
			done = visit(member, depth+1)
			return !done
		})
		return done
	}
	visit(data, 0)
	return code
}
