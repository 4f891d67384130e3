package magento

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

func TestDetect(t *testing.T) {
	for path, m := range paths(t) {
		for _, tc := range []struct {
			name   string
			header http.Header
			body   string
			want   float64
		}{
			{"Luma", nil, `<html><head><script src="/static/version1/frontend/Magento/luma/en_GB/mage/requirejs/mixins.js"></script></head><body data-mage-init='{"loader":{}}'><script type="text/x-magento-init">{"*":{"Magento_Ui/js/core/app":{}}}</script></body></html>`, 0.95},
			{"cache header and a component", http.Header{"X-Magento-Tags": {"cat_p_1"}}, `<html><body data-mage-init='{"loader":{}}'></body></html>`, 0.9},
			{"a link that names it", nil, `<html><body><a href="/blog/Magento_2-migration">Our move</a></body></html>`, 0.4},
			{"WooCommerce", nil, `<html><head><meta name="generator" content="WooCommerce 9.1.4" /></head><body class="woocommerce"></body></html>`, 0},
		} {
			home := &adapter.Document{URL: "https://s.example/", Status: 200, Header: tc.header, Body: []byte(tc.body)}
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

const shop = "https://thistle.example"

func doc(url, body string) *adapter.Document {
	return &adapter.Document{URL: url, Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}}, Body: []byte(body)}
}

// Discovery reads the categories of Luma's top menu, at every level, and no other link.
func TestDiscoverReadsTheTopMenu(t *testing.T) {
	home := `<html><body class="cms-index-index page-layout-1column" data-mage-init='{"loader":{}}'>
<header class="page-header"><ul class="header links"><li><a href="` + shop + `/customer/account/login/">Sign In</a></li></ul>
<a class="action showcart" href="` + shop + `/checkout/cart/">My Basket</a></header>
<div class="sections nav-sections"><nav class="navigation" data-action="navigation"><ul data-mage-init='{"menu":{"responsive":true}}'>
<li  class="level0 nav-1 category-item first level-top parent"><a href="` + shop + `/women.html"  class="level-top" ><span>Women</span></a><ul class="level0 submenu">
	<li  class="level1 nav-1-1 category-item first parent"><a href="` + shop + `/women/tops-women.html" ><span>Tops</span></a></li>
	<li  class="level1 nav-1-2 category-item last"><a href="` + shop + `/women/bottoms-women.html" ><span>Bottoms</span></a></li></ul></li>
<li  class="level0 nav-2 category-item last level-top"><a href="` + shop + `/sale.html"  class="level-top" ><span>Sale</span></a></li>
</ul></nav></div>
<footer class="page-footer"><ul class="footer links"><li class="nav item"><a href="` + shop + `/contact/">Contact Us</a></li><li class="nav item"><a href="` + shop + `/privacy-policy-cookie-restriction-mode">Privacy and Cookie Policy</a></li></ul></footer>
</body></html>`
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: sdktest.Pages{}}
		cols, err := set.Discover(context.Background(), Platform, doc(shop+"/", home))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cols {
			got = append(got, c.Handle+" "+c.Title+" "+c.URL)
		}
		want := []string{"women Women " + shop + "/women.html", "women/tops-women Tops " + shop + "/women/tops-women.html",
			"women/bottoms-women Bottoms " + shop + "/women/bottoms-women.html", "sale Sale " + shop + "/sale.html"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q\nwant %q", path, got, want)
		}
	}
}

// lumaCategory is a Luma category page of tiles, with its toolbar and pager.
func lumaCategory(amount string, current int, tiles []string, next string) string {
	pager := ""
	if current > 0 {
		pager = fmt.Sprintf(`<div class="pages"><strong class="label pages-label" id="paging-label">Page</strong><ul class="items pages-items" aria-labelledby="paging-label">
<li class="item current"><strong class="page"><span class="label">You&#039;re currently reading page</span><span>%d</span></strong></li>%s</ul></div>`, current, next)
	}
	return `<html><body class="page-products categorypath-women category-women catalog-category-view page-layout-2columns-left">
<div class="toolbar toolbar-products" data-mage-init='{"productListToolbarForm":{"mode":"product_list_mode","limitDefault":3}}'>
<p class="toolbar-amount" id="toolbar-amount">` + amount + `</p>` + pager + `</div>
<div class="products wrapper grid products-grid"><ol class="products list items product-items">` + strings.Join(tiles, "\n") + `</ol></div>
<div class="toolbar toolbar-products"><p class="toolbar-amount">` + amount + `</p>` + pager + `</div></body></html>`
}

