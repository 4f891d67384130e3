package html

import (
	"context"
	"slices"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

// A store whose menus mix categories with the store's own pages, and whose category links
// sit outside the menu too, in relative form.
const home = `<html><body>
<header><a href="/">Home</a><a href="/cart">Cart</a><a href="/account/login">Sign in</a>
<nav><ul><li><a href="/garden">Garden</a></li><li><a href="/kitchen?sort=new#top">Kitchen</a></li>
<li><a href="/pages/about">About</a></li><li><a href="/blog/news">Blog</a></li>
<li><a href="https://elsewhere.example/c/x">Partner</a></li><li><a href="/search?q=">Search</a></li></ul></nav></header>
<main><a href="/departments/tools">Tools</a><a href="/garden">Garden again</a>
<a href="/products/rake">A rake</a><a href="/about-us">About us</a><a href="/policies/refund-policy">Refunds</a></main>
</body></html>`

func TestDiscoverReadsMenusAndCategoryLinks(t *testing.T) {
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{}}
	got, err := set.Discover(context.Background(), "", htmlDoc(site+"/", home))
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, c := range got {
		urls = append(urls, c.URL)
	}
	want := []string{site + "/garden", site + "/kitchen?sort=new", site + "/departments/tools"}
	if !slices.Equal(urls, want) {
		t.Errorf("collections %q, want %q", urls, want)
	}
	if len(got) > 0 && (got[0].Title != "Garden" || got[0].Handle != "garden") {
		t.Errorf("first collection %+v", got[0])
	}
}

// The menus of WooCommerce, Magento and Shopify stores in several languages list the
// store's own pages beside its categories: only the categories are collections.
func TestDiscoverLeavesTheStoresOwnPages(t *testing.T) {
	page := `<html><body><nav><ul>
<li class="menu-item-object-product_cat"><a href="/produkt-kategorie/kleidung/">Kleidung</a></li>
<li><a href="/kontakt/">Kontakt</a></li><li><a href="/warenkorb/">Warenkorb</a></li><li><a href="/mein-konto/">Mein Konto</a></li>
<li><a href="/impressum/">Impressum</a></li><li><a href="/datenschutzerklaerung/">Datenschutz</a></li><li><a href="/agb/">AGB</a></li>
<li class="category-item"><a href="/gear.html">Gear</a></li><li><a href="/customer/account/login/">Sign In</a></li>
<li><a href="/privacy-policy-cookie-restriction-mode">Privacy and Cookie Policy</a></li><li><a href="/sales/guest/form/">Orders and Returns</a></li>
<li><a href="/collections/contact-lenses">Contact lenses</a></li><li><a href="/panier">Panier</a></li><li><a href="/mentions-legales">Mentions légales</a></li>
<li><a href="/pages/shipping-returns">Shipping</a></li><li><a href="/terms-of-service">Terms</a></li>
</ul></nav></body></html>`
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{}}
	got, err := set.Discover(context.Background(), "", htmlDoc(site+"/", page))
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, c := range got {
		urls = append(urls, c.URL)
	}
	want := []string{site + "/produkt-kategorie/kleidung/", site + "/gear.html", site + "/collections/contact-lenses"}
	if !slices.Equal(urls, want) {
		t.Errorf("collections %q\nwant %q", urls, want)
	}
}
