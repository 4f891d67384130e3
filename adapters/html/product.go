package html

import (
	"cmp"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract reads a product from the page's markup: OpenGraph and product meta tags,
// itemprop attributes, the page's heading, and what a shopper sees (the price by the
// title, the stock line, the buy button, a labelled SKU). A page that shows none of these
// signs of a product page is not a product.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	root := page.HTML()
	meta := func(names ...string) string {
		for _, n := range names {
			if v := strings.TrimSpace(root.FindOne("//meta[@property='" + n + "' or @name='" + n + "']").Attr("content")); v != "" {
				return v
			}
		}
		return ""
	}
	itemprop := func(name string) string {
		n := root.FindOne("//*[@itemprop='" + name + "']")
		if v, ok := n.AttrOK("content"); ok {
			return strings.TrimSpace(v)
		}
		return n.Text()
	}
	ogType := strings.ToLower(meta("og:type"))
	amount := meta("product:price:amount", "og:price:amount")
	if amount == "" {
		amount = itemprop("price")
	}
	buy, unbuyable := sdk.BuyButtons(root)
	schema, offered := schemaProduct(page)
	stockIn, stockSaid := stockLine(root)
	sku := cmp.Or(itemprop("sku"), meta("product:retailer_item_id", "product:sku"), sdk.DisplayedSKU(root))
	// A product page has product markup; or a title with one buy button or one price by
	// it, where a listing page has one per tile; or a stock line and a product code.
	showsOneProduct := buy+unbuyable > 0 && buy+unbuyable <= 3 && root.FindOne("//h1").Exists()
	price, priced := displayedPrice(root)
	showsOneProduct = showsOneProduct || priced && price.isAloneByTitle()
	if ogType != "product" && ogType != "og:product" && amount == "" && !schema && !showsOneProduct && !(stockSaid && sku != "") {
		return nil, sdk.NonProduct("no product markup")
	}
	p := &sdk.Product{}
	if t := meta("og:title"); t != "" {
		p.Title = &t
	} else if t := root.TextOf("//h1"); t != "" {
		p.Title = &t
	}
	if d := meta("og:description", "description"); d != "" {
		p.Description = &d
	}
	if b := meta("product:brand", "og:brand"); b != "" {
		p.Brand = &b
	}
	if u := root.FindOne("//link[@rel='canonical']").Attr("href"); u != "" {
		u = c.Resolve(u)
		p.CanonicalURL = &u
	}
	currency := strings.ToUpper(meta("product:price:currency", "og:price:currency"))
	if f, ok := sdk.ParsePrice(amount); ok {
		p.Price = &sdk.Price{Current: f, Currency: currency}
	} else if priced && !(stockSaid && !stockIn) {
		// A sold-out product's page shows the prices of other offers and related
		// products, not its own, so it gets no shown price.
		p.Price = &sdk.Price{Current: price.amount, Currency: cmp.Or(currency, price.currency)}
	}
	if sku != "" {
		p.SKU = &sku
	}
	switch a := strings.ToLower(meta("product:availability", "og:availability")); {
	case a == "":
		if stockSaid {
			p.IsAvailable = &stockIn
		} else if buy > 0 || p.Price != nil || offered {
			// Nothing says otherwise, and the product can be put in a cart or has a price
			// on offer: a shop shows a price for what it sells.
			t := true
			p.IsAvailable = &t
		}
	case strings.Contains(a, "out") || strings.Contains(a, "oos"):
		f := false
		p.IsAvailable = &f
	default:
		t := true
		p.IsAvailable = &t
	}
	for i, img := range root.Find("//meta[@property='og:image' or @property='og:image:secure_url']/@content") {
		u := c.Resolve(img.Text())
		if u != "" && (len(p.Images) == 0 || p.Images[len(p.Images)-1].URL != u) {
			p.Images = append(p.Images, sdk.Image{URL: u, Position: i + 1})
		}
	}
	return p, nil
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

// containsAny reports whether s contains any of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
