package ebay

import (
	"cmp"
	"regexp"
	"strings"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Extract reads an item page: its item number, title, the price to pay now (a sale's
// price over the struck one, a "Buy it now" price, else the current bid), the seller's
// stock and whether the listing has ended, and its main image. A page of eBay's frame
// without an item is not a product; a page of neither is left to the generic adapters.
func (Adapter) Extract(c *sdk.Call) (*sdk.Product, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no page")
	}
	root := page.HTML()
	title := itemTitle(root)
	id := itemNumber(root, c.URL())
	if title == "" || id == "" {
		if page.Contains("ebaystatic.com/") {
			return nil, sdk.NonProduct("an eBay page without an item")
		}
		return nil, sdk.Fail("no eBay item layout")
	}
	platform := Platform
	p := &sdk.Product{ID: id, Platform: &platform, PlatformID: &id, SKU: storefront.NonEmpty(id), Title: &title}
	p.CanonicalURL = storefront.NonEmpty(root.SelectOne(`link[rel="canonical"]`).Attr("href"))
	if img := root.SelectOne(`meta[property="og:image"]`).Attr("content"); img != "" {
		p.Images = []sdk.Image{{URL: img, AltText: p.Title, Position: 1}}
	}
	p.Price = itemPrice(root, sdk.PageLocale(page, c.URL()).Currency())
	p.IsAvailable = stock(root)
	return p, nil
}

// itemTitle is the item's title in either layout, without the words the older one hides
// before it for screen readers ("Details about").
func itemTitle(root sdk.Node) string {
	if h := root.SelectOne("#itemTitle"); h.Exists() {
		return strings.Join(strings.Fields(strings.Join(h.Texts(".g-hdn"), " ")), " ")
	}
	return storefront.FirstText(root, "h1.x-item-title__mainTitle", `h1[itemprop="name"]`)
}

// itemInPath finds the item number in an item page's address: /itm/NUMBER or
// /itm/title-words/NUMBER.
var itemInPath = regexp.MustCompile(`/itm/(?:[^/?#]+/)?(\d{9,15})(?:[/?#]|$)`)

// itemNumber is the item number the page states (the description's "eBay item number"),
// else the one in its address.
func itemNumber(root sdk.Node, pageURL string) string {
	if n := strings.TrimSpace(root.SelectOne("#descItemNumber").Text()); n != "" {
		return n
	}
	if m := itemInPath.FindStringSubmatch(pageURL); m != nil {
		return m[1]
	}
	return ""
}

// priceBlocks are where the layouts show the price to pay: the older page's sale price,
// "Buy it now" price and current bid, then the newer page's primary price.
var priceBlocks = []string{"#mm-saleDscPrc", "#prcIsum", "#prcIsum_bidPrice", ".x-bin-price .x-price-primary",
	".x-price-primary"}

// formerPriceBlocks are where they show the struck price a sale reduces.
var formerPriceBlocks = []string{"#mm-saleOrgPrc", "#orgPrc", ".x-additional-info .ux-textspans--STRIKETHROUGH",
	".x-price-section .ux-textspans--STRIKETHROUGH"}

// itemPrice reads the price in the currency the offer's microdata or the price's text
// states (eBay shows a listing's price in the seller's currency, "GBP 1.99" on ebay.com,
// with a conversion beside it that is not the price), else in the site's.
func itemPrice(root sdk.Node, siteCurrency string) *sdk.Price {
	stated := strings.ToUpper(strings.TrimSpace(root.SelectOne(`[itemprop="priceCurrency"]`).Attr("content")))
	hint := siteCurrency
	if stated != "" {
		hint = stated
	}
	for _, sel := range priceBlocks {
		n := root.SelectOne(sel)
		if !n.Exists() {
			continue
		}
		amount, currency, ok := sdk.ParseAmount(n.Text(), hint)
		if machine, found := sdk.ParseMachinePrice(n.Attr("content")); found {
			amount, ok = machine, true
			currency = cmp.Or(stated, currency)
		}
		if !ok || amount <= 0 {
			continue
		}
		price := &sdk.Price{Current: storefront.Cents(amount), Currency: currency}
		for _, sel := range formerPriceBlocks {
			if was, _, found := sdk.ParseAmount(root.SelectOne(sel).Text(), currency); found && storefront.Cents(was) > price.Current {
				was = storefront.Cents(was)
				price.CompareAt = &was
				break
			}
		}
		return price
	}
	return nil
}

// stock reads whether the item can be bought: as the offer's microdata says, eBay's own
// statement (it still says InStock on an auction whose bidding has ended, and the
// benchmark's annotators followed it); else not once the listing has ended or the
// seller's quantity line says it is sold out; yes when that line says so or the page
// offers a "Buy it now", add-to-basket or bid button.
func stock(root sdk.Node) *bool {
	yes, no := true, false
	if v := root.SelectOne(`[itemprop="availability"]`); v.Exists() {
		a := strings.ToLower(v.Attr("content") + v.Attr("href"))
		switch {
		case strings.Contains(a, "outofstock"), strings.Contains(a, "soldout"):
			return &no
		case strings.Contains(a, "instock"):
			return &yes
		}
	}
	status := strings.ToLower(storefront.FirstText(root, "#msgPanel .statusContent", ".d-statusmessage", ".vi-msg-ended"))
	if strings.Contains(status, "ended") || strings.Contains(status, "beendet") || strings.Contains(status, "terminé") ||
		strings.Contains(status, "terminata") || strings.Contains(status, "finalizado") {
		return &no
	}
	if in, ok := rank.ReadStock(storefront.FirstText(root, "#qtySubTxt", "#qtyAvailability", ".x-quantity__availability")); ok {
		if in {
			return &yes
		}
		return &no
	}
	if root.SelectOne("#binBtn_btn, #isCartBtn_btn, #atcRedesignId_btn, #bidBtn_btn, .x-bin-action, .x-atc-action").Exists() {
		return &yes
	}
	return nil
}
