package magento

import (
	"cmp"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract reads a product page (its body has the class catalog-product-view): the
// product's id from its add-to-cart form, its price box, its stock line, and the
// configuration of a configurable product's options. The currency is the one the page
// states (Open Graph price tags, microdata or JSON-LD), else the one the price's symbol
// names in the page's locale.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	root := page.HTML()
	main := root.SelectOne(".product-info-main")
	if !main.Exists() || !strings.Contains(" "+root.SelectOne("body").Attr("class")+" ", " catalog-product-view ") {
		return nil, sdk.NonProduct("not a Magento product page")
	}
	form := root.SelectOne("#product_addtocart_form")
	id := form.SelectOne(`input[name="product"]`).Attr("value")
	box := root.SelectOne(`.price-box[data-product-id="` + id + `"]`)
	if id == "" || !box.Exists() {
		box = main.SelectOne(".price-box[data-product-id]")
		id = cmp.Or(id, box.Attr("data-product-id"))
	}
	platform := Platform
	p := &sdk.Product{ID: id, Platform: &platform, PlatformID: storefront.NonEmpty(id)}
	p.Title = storefront.NonEmpty(main.SelectOne(`.page-title .base, h1.page-title, [itemprop="name"]`).Text())
	p.SKU = storefront.NonEmpty(main.SelectOne(`.product.attribute.sku .value, [itemprop="sku"]`).Text())
	p.Description = storefront.NonEmpty(root.SelectOne(`.product.attribute.description .value`).Text())
	p.CanonicalURL = storefront.NonEmpty(root.SelectOne(`link[rel="canonical"]`).Attr("href"))
	resolve := storefront.Resolver(c.URL())
	for _, a := range root.Select(".breadcrumbs li.item a") {
		p.Breadcrumbs = append(p.Breadcrumbs, sdk.Breadcrumb{Name: a.Text(), URL: resolve(a.Attr("href"))})
	}

	currency := storefront.PageCurrency(page)
	if currency == "" {
		_, currency, _ = sdk.ParseAmount(box.SelectOne(".price").Text(), sdk.PageLocale(page, c.URL()).Currency())
	}
	scripts := initScripts(root)
	p.Images = galleryImages(scripts)
	if config := scripts.configurable(); config.Exists() {
		readConfigurable(p, config, currency)
		if len(p.Variants) > 0 {
			return p, nil
		}
	}
	if final, ok := sdk.ParseMachinePrice(box.SelectOne(`[data-price-type="finalPrice"]`).Attr("data-price-amount")); ok {
		p.Price = &sdk.Price{Current: storefront.Cents(final), Currency: currency}
		if old, ok := sdk.ParseMachinePrice(box.SelectOne(`[data-price-type="oldPrice"]`).Attr("data-price-amount")); ok && storefront.Cents(old) > p.Price.Current {
			was := storefront.Cents(old)
			p.Price.CompareAt = &was
		}
	}
	p.IsAvailable = stock(main, form)
	return p, nil
}

// stock reads a product's availability from Luma's stock line (div.stock.available or
// .unavailable), else from whether the page offers an enabled add-to-cart button.
func stock(main, form sdk.Node) *bool {
	yes, no := true, false
	class := " " + main.SelectOne(".stock").Attr("class") + " "
	switch {
	case strings.Contains(class, " unavailable "):
		return &no
	case strings.Contains(class, " available "):
		return &yes
	}
	if button := form.SelectOne(`button[type="submit"], #product-addtocart-button`); button.Exists() {
		return &yes
	}
	return nil
}
