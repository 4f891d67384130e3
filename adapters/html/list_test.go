package html

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

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

// Every priced listing names its currency: the page markup's, else the one its prices are
// written in, read in the page's locale, else the locale's.
func TestListingsNameTheirCurrency(t *testing.T) {
	grid := func(head, price string) string {
		return `<html` + head + `><body><ul>` +
			`<li><a href="/products/spade"><img src="/img/spade.jpg"><h3>Spade</h3></a><div class="price">` + price + `</div></li>` +
			`<li><a href="/products/rake"><img src="/img/rake.jpg"><h3>Rake</h3></a><div class="price">` + price + `</div></li>` +
			`</ul></body></html>`
	}
	for _, tc := range []struct {
		name, page, want string
	}{
		{"markup", grid(`><head><meta property="og:price:currency" content="chf"></head`, "19.90"), "CHF"},
		{"symbol", grid(` lang="en"`, "£19.90"), "GBP"},
		{"symbol in the locale", grid(` lang="en-CA"`, "$19.90"), "CAD"},
		{"dollar in English", grid(` lang="en"`, "$19.90"), "USD"},
		{"locale alone", grid(` lang="de-AT"`, "19,90"), "EUR"},
		{"nothing says", grid(``, "19.90"), ""},
	} {
		pages := sdktest.Pages{site + "/garden": htmlDoc(site+"/garden", tc.page)}
		set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: pages}
		p, err := set.List(context.Background(), "", site+"/garden", "", 0)
		if err != nil || len(p.Listings) != 2 {
			t.Fatalf("%s: %+v %v", tc.name, p, err)
		}
		for _, l := range p.Listings {
			if l.Price == nil || l.Price.Currency != tc.want {
				t.Errorf("%s: %s priced %+v, want in %q", tc.name, l.URL, l.Price, tc.want)
			}
		}
	}
}
