package woocommerce

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

func TestDetect(t *testing.T) {
	for path, m := range paths(t) {
		for _, tc := range []struct {
			name string
			body string
			want float64
		}{
			{"generator", `<html><head><meta name="generator" content="WooCommerce 9.1.4" /></head><body></body></html>`, 0.95},
			{"body class and plugin assets", `<html><head><link rel="stylesheet" href="/wp-content/plugins/woocommerce/assets/css/woocommerce.css"></head><body class="home theme-storefront woocommerce-js"></body></html>`, 0.9},
			{"Store API alone", `<html><body><script>var wcSettings = {"storeApiNonce":"x","restApiRoutes":{"\/wc\/store\/v1":[]}};</script></body></html>`, 0.6},
			{"WordPress without WooCommerce", `<html><head><link rel="https://api.w.org/" href="https://blog.example/wp-json/" /><meta name="generator" content="WordPress 6.6.1" /><link rel="stylesheet" href="/wp-content/themes/twentytwentyfour/style.css"></head><body class="home blog"></body></html>`, 0},
			{"Shopify", `<html><body><script>window.Shopify = {}</script><img src="https://cdn.shopify.com/x.jpg"></body></html>`, 0},
		} {
			home := &adapter.Document{URL: "https://s.example/", Status: 200, Body: []byte(tc.body)}
			resp, err := m.Call(context.Background(), &adapter.Request{Op: adapter.OpDetect, URL: home.URL, Docs: []*adapter.Document{home}})
			if err != nil {
				t.Fatal(err)
			}
			got := 0.0
			if resp.Detection != nil {
				got = resp.Detection.Confidence
			}
			if got != tc.want {
				t.Errorf("%s/%s: confidence %v, want %v (%+v)", path, tc.name, got, tc.want, resp.Detection)
			}
		}
	}
}

const shop = "https://bergwerk.example"

// storeAPIClosed is what a store that closed the Store API answers for it.
var storeAPIClosed = &adapter.Document{URL: categoriesURL(shop), Status: 401, Header: http.Header{"Content-Type": {"application/json"}},
	Body: []byte(`{"code":"rest_not_logged_in","message":"Sie sind nicht angemeldet.","data":{"status":401}}`)}

func doc(url, contentType, body string) *adapter.Document {
	return &adapter.Document{URL: url, Status: 200, Header: http.Header{"Content-Type": {contentType}}, Body: []byte(body)}
}

func TestDiscoverReadsTheStoreAPIsCategories(t *testing.T) {
	pages := sdktest.Pages{
		categoriesURL(shop): doc(categoriesURL(shop), "application/json", `[
			{"id":17,"name":"Kleidung","slug":"kleidung","description":"","parent":0,"count":12,"image":null,"review_count":0,"permalink":"`+shop+`/produkt-kategorie/kleidung/"},
			{"id":18,"name":"Tassen &amp; Becher","slug":"tassen","description":"","parent":0,"count":3,"image":null,"review_count":0,"permalink":"`+shop+`/produkt-kategorie/tassen/"}]`),
	}
	for path, m := range paths(t) {
		cols := discover(t, m, pages, `<html><body class="home woocommerce-js"></body></html>`)
		got := fmt.Sprint(collectionsOf(cols))
		want := "[kleidung Kleidung 12 " + shop + "/produkt-kategorie/kleidung/ tassen Tassen & Becher 3 " + shop + "/produkt-kategorie/tassen/]"
		if got != want {
			t.Errorf("%s: %s\nwant %s", path, got, want)
		}
	}
}

