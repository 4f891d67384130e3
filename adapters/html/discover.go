package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// Discover lists the categories that the home page links to. It takes every link in the
// page's menus (nav, header, anything marked as a menu), and every link elsewhere whose
// path looks like a category's. It skips links to products, to the home page and to the
// store's own pages (cart, account, contact, legal pages, blog and the like), in the
// languages of the platforms' translations. Each collection carries the currency of the
// home page's prices, when the page says.
func (Adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	page := c.Page()
	if page == nil || !page.OK() {
		return nil, sdk.Fail("no home page")
	}
	urls, ok := docResolver(page)
	if !ok {
		return nil, sdk.Fail("bad site URL %q", c.URL())
	}
	root := page.HTML()
	var out []sdk.Collection
	seen := map[string]bool{}
	var segs []string
	add := func(a sdk.Node, inMenu bool) {
		segs = segs[:0]
		u, ok := urls.linkSegments(a.Attr("href"), &segs)
		if !ok {
			return
		}
		if len(segs) == 0 || isProductPath(segs) || isExcludedPath(segs) || isShopPage(segs) {
			return
		}
		if !inMenu && !isCategoryPath(segs) {
			return
		}
		key := u.url
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, sdk.Collection{URL: key, Handle: segs[len(segs)-1], Title: a.Text()})
	}
	menus := "//nav//a[@href] | //header//a[@href] | //*[@role='navigation']//a[@href]" +
		" | //*[contains(@class,'menu') or contains(@id,'menu')]//a[@href]"
	for _, a := range root.Find(menus) {
		// Breadcrumbs are navigation too, but lead up, not across.
		if a.FindOne("ancestor::*[contains(@class,'breadcrumb') or @aria-label='Breadcrumb' or @aria-label='breadcrumb']").Exists() {
			continue
		}
		add(a, true)
	}
	for _, a := range root.Find("//a[@href]") {
		add(a, false)
	}
	if currency := pageCurrency(page, c.URL()); currency != "" {
		for i := range out {
			out[i].Currency = currency
		}
	}
	return out, nil
}

// isShopPage reports whether a path, given by its segments, is one of the store's own
// pages that menus list beside the categories, in the words WooCommerce, Magento and
// Shopify themes use in English, German, French, Spanish and Italian: contact, cart,
// account, legal and service pages. A category is never named so; the words that could
// start a category's name ("contact lenses") only count as a whole segment.
func isShopPage(segs []string) bool {
	for _, s := range segs {
		switch s {
		case "kontakt", "contacto", "contatti", "contact-us", "warenkorb", "panier", "carrito", "carrello",
			"kasse", "commande", "mein-konto", "konto", "mon-compte", "mi-cuenta", "mio-account", "customer",
			"impressum", "imprint", "legal", "mentions-legales", "agb", "cgv", "aviso-legal", "note-legali",
			"datenschutz", "datenschutzerklaerung", "ueber-uns", "a-propos", "quienes-somos", "chi-siamo",
			"versand", "livraison", "envios", "spedizioni", "shipping", "returns", "widerruf", "retours",
			"track-order", "order-tracking", "guest", "newsletter", "gift-card", "gift-cards", "store-finder":
			return true
		}
		for _, prefix := range []string{"privacy-", "terms-", "legal-", "shipping-", "returns-", "refund-", "about-",
			"datenschutz", "widerruf", "conditions-", "politique-", "politica-", "customer-service"} {
			if strings.HasPrefix(s, prefix) {
				return true
			}
		}
	}
	return false
}