// tile is a Luma product tile: finalPrice and, on a sale, oldPrice.
func tile(id int, name, final, old string) string {
	prices := `<span class="normal-price"><span class="price-container price-final_price tax weee"><span class="price-label">As low as</span>
<span id="product-price-` + fmt.Sprint(id) + `" data-price-amount="` + final + `" data-price-type="finalPrice" class="price-wrapper "><span class="price">£` + final + `</span></span></span></span>`
	if old != "" {
		prices = `<span class="special-price"><span class="price-container price-final_price tax weee"><span class="price-label">Special Price</span>
<span id="product-price-` + fmt.Sprint(id) + `" data-price-amount="` + final + `" data-price-type="finalPrice" class="price-wrapper "><span class="price">£` + final + `</span></span></span></span>
<span class="old-price"><span class="price-container price-final_price tax weee"><span class="price-label">Regular Price</span>
<span id="old-price-` + fmt.Sprint(id) + `" data-price-amount="` + old + `" data-price-type="oldPrice" class="price-wrapper "><span class="price">£` + old + `</span></span></span></span>`
	}
	slug := strings.ToLower(strings.ReplaceAll(name, " ", "-"))
	return fmt.Sprintf(`<li class="item product product-item"><div class="product-item-info" id="product-item-info_%d" data-container="product-grid">
<a href="%s/%s.html" class="product photo product-item-photo" tabindex="-1"><span class="product-image-container product-image-container-%d"><span class="product-image-wrapper"><img class="product-image-photo" src="%s/media/catalog/product/cache/9e1d/%s.jpg" loading="lazy" width="240" height="300" alt="%s"/></span></span></a>
<div class="product details product-item-details"><strong class="product name product-item-name"><a class="product-item-link" href="%s/%s.html">
%s </a></strong>
<div class="price-box price-final_price" data-role="priceBox" data-product-id="%d" data-price-box="product-id-%d">%s</div>
<div class="product-item-inner"><div class="product actions product-item-actions"><div class="actions-primary">
<form data-role="tocart-form" data-product-sku="S%d" action="%s/checkout/cart/add/uenc/x/product/%d/" method="post"><input type="hidden" name="product" value="%d"><button type="submit" title="Add to Basket" class="action tocart primary"><span>Add to Basket</span></button></form>
</div></div></div></div></div></li>`, id, shop, slug, id, shop, slug, name, shop, slug, name, id, id, prices, id, shop, id, id)
}

func TestListPagesThroughACategory(t *testing.T) {
	women := shop + "/women.html"
	next := `<li class="item pages-item-next"><a class="action  next" href="` + women + `?p=2" title="Next"><span class="label">Page</span><span>Next</span></a></li>`
	page1 := lumaCategory(`Items <span class="toolbar-number">1</span>-<span class="toolbar-number">3</span> of <span class="toolbar-number">7</span>`, 1,
		[]string{tile(1, "Hero Hoodie", "54", ""), tile(2, "Breathe-Easy Tank", "29.995", "34"), tile(3, "Erika Running Short", "45", "")}, next)
	page3 := lumaCategory(`Items <span class="toolbar-number">7</span>-<span class="toolbar-number">7</span> of <span class="toolbar-number">7</span>`, 3,
		[]string{tile(7, "Olivia Jacket", "77", "")}, "")
	pages := sdktest.Pages{
		women:          doc(women, page1),
		women + "?p=3": doc(women+"?p=3", page3),
		women + "?p=4": doc(women+"?p=4", page3), // Magento answers past the last page with the last
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		lp, err := set.List(context.Background(), Platform, women, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range lp.Listings {
			s := fmt.Sprintf("%s %s %s %v %s", l.ID, l.Title, l.URL, l.Price.Current, l.Price.Currency)
			if l.Price.CompareAt != nil {
				s += fmt.Sprintf(" was %v", *l.Price.CompareAt)
			}
			got = append(got, s)
		}
		want := []string{"1 Hero Hoodie " + shop + "/hero-hoodie.html 54 GBP", "2 Breathe-Easy Tank " + shop + "/breathe-easy-tank.html 30 GBP was 34",
			"3 Erika Running Short " + shop + "/erika-running-short.html 45 GBP"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: page 1: %q\nwant %q", path, got, want)
		}
		if lp.Next != "2" || !slices.Equal(lp.Ahead, []string{"2", "3"}) || lp.Total != 7 {
			t.Errorf("%s: page 1: next %q, ahead %q, total %d", path, lp.Next, lp.Ahead, lp.Total)
		}
		if im := lp.Listings[0].Images; len(im) != 1 || im[0].URL != shop+"/media/catalog/product/cache/9e1d/hero-hoodie.jpg" {
			t.Errorf("%s: images %+v", path, im)
		}
		lp, err = set.List(context.Background(), Platform, women, "3", 0)
		if err != nil || len(lp.Listings) != 1 || lp.Next != "" {
			t.Errorf("%s: page 3: %+v, %v", path, lp, err)
		}
		lp, err = set.List(context.Background(), Platform, women, "4", 0)
		if err != nil || len(lp.Listings) != 0 || lp.Next != "" {
			t.Errorf("%s: page 4, answered with page 3: %+v, %v", path, lp, err)
		}
	}
}

// A real Magento 2 store's product page (almedina.net, a Portuguese bookshop on its own
// theme): detected, and its price box read, the amounts Magento computes with taxes in
// more decimals rounded to cents.
func TestARealStoresProductPage(t *testing.T) {
	const file = "/work/shared/corpus/product-extraction-benchmark/html/16606e09f7ec2fa123dce0849ea63859a65f95604cec792a094ba4171640f80e.html.gz"
	f, err := os.Open(file)
	if err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	const u = "https://www.almedina.net/c-digo-do-trabalho-anotado-1589482272.html"
	page := doc(u, string(body))
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: sdktest.Pages{u: page}}
		dets, err := set.Detect(context.Background(), page)
		if err != nil || len(dets) == 0 || dets[0].Platform != Platform {
			t.Fatalf("%s: detected %+v, %v", path, dets, err)
		}
		res, err := set.Extract(context.Background(), u, page)
		if err != nil || res.Product == nil {
			t.Fatalf("%s: %+v, %v", path, res, err)
		}
		p := res.Product
		if p.ID != "68705" || *p.Title != "Código do Trabalho - Anotado" || p.Price.Current != 71.91 || *p.Price.CompareAt != 79.9 ||
			p.Price.Currency != "EUR" || !*p.IsAvailable {
			t.Errorf("%s: %s %q %+v %v %v", path, p.ID, *p.Title, *p.Price, *p.Price.CompareAt, *p.IsAvailable)
		}
	}
}
