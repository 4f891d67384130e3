package woocommerce

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract reads a single product page: the product block WooCommerce's templates render
// (div#product-ID), its JSON-LD Product, and for a variable product the variations its
// form carries. Prices come from the JSON-LD, written as plain decimals whatever the
// store's locale, else from the price block as displayed.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	root := page.HTML()
	box := root.SelectOne(`div.product[id^="product-"]`)
	summary := box.SelectOne(".summary")
	if !box.Exists() || !summary.Exists() {
		return nil, sdk.NonProduct("no WooCommerce product block")
	}
	id := strings.TrimPrefix(box.Attr("id"), "product-")
	platform := Platform
	p := &sdk.Product{ID: id, Platform: &platform, PlatformID: storefront.NonEmpty(id)}
	ld := ldProduct(page)
	p.Title = storefront.NonEmpty(summary.SelectOne(".product_title").Text())
	if p.Title == nil {
		p.Title = storefront.NonEmpty(ld.Get("name").String())
	}
	if sku := box.SelectOne(".product_meta .sku").Text(); sku != "" && !strings.EqualFold(sku, "N/A") {
		p.SKU = &sku
	}
	p.Description = storefront.NonEmpty(summary.SelectOne(".woocommerce-product-details__short-description").Text())
	p.CanonicalURL = storefront.NonEmpty(root.SelectOne(`link[rel="canonical"]`).Attr("href"))
	resolve := storefront.Resolver(c.URL())
	p.Images = galleryImages(box, resolve)
	for _, a := range root.Select(".woocommerce-breadcrumb a") {
		p.Breadcrumbs = append(p.Breadcrumbs, sdk.Breadcrumb{Name: a.Text(), URL: resolve(a.Attr("href"))})
	}
	p.ProductType = storefront.NonEmpty(box.SelectOne(".product_meta .posted_in a").Text())
	p.Tags = sdk.Nodes(box.Select(".product_meta .tagged_as a")).Text()

	currency := storefront.PageCurrency(page)
	shown := shownPrice(summary.SelectOne(".price"), currencyHint(page, c.URL()))
	if currency == "" && shown != nil {
		currency = shown.Currency
	}
	if form := box.SelectOne("form.variations_form"); form.Exists() {
		readVariations(p, form, currency)
		if len(p.Variants) > 0 {
			return p, nil
		}
	}
	p.Price = ldPrice(ld, currency)
	if p.Price == nil && shown != nil {
		p.Price = shown
		p.Price.Currency = currency
	}
	if p.Price != nil && p.Price.CompareAt == nil && shown != nil && shown.CompareAt != nil && *shown.CompareAt > p.Price.Current {
		p.Price.CompareAt = shown.CompareAt
	}
	p.IsAvailable = stock(summary, ld)
	return p, nil
}

// ldProduct is the page's JSON-LD Product entity, or a missing Value.
func ldProduct(page *sdk.Doc) sdk.Value {
	for _, e := range page.JSONLD().Array() {
		for _, t := range e.Get("@type").List() {
			if t.String() == "Product" {
				return e
			}
		}
	}
	return sdk.Value{}
}

// ldPrice reads the price of a simple product's JSON-LD offer. WooCommerce writes it as
// the offer's price, or (since 8.x) as price specifications: the price charged, and on a
// sale the regular price marked ListPrice. currency is the page's, when known.
func ldPrice(product sdk.Value, currency string) *sdk.Price {
	offer := product.Get("offers.0")
	if !offer.Exists() {
		offer = product.Get("offers")
	}
	var pr *sdk.Price
	var list *float64
	for _, spec := range append([]sdk.Value{offer}, offer.Get("priceSpecification").List()...) {
		f := spec.Strings("price", "priceType", "priceCurrency")
		amount, ok := sdk.ParseMachinePrice(f[0])
		if !ok {
			continue
		}
		if cur := strings.ToUpper(f[2]); cur != "" && currency == "" {
			currency = cur
		}
		switch {
		case strings.HasSuffix(f[1], "ListPrice") || strings.HasSuffix(f[1], "StrikethroughPrice"):
			list = &amount
		case pr == nil:
			pr = &sdk.Price{Current: amount}
		}
	}
	if pr == nil {
		return nil
	}
	pr.Currency = currency
	if list != nil && *list > pr.Current {
		pr.CompareAt = list
	}
	return pr
}

// stock reads a simple product's availability: the stock line WooCommerce prints
// (p.stock with in-stock, out-of-stock or available-on-backorder), else the JSON-LD
// offer's availability, else whether the page lets the product into the cart.
func stock(summary sdk.Node, ld sdk.Value) *bool {
	yes, no := true, false
	class := " " + summary.SelectOne(".stock").Attr("class") + " "
	switch {
	case strings.Contains(class, " out-of-stock "):
		return &no
	case strings.Contains(class, " in-stock "), strings.Contains(class, " available-on-backorder "):
		return &yes
	}
	if a := ld.Get("offers.0.availability").String() + ld.Get("offers.availability").String(); a != "" {
		in := strings.HasSuffix(a, "InStock") || strings.HasSuffix(a, "BackOrder") || strings.HasSuffix(a, "PreOrder")
		return &in
	}
	if summary.SelectOne(`button[name="add-to-cart"], .single_add_to_cart_button`).Exists() {
		return &yes
	}
	return nil
}

// galleryImages reads the product gallery: each image's full size (the link around it,
// or data-large_image) and its alt text.
func galleryImages(box sdk.Node, resolve func(string) string) []sdk.Image {
	var out []sdk.Image
	for _, slide := range box.Select(".woocommerce-product-gallery__image") {
		img := slide.SelectOne("img")
		src := slide.SelectOne("a").Attr("href")
		if src == "" {
			src = img.Attr("data-large_image")
		}
		if src == "" {
			src = img.Attr("src")
		}
		if src == "" {
			continue
		}
		out = append(out, sdk.Image{URL: resolve(src), AltText: storefront.NonEmpty(img.Attr("alt")), Position: len(out) + 1})
	}
	return out
}