// A store with the Store API closed is discovered from its home page: the menu items for
// product categories and the category tiles, not the contact, cart and legal pages.
func TestDiscoverReadsTheMenusWhenTheStoreAPIIsClosed(t *testing.T) {
	pages := sdktest.Pages{categoriesURL(shop): storeAPIClosed}
	home := `<html><body class="home page-template-template-homepage theme-storefront woocommerce-no-js">
	<nav id="site-navigation" class="main-navigation"><div class="primary-navigation"><ul id="menu-haupt" class="menu">
		<li id="menu-item-21" class="menu-item menu-item-type-taxonomy menu-item-object-product_cat menu-item-21"><a href="https://bergwerk.example/produkt-kategorie/kleidung/">Kleidung</a></li>
		<li id="menu-item-24" class="menu-item menu-item-type-taxonomy menu-item-object-product_cat menu-item-24"><a href="https://bergwerk.example/sortiment/angebote/">Angebote</a></li>
		<li id="menu-item-23" class="menu-item menu-item-type-post_type menu-item-object-page menu-item-23"><a href="https://bergwerk.example/kontakt/">Kontakt</a></li>
	</ul></div></nav>
	<ul id="site-header-cart" class="site-header-cart menu"><li><a class="cart-contents" href="https://bergwerk.example/warenkorb/">0,00 €</a></li></ul>
	<section class="storefront-product-section storefront-product-categories"><h2 class="section-title">Nach Kategorie einkaufen</h2>
	<div class="woocommerce columns-3"><ul class="products columns-3">
		<li class="product-category product first"><a aria-label="Produktkategorie Kleidung besuchen" href="https://bergwerk.example/produkt-kategorie/kleidung/"><img src="https://bergwerk.example/wp-content/uploads/2024/05/kleidung-324x324.jpg" alt="Kleidung" width="324" height="324" /><h2 class="woocommerce-loop-category__title">Kleidung <mark class="count">(12)</mark></h2></a></li>
		<li class="product-category product"><a href="https://bergwerk.example/produkt-kategorie/zubehoer/"><h2 class="woocommerce-loop-category__title">Zubehör <mark class="count">(4)</mark></h2></a></li>
	</ul></div></section>
	<footer><a href="https://bergwerk.example/impressum/">Impressum</a> <a href="https://bergwerk.example/mein-konto/">Mein Konto</a></footer>
	</body></html>`
	for path, m := range paths(t) {
		cols := discover(t, m, pages, home)
		got := fmt.Sprint(collectionsOf(cols))
		want := "[kleidung Kleidung 12 " + shop + "/produkt-kategorie/kleidung/ angebote Angebote 0 " + shop + "/sortiment/angebote/ zubehoer Zubehör 4 " + shop + "/produkt-kategorie/zubehoer/]"
		if got != want {
			t.Errorf("%s: %s\nwant %s", path, got, want)
		}
	}
}

