package amazon

import (
	"regexp"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract reads a product page: its ASIN, title, the price of the offer in the buy box
// in whichever layout the page has, the price it is reduced from, its stock and its main
// image. A page of Amazon's frame without a detail page (a search, a category, the home
// page) is not a product; a page with neither is not one Amazon's layouts know, and the
// adapter leaves it to the generic ones.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	root := page.HTML()
	asin := productASIN(root, c.URL())
	title := storefront.FirstText(root, "#productTitle", "#ebooksProductTitle", "#title")
	if asin == "" && title == "" {
		if root.SelectOne("#nav-logo-sprites, #navbar").Exists() {
			return nil, sdk.NonProduct("an Amazon page without a product's detail")
		}
		return nil, sdk.Fail("no Amazon product layout")
	}
	platform := Platform
	p := &sdk.Product{ID: asin, Platform: &platform, PlatformID: storefront.NonEmpty(asin), SKU: storefront.NonEmpty(asin)}
	p.Title = storefront.NonEmpty(title)
	p.CanonicalURL = storefront.NonEmpty(root.SelectOne(`link[rel="canonical"]`).Attr("href"))
	resolve := storefront.Resolver(c.URL())
	for _, a := range root.Select("#wayfinding-breadcrumbs_feature_div li a") {
		if name := strings.TrimSpace(a.Text()); name != "" {
			p.Breadcrumbs = append(p.Breadcrumbs, sdk.Breadcrumb{Name: name, URL: resolve(a.Attr("href"))})
		}
	}
	if img := mainImage(root); img != "" {
		p.Images = []sdk.Image{{URL: resolve(img), AltText: p.Title, Position: 1}}
	}
	p.Price = buyBoxPrice(root, marketplaceCurrency(page, c.URL()))
	p.IsAvailable = stock(root)
	return p, nil
}

// asinInPath finds the ASIN in a product page's address: /dp/ASIN, /gp/product/ASIN.
var asinInPath = regexp.MustCompile(`/(?:dp|gp/product|gp/aw/d)/([A-Z0-9]{10})(?:[/?]|$)`)

// productASIN is the ASIN of the product the page sells: the add-to-cart form's, else the
// detail page's reviews summary's, else the one in the address.
func productASIN(root sdk.Node, pageURL string) string {
	for _, sel := range []struct{ css, attr string }{
		{"input#ASIN", "value"},
		{`input[name="ASIN"]`, "value"},
		{"#averageCustomerReviews[data-asin]", "data-asin"},
		{"#dp[data-asin], #ppd[data-asin]", "data-asin"},
	} {
		if v := strings.TrimSpace(root.SelectOne(sel.css).Attr(sel.attr)); v != "" {
			return v
		}
	}
	if m := asinInPath.FindStringSubmatch(pageURL); m != nil {
		return m[1]
	}
	return ""
}

// priceBlocks are where Amazon's layouts show the price to pay for the buy box's offer,
// newest first: the price-to-pay block of today's desktop layout and of its "apex"
// variant, the core price of simpler pages, then the price blocks of older layouts (a
// deal's or a sale's price before the regular one) and the buy box itself.
var priceBlocks = []string{
	"#corePriceDisplay_desktop_feature_div .priceToPay",
	"#corePrice_desktop .apexPriceToPay",
	"#apex_desktop .apexPriceToPay",
	"#apex_desktop .priceToPay",
	"#corePrice_feature_div .a-price",
	"#priceblock_dealprice",
	"#priceblock_saleprice",
	"#priceblock_ourprice",
	"#price_inside_buybox",
	"#newBuyBoxPrice",
	"#kindle-price",
	"#tp_price_block_total_price_ww .a-price",
}

// formerPriceBlocks are where the layouts show the price the offer is reduced from: the
// struck list price ("List Price:", "Was:", "Prix conseillé :") beside the price to pay.
var formerPriceBlocks = []string{
	"#corePriceDisplay_desktop_feature_div .basisPrice .a-price",
	`#corePriceDisplay_desktop_feature_div .a-price[data-a-strike="true"]`,
	`#corePrice_desktop .a-price[data-a-strike="true"]`,
	`#apex_desktop .a-price[data-a-strike="true"]`,
	`#corePrice_feature_div .a-price[data-a-strike="true"]`,
	"#price .priceBlockStrikePriceString",
	"#price .a-text-strike",
}

// buyBoxPrice reads the price to pay, in the currency the price's symbol names on the
// page's marketplace, and the struck price it is reduced from; nil when the page shows
// none (an offer no one sells now).
func buyBoxPrice(root sdk.Node, marketplace string) *sdk.Price {
	current, currency, ok := 0.0, "", false
	for _, sel := range priceBlocks {
		for _, n := range root.Select(sel) {
			if n.Attr("data-a-strike") == "true" {
				continue
			}
			if current, currency, ok = sdk.ParseAmount(shownPrice(n), marketplace); ok && current > 0 {
				break
			}
			ok = false
		}
		if ok {
			break
		}
	}
	if !ok {
		return nil
	}
	price := &sdk.Price{Current: storefront.Cents(current), Currency: currency}
	for _, sel := range formerPriceBlocks {
		if was, _, found := sdk.ParseAmount(shownPrice(root.SelectOne(sel)), currency); found && storefront.Cents(was) > price.Current {
			was = storefront.Cents(was)
			price.CompareAt = &was
			break
		}
	}
	return price
}

// shownPrice is the text of a price element as a shopper reads it. Amazon's a-price
// writes the whole amount once for screen readers (a-offscreen) and again in pieces for
// the eye (symbol, whole part, fraction); some pages leave the first empty.
func shownPrice(n sdk.Node) string {
	if !n.Exists() {
		return ""
	}
	if t := strings.TrimSpace(n.SelectOne(".a-offscreen").Text()); t != "" {
		return t
	}
	if whole := strings.TrimSpace(n.SelectOne(".a-price-whole").Text()); whole != "" {
		// The whole part ends with the decimal separator it is shown with.
		return n.SelectOne(".a-price-symbol").Text() + whole + strings.TrimSpace(n.SelectOne(".a-price-fraction").Text())
	}
	return n.Text()
}

// stock reads whether the product can be bought: not when the page shows the
// out-of-stock box or its availability line says so, yes when the line says so or the
// buy box offers an add-to-cart or buy-now button; the line's wording is read in the
// marketplace's language. A line that says nothing of the stock ("Usually dispatched
// within 3 to 4 days") leaves it to the buttons.
func stock(root sdk.Node) *bool {
	yes, no := true, false
	if root.SelectOne("#outOfStock").Exists() {
		return &no
	}
	if in, ok := rank.ReadStock(root.SelectOne("#availability").Text()); ok {
		if in {
			return &yes
		}
		return &no
	}
	if root.SelectOne("#add-to-cart-button, #buy-now-button, #add-to-cart-button-ubb").Exists() {
		return &yes
	}
	if root.SelectOne("#availability .a-color-success").Exists() {
		return &yes
	}
	return nil
}

// mainImage is the address of the product's main image: the large version the image
// block keeps for zooming, else the one shown.
func mainImage(root sdk.Node) string {
	for _, sel := range []string{"#landingImage", "#imgBlkFront", "#ebooksImgBlkFront", "#main-image"} {
		img := root.SelectOne(sel)
		if !img.Exists() {
			continue
		}
		if src := img.Attr("data-old-hires"); src != "" {
			return src
		}
		if src := img.Attr("src"); src != "" && !strings.HasPrefix(src, "data:") {
			return src
		}
	}
	return ""
}
