// Command prestashop is a Stockroom adapter for PrestaShop 1.7 and 8 storefronts (the
// classic theme and themes built on it), written as a new author would write one: from
// `stockroom adapter new`, adapters/ABI.md and the SDK. The kit's end-to-end test
// (cmd/stockroom/adapter_test.go) builds, tests, installs and runs it.
package main

import (
	"encoding/json"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

type adapter struct{}

func (adapter) Info() sdk.Info {
	return sdk.Info{Name: "prestashop", Version: "0.1.0", Platforms: []string{"prestashop"}}
}

// store is what the theme's `var prestashop = {…}` script says of the page.
type store struct {
	Currency struct {
		ISOCode string `json:"iso_code"`
		Sign    string `json:"sign"`
	} `json:"currency"`
	Language struct {
		Locale string `json:"locale"`
	} `json:"language"`
	Page struct {
		Name string `json:"page_name"`
	} `json:"page"`
}

// storeOf reads the theme's prestashop object; ok is false on a page without one.
func storeOf(d *sdk.Doc) (s store, ok bool) {
	const marker = "var prestashop = "
	body := string(d.Body())
	i := strings.Index(body, marker)
	if i < 0 {
		return s, false
	}
	return s, json.NewDecoder(strings.NewReader(body[i+len(marker):])).Decode(&s) == nil
}

// currency is the currency of the store's prices: the one its sign stands for in its
// language.
func (s store) currency() string {
	return sdk.CurrencyForSymbol(s.Currency.Sign, s.Language.Locale)
}

// Detect claims pages that carry the theme's prestashop object.
func (adapter) Detect(c *sdk.Call) (*sdk.Detection, error) {
	if _, ok := storeOf(c.Page()); !ok {
		return nil, nil
	}
	return &sdk.Detection{Platform: "prestashop", Confidence: 0.9, Evidence: []string{"var prestashop"}}, nil
}

// Discover reads the categories of the top menu.
func (adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	s, _ := storeOf(c.Page())
	var out []sdk.Collection
	for _, a := range c.Page().HTML().Select("#top-menu > li.category > a[href]") {
		out = append(out, sdk.Collection{URL: c.Resolve(a.Attr("href")), Title: a.Text(), Currency: s.currency()})
	}
	return out, nil
}

// List reads one page of a category: its product miniatures and the next page's link,
// which is the next cursor.
func (adapter) List(c *sdk.Call) (sdk.Page, error) {
	pageURL := c.Cursor()
	if pageURL == "" {
		pageURL = c.URL()
	}
	d := c.Need(pageURL)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		return sdk.Page{}, sdk.Fail("category page %s: %s", pageURL, d.Failure())
	}
	s, _ := storeOf(d)
	root := d.HTML()
	var page sdk.Page
	for _, tile := range root.Select("article.product-miniature") {
		link := tile.SelectOne(".product-title a[href]")
		l := sdk.Listing{URL: d.Resolve(link.Attr("href")), ID: tile.Attr("data-id-product"), Title: link.Text()}
		if amount, cur, ok := sdk.ParseAmount(tile.SelectOne(".price").Text(), s.currency()); ok {
			l.Price = &sdk.Price{Current: amount, Currency: cur}
			if was, _, ok := sdk.ParseAmount(tile.SelectOne(".regular-price").Text(), cur); ok && was > amount {
				l.Price.CompareAt = &was
			}
		}
		if img := tile.SelectOne("img"); img.Exists() {
			alt := img.Attr("alt")
			l.Images = []sdk.Image{{URL: d.Resolve(img.Attr("src")), AltText: &alt, Position: 1}}
		}
		page.Listings = append(page.Listings, l)
	}
	if next, ok := root.SelectOne(".pagination a[rel=next]").AttrOK("href"); ok {
		page.Next = d.Resolve(next)
	}
	return page, nil
}

// Extract reads a product page: its microdata offer and the theme's product block.
func (adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	s, ok := storeOf(c.Page())
	if !ok || s.Page.Name != "product" {
		return nil, sdk.NonProduct("not a product page")
	}
	root := c.Page().HTML()
	p := &sdk.Product{ID: root.SelectOne("#product_page_product_id").Attr("value")}
	if t := root.SelectOne("h1[itemprop=name]").Text(); t != "" {
		p.Title = &t
	}
	if sku := root.SelectOne("[itemprop=sku]").Text(); sku != "" {
		p.SKU = &sku
	}
	offer := root.SelectOne("[itemprop=offers]")
	if amount, ok := sdk.ParseMachinePrice(offer.SelectOne("[itemprop=price]").Attr("content")); ok {
		currency := offer.SelectOne("[itemprop=priceCurrency]").Attr("content")
		if currency == "" {
			currency = s.currency()
		}
		p.Price = &sdk.Price{Current: amount, Currency: currency}
		if was, _, ok := sdk.ParseAmount(root.SelectOne(".product-discount .regular-price").Text(), currency); ok && was > amount {
			p.Price.CompareAt = &was
		}
	}
	inStock := strings.HasSuffix(offer.SelectOne("[itemprop=availability]").Attr("href"), "/InStock")
	p.IsAvailable = &inStock
	return p, nil
}

func init() { sdk.Serve(adapter{}) }

func main() {}