func discover(t *testing.T, m adapter.Module, pages sdktest.Pages, home string) []adapter.Collection {
	t.Helper()
	set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
	cols, err := set.Discover(context.Background(), Platform, doc(shop+"/", "text/html", home))
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

// collectionsOf flattens collections for comparison: handle, title, count, URL of each.
func collectionsOf(cols []adapter.Collection) []string {
	var out []string
	for _, c := range cols {
		n := 0
		if c.ProductsCount != nil {
			n = *c.ProductsCount
		}
		out = append(out, fmt.Sprintf("%s %s %d %s", c.Handle, c.Title, n, c.URL))
	}
	return out
}

// listingsOf flattens listings for comparison: title, price, compare-at price and
// currency of each.
func listingsOf(ls []adapter.Listing) []string {
	var out []string
	for _, l := range ls {
		s := l.Title + " " + l.URL
		if l.Price != nil {
			s += fmt.Sprintf(" %v", l.Price.Current)
			if l.Price.CompareAt != nil {
				s += fmt.Sprintf(" was %v", *l.Price.CompareAt)
			}
			s += " " + l.Price.Currency
		}
		out = append(out, s)
	}
	return out
}

func TestListPagesThroughTheStoreAPI(t *testing.T) {
	kleidung := shop + "/produkt-kategorie/kleidung/"
	page := func(n int, body string) *adapter.Document {
		d := doc(productsURL(shop, "17", n), "application/json", body)
		d.Header.Set("X-WP-Total", "101")
		d.Header.Set("X-WP-TotalPages", "2")
		return d
	}
	product := func(id int, name, price, regular, low string) string {
		rng := "null"
		if low != "" {
			rng = `{"min_amount":"` + low + `","max_amount":"9900"}`
		}
		return fmt.Sprintf(`{"id":%d,"name":%q,"slug":"p%d","parent":0,"type":"simple","variation":"","permalink":"%s/produkt/p%d/","sku":"","on_sale":false,`+
			`"prices":{"price":%q,"regular_price":%q,"sale_price":%q,"price_range":%s,"currency_code":"EUR","currency_symbol":"€","currency_minor_unit":2,"currency_decimal_separator":",","currency_thousand_separator":".","currency_prefix":"","currency_suffix":" €"},`+
			`"images":[{"id":9,"src":"%s/wp-content/uploads/p%d.jpg","thumbnail":"","srcset":"","sizes":"","name":"","alt":""}],"is_in_stock":true}`,
			id, name, id, shop, id, price, regular, price, rng, shop, id)
	}
	first := []string{product(1, "Kapuzenpullover &amp; Mütze", "119950", "149900", ""), product(2, "Sweat", "4200", "4500", "4200")}
	for i := 3; i <= 100; i++ {
		first = append(first, product(i, fmt.Sprint("Artikel ", i), "1250", "1250", ""))
	}
	pages := sdktest.Pages{
		categoriesURL(shop):        doc(categoriesURL(shop), "application/json", `[{"id":17,"name":"Kleidung","slug":"kleidung","count":101,"permalink":"`+kleidung+`"}]`),
		productsURL(shop, "17", 1): page(1, "["+strings.Join(first, ",")+"]"),
		productsURL(shop, "17", 2): page(2, "["+product(101, "Schal", "1999", "1999", "")+"]"),
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		lp, err := set.List(context.Background(), Platform, kleidung, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		got := listingsOf(lp.Listings)
		if len(got) != 100 || got[0] != "Kapuzenpullover & Mütze "+shop+"/produkt/p1/ 1199.5 was 1499 EUR" ||
			got[1] != "Sweat "+shop+"/produkt/p2/ 42 EUR" || got[99] != "Artikel 100 "+shop+"/produkt/p100/ 12.5 EUR" {
			t.Errorf("%s: page 1: %d listings: %q", path, len(got), got[:min(3, len(got))])
		}
		if lp.Next != "api:17:2" || !slices.Equal(lp.Ahead, []string{"api:17:2"}) || lp.Total != 101 {
			t.Errorf("%s: page 1: next %q, ahead %q, total %d", path, lp.Next, lp.Ahead, lp.Total)
		}
		if lp.Listings[0].ID != "1" || len(lp.Listings[0].Images) != 1 || lp.Listings[0].Images[0].URL != shop+"/wp-content/uploads/p1.jpg" {
			t.Errorf("%s: first listing %+v", path, lp.Listings[0])
		}
		lp, err = set.List(context.Background(), Platform, kleidung, "api:17:2", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := listingsOf(lp.Listings); !slices.Equal(got, []string{"Schal " + shop + "/produkt/p101/ 19.99 EUR"}) || lp.Next != "" {
			t.Errorf("%s: page 2: %q, next %q", path, got, lp.Next)
		}
	}
}

// A store with the Store API closed is listed from its category archive: the tiles'
// prices in the store's locale, a sale's regular price struck, the screen-reader
// sentences left out, the archive's /page/N/ pages named ahead from its result count.
func TestListReadsTheArchiveWhenTheStoreAPIIsClosed(t *testing.T) {
	kleidung := shop + "/produkt-kategorie/kleidung/"
	tile := func(id int, class, title, price string) string {
		return fmt.Sprintf(`<li class="product type-product post-%d status-publish %s product_cat-kleidung has-post-thumbnail">
	<a href="%s/produkt/p%d/" class="woocommerce-LoopProduct-link woocommerce-loop-product__link"><img width="324" height="324" src="%s/wp-content/uploads/p%d-324x324.jpg" class="attachment-woocommerce_thumbnail size-woocommerce_thumbnail" alt="" decoding="async" loading="lazy" /><h2 class="woocommerce-loop-product__title">%s</h2>
	<span class="price">%s</span>
</a><a href="?add-to-cart=%d" data-quantity="1" class="button product_type_simple add_to_cart_button ajax_add_to_cart" data-product_id="%d" rel="nofollow">In den Warenkorb</a></li>`,
			id, class, shop, id, shop, id, title, price, id, id)
	}
	amount := func(s string) string {
		return `<span class="woocommerce-Price-amount amount"><bdi>` + s + `&nbsp;<span class="woocommerce-Price-currencySymbol">&euro;</span></bdi></span>`
	}
	archive := func(count string, tiles []string, pagination string) string {
		return `<html lang="de-DE"><body class="archive tax-product_cat term-kleidung term-17 theme-storefront woocommerce woocommerce-page">
<div class="storefront-sorting"><p class="woocommerce-result-count">` + count + `</p></div>
<ul class="products columns-4">` + strings.Join(tiles, "\n") + `</ul>
<nav class="woocommerce-pagination" aria-label="Produkt-Seitennummerierung">` + pagination + `</nav>
<section class="related"><ul class="products"></ul></section></body></html>`
	}
	page1 := archive("Zeige 1&ndash;3 von 7 Ergebnissen", []string{
		tile(1, "sale", "Kapuzenpullover", `<del aria-hidden="true">`+amount("1.499,00")+`</del> <span class="screen-reader-text">Ursprünglicher Preis war: 1.499,00&nbsp;&euro;.</span><ins aria-hidden="true">`+amount("1.199,50")+`</ins><span class="screen-reader-text">Aktueller Preis ist: 1.199,50&nbsp;&euro;.</span>`),
		tile(2, "product-type-variable", "Sweat", `<span aria-hidden="true">`+amount("42,00")+` &ndash; `+amount("45,00")+`</span><span class="screen-reader-text">Preisspanne: 42,00&nbsp;&euro; bis 45,00&nbsp;&euro;</span>`),
		tile(3, "outofstock", "Schal", amount("12,50")),
	}, `<ul class='page-numbers'><li><span aria-current="page" class="page-numbers current">1</span></li><li><a class="page-numbers" href="`+kleidung+`page/2/">2</a></li><li><a class="page-numbers" href="`+kleidung+`page/3/">3</a></li><li><a class="next page-numbers" href="`+kleidung+`page/2/">&rarr;</a></li></ul>`)
	page3 := archive("Zeige 7&ndash;7 von 7 Ergebnissen", []string{tile(7, "", "Handschuhe", amount("9,90"))}, "")
	pages := sdktest.Pages{
		categoriesURL(shop):  storeAPIClosed,
		kleidung:             doc(kleidung, "text/html", page1),
		kleidung + "page/3/": doc(kleidung+"page/3/", "text/html", page3),
		kleidung + "page/4/": {URL: kleidung + "page/4/", Status: 404, Body: []byte("<html><body class=\"error404\"></body></html>")},
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		lp, err := set.List(context.Background(), Platform, kleidung, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"Kapuzenpullover " + shop + "/produkt/p1/ 1199.5 was 1499 EUR",
			"Sweat " + shop + "/produkt/p2/ 42 EUR",
			"Schal " + shop + "/produkt/p3/ 12.5 EUR",
		}
		if got := listingsOf(lp.Listings); !slices.Equal(got, want) {
			t.Errorf("%s: page 1: %q\nwant %q", path, got, want)
		}
		if lp.Next != "2" || !slices.Equal(lp.Ahead, []string{"2", "3"}) || lp.Total != 7 || lp.Listings[0].ID != "1" {
			t.Errorf("%s: page 1: next %q, ahead %q, total %d, id %q", path, lp.Next, lp.Ahead, lp.Total, lp.Listings[0].ID)
		}
		lp, err = set.List(context.Background(), Platform, kleidung, "3", 0)
		if err != nil || len(lp.Listings) != 1 || lp.Next != "" {
			t.Errorf("%s: page 3: %+v, %v", path, lp, err)
		}
		lp, err = set.List(context.Background(), Platform, kleidung, "4", 0)
		if err != nil || len(lp.Listings) != 0 || lp.Next != "" {
			t.Errorf("%s: page 4, past the end: %+v, %v", path, lp, err)
		}
	}
}

// A tile's "$" is read in the page's locale: the Canadian dollar on a Canadian store.
func TestListReadsTheSymbolInThePagesLocale(t *testing.T) {
	shop := "https://maple.example"
	archive := shop + "/product-category/mugs/"
	page := `<html lang="en-CA"><body class="archive tax-product_cat woocommerce woocommerce-page">
<p class="woocommerce-result-count">Showing the single result</p>
<ul class="products columns-4"><li class="product type-product post-9 status-publish instock product-type-simple">
<a href="` + shop + `/product/mug/" class="woocommerce-LoopProduct-link woocommerce-loop-product__link"><h2 class="woocommerce-loop-product__title">Mug</h2>
<span class="price"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&#36;</span>12.50</bdi></span></span></a></li></ul></body></html>`
	pages := sdktest.Pages{archive: doc(archive, "text/html", page)}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		lp, err := set.List(context.Background(), Platform, archive, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := listingsOf(lp.Listings); !slices.Equal(got, []string{"Mug " + shop + "/product/mug/ 12.5 CAD"}) {
			t.Errorf("%s: %q", path, got)
		}
	}
}
