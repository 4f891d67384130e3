package html

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

const site = "https://corner.example"

func htmlDoc(u, body string) *adapter.Document {
	return &adapter.Document{URL: u, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(body)}
}

// A store whose menus mix categories with its own machinery, and whose category links sit
// outside the menu too, in relative form.
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

// A grid whose product paths say nothing: tiles are image links with a price beside; the
// next page is labelled in German.
const gridPage1 = `<html><body><nav><a href="/garden">Garden</a></nav>
<div class="grid">
<div class="card"><a href="/rake-42"><img src="/img/rake.jpg" alt="Rake"></a><a href="/rake-42">Steel Rake</a><span class="price"><del>€30,00</del> €24,50</span></div>
<div class="card"><a href="/hoe-7"><img src="/img/hoe.jpg" alt="Hoe"></a><span class="price">€12,00</span></div>
</div>
<a href="/garden/promo"><img src="/img/banner.jpg"></a>
<div class="pages"><a href="/garden?p=0">‹</a> <a href="/garden?p=2">Weiter ›</a></div>
</body></html>`

const gridPage2 = `<html><body><ul>
<li><a href="/products/spade"><img src="/img/spade.jpg"><h3>Spade</h3></a><div class="price">$19.99</div></li>
</ul><a href="/garden?p=1">«</a></body></html>`

func TestListReadsTilesAndFollowsNext(t *testing.T) {
	pages := sdktest.Pages{
		site + "/garden":     htmlDoc(site+"/garden", gridPage1),
		site + "/garden?p=2": htmlDoc(site+"/garden?p=2", gridPage2),
	}
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: pages}
	p1, err := set.List(context.Background(), "", site+"/garden", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p1.Listings) != 2 || p1.Next != site+"/garden?p=2" {
		t.Fatalf("page 1: %+v", p1)
	}
	l := p1.Listings[0]
	if l.URL != site+"/rake-42" || l.Title != "Rake" && l.Title != "Steel Rake" || l.Price == nil || l.Price.Current != 24.5 ||
		len(l.Images) != 1 || l.Images[0].URL != site+"/img/rake.jpg" {
		t.Errorf("first tile %+v price %+v", l, l.Price)
	}
	p2, err := set.List(context.Background(), "", site+"/garden", p1.Next, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p2.Listings) != 1 || p2.Listings[0].Title != "Spade" || p2.Listings[0].Price.Current != 19.99 || p2.Next != "" {
		t.Errorf("page 2: %+v", p2)
	}
	// A cursor for another site is refused rather than fetched.
	pages["https://elsewhere.example/x"] = htmlDoc("https://elsewhere.example/x", gridPage2)
	if p, _ := set.List(context.Background(), "", site+"/garden", "https://elsewhere.example/x", 0); len(p.Listings) != 0 || p.Next != "" {
		t.Errorf("foreign cursor followed: %+v", p)
	}
}

func TestIsNextLabel(t *testing.T) {
	for s, want := range map[string]bool{
		"Next": true, "Next page »": true, "»": true, "›": true, "Suivant": true, "weiter ›": true,
		"« Previous page": false, "‹": false, "Page 2": false, "": false, "Next-gen gadgets": false,
	} {
		if got := isNextLabel(s); got != want {
			t.Errorf("isNextLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

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

// FuzzIsNextLabel: isNextLabel reads every label as its first version did, which lower-cased
// the label, trimmed arrows and spaces off it and looked the word up in a map.
func FuzzIsNextLabel(f *testing.F) {
	for _, s := range []string{"Next", "Next page »", "»", "›", " › ", "Suivant", "weiter ›", "« Previous page", "‹", "Page 2", "",
		"NÄCHSTE SEITE", "next\u00a0", "下一页 ❯", "Next-gen gadgets", "\xff", "→→", ">"} {
		f.Add(s)
	}
	words := map[string]bool{
		"next": true, "next page": true, "weiter": true, "nächste": true, "nächste seite": true,
		"suivant": true, "page suivante": true, "siguiente": true, "página siguiente": true,
		"successivo": true, "pagina successiva": true, "avanti": true, "volgende": true,
		"próxima": true, "próximo": true, "seguinte": true, "nästa": true, "næste": true,
		"neste": true, "następna": true, "další": true, "次へ": true, "下一页": true,
	}
	reference := func(s string) bool {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" {
			return false
		}
		trimmed := strings.TrimSpace(strings.Trim(s, "›»→>⟩❯ \u00a0"))
		if trimmed == "" {
			return strings.ContainsAny(s, "›»→>❯")
		}
		return words[trimmed]
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isNextLabel(s), reference(s); got != want {
			t.Fatalf("isNextLabel(%q) = %v, the first version %v", s, got, want)
		}
	})
}
