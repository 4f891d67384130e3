package html

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

// A tile's price is its current one, whatever markup strikes the former price through.
func TestTilePriceSkipsFormerPrices(t *testing.T) {
	cases := []struct {
		markup string
		want   float64
	}{
		{`<span class="price"><del>€30,00</del> €24,50</span>`, 24.5},
		{`<div class="tile__price"><s class="was">$189.99</s> <span class="now">$126.00</span></div>`, 126},
		{`<div class="price"><span class="price--compare">$20</span><span>$15</span></div>`, 15},
		{`<div class="price"><div><strike>$9</strike><b>$7.50</b></div></div>`, 7.5},
		{`<div class="price price--old">$40</div><div class="price">$35</div>`, 35},
		{`<s><span class="price">$50</span></s><span class="price">$45</span>`, 45},
		{`<p>Only <b>$12</b> today</p>`, 12},
		{`<div class="bold-deals"><span class="price">$5</span></div>`, 5},          // "old" above the price is no former price
		{`<div class="price"><span><b><del>$9</del> <i>$8</i></b></span></div>`, 8}, // deep inside the price element
	}
	page := "<html><body><ul>"
	for i, c := range cases {
		page += fmt.Sprintf(`<li><a href="/products/p%d">P%d</a>%s</li>`, i, i, c.markup)
	}
	page += "</ul></body></html>"
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{site + "/all": htmlDoc(site+"/all", page)}}
	got, err := set.List(context.Background(), "", site+"/all", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Listings) != len(cases) {
		t.Fatalf("%d listings, want %d", len(got.Listings), len(cases))
	}
	for i, c := range cases {
		if p := got.Listings[i].Price; p == nil || p.Current != c.want {
			t.Errorf("%s: price %+v, want %v", c.markup, p, c.want)
		}
	}
}

// Product links in the page's menus are featured items, not the collection's; a next
// link in the header is not the grid's, but one in a pagination nav is.
func TestListSkipsMenusButFollowsPaginationNav(t *testing.T) {
	const page = `<html><body><header><nav><a href="/products/featured">Featured</a><a href="/deals">Next</a></nav></header>
<ul><li class="item"><a href="/products/rake">Rake</a><span class="price">$9</span></li>
<li class="item"><a href="/products/hoe">Hoe</a><span class="price">$7</span></li></ul>
<div role="navigation"><a href="/products/crumb">Crumb</a></div>
<nav class="pagination"><a href="/all?page=2">Next</a></nav>
<footer><a href="/products/gift-card">Gift card</a></footer></body></html>`
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{site + "/all": htmlDoc(site+"/all", page)}}
	got, err := set.List(context.Background(), "", site+"/all", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, l := range got.Listings {
		urls = append(urls, l.URL)
	}
	if want := []string{site + "/products/rake", site + "/products/hoe"}; !slices.Equal(urls, want) {
		t.Errorf("listings %q, want %q", urls, want)
	}
	if got.Next != site+"/all?page=2" {
		t.Errorf("next %q, want the pagination nav's", got.Next)
	}
}

// A tile's link names its product, whatever its text: a product of the brand Next is no
// next page, and the pagination link after the grid still is.
func TestListTakesNoTileForTheNextPage(t *testing.T) {
	const page = `<html><body><ul>
<li class="item"><a href="/products/next-denim-jacket">Next</a><span class="price">$59</span></li>
<li class="item"><a href="/products/rake">Rake</a><span class="price">$9</span></li></ul>
<div class="paging"><a href="/all?page=2">Next ›</a></div></body></html>`
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{site + "/all": htmlDoc(site+"/all", page)}}
	got, err := set.List(context.Background(), "", site+"/all", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Listings) != 2 || got.Listings[0].Title != "Next" {
		t.Errorf("listings %+v", got.Listings)
	}
	if got.Next != site+"/all?page=2" {
		t.Errorf("next %q, want the paging link's", got.Next)
	}
}

// A category holding a single product lists it when the markup marks its tile as a
// product's, as Magento's and WooCommerce's grids do; a lone image link beside a price
// elsewhere is a banner.
func TestListReadsACategoryOfOneProduct(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		want       int
	}{
		{"Magento 2 (Luma)", `<html><body><div class="products wrapper grid products-grid"><ol class="products list items product-items">
			<li class="item product product-item"><div class="product-item-info"><a href="/driven-backpack.html" class="product photo product-item-photo"><img class="product-image-photo" src="/media/db.jpg" alt="Driven Backpack"></a>
			<div class="product details product-item-details"><strong class="product name product-item-name"><a class="product-item-link" href="/driven-backpack.html">Driven Backpack</a></strong>
			<div class="price-box price-final_price"><span class="price-container"><span id="product-price-14" data-price-amount="36" data-price-type="finalPrice" class="price-wrapper"><span class="price">£36.00</span></span></span></div></div></div></li>
			</ol></div></body></html>`, 1},
		{"a theme's product card", `<html><body><div class="grid"><div class="product-card"><a href="/lone-lamp"><img src="/lamp.jpg"></a><a href="/lone-lamp">Lone lamp</a><span class="price">€45,00</span></div></div></body></html>`, 1},
		{"a banner", `<html><body><div class="hero"><a href="/summer"><img src="/summer.jpg"></a><span class="price">From €9,99</span></div></body></html>`, 0},
	} {
		set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{site + "/c1": htmlDoc(site+"/c1", tc.page)}}
		p, err := set.List(context.Background(), "", site+"/c1", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Listings) != tc.want {
			t.Errorf("%s: %d listings %+v, want %d", tc.name, len(p.Listings), p.Listings, tc.want)
		}
	}
}
