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
