package headless

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

const shop = "https://lumiere.example"

func doc(url, body string) *adapter.Document {
	return &adapter.Document{URL: url, Status: 200, Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(body)}
}

// nextPage is a Next.js page whose pageProps are props, with markup drawn around it.
func nextPage(markup, props string) string {
	return `<!DOCTYPE html><html><body><div id="__next">` + markup + `</div><script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":` +
		props + `},"page":"/","buildId":"b1"}</script></body></html>`
}

func TestDetectClaimsAStateThatHoldsACatalogue(t *testing.T) {
	for path, m := range paths(t) {
		for _, tc := range []struct {
			name, body string
			want       float64
		}{
			{"collections", nextPage("", `{"collections":[{"handle":"vestes","title":"Vestes","path":"/search/vestes"}]}`), 0.8},
			{"a product", nextPage("", `{"product":{"handle":"veste","title":"Veste","price":{"amount":"89.0","currencyCode":"EUR"}}}`), 0.8},
			{"Nuxt 2", `<html><body><div id="__nuxt"></div><script>window.__NUXT__={"data":[{"products":[{"slug":"a","name":"A","price":12.5}]}]};</script></body></html>`, 0.8},
			{"a blog on Next.js", nextPage("", `{"posts":[{"slug":"hello","title":"Hello","date":"2024-05-01"}]}`), 0},
			{"no state", `<html><body><ul class="products"><li><a href="/p/a">A</a> 12,50 €</li></ul></body></html>`, 0},
		} {
			home := doc(shop+"/", tc.body)
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

// Discover reads the collections the home page's state names; a menu alone gives the
// collections among its entries, not the contact, cart, account and legal pages.
func TestDiscoverReadsTheStatesCollections(t *testing.T) {
	for _, tc := range []struct {
		name, props, want string
	}{
		{"collections", `{"collections":[{"handle":"vestes","title":"Vestes","path":"/search/vestes","productsCount":25},{"handle":"robes","title":"Robes","path":"/search/robes","productsCount":1}],
			"menu":[{"title":"Vestes","path":"/search/vestes"},{"title":"Contact","path":"/contact"}]}`,
			"[vestes Vestes 25 " + shop + "/search/vestes robes Robes 1 " + shop + "/search/robes]"},
		{"a menu alone", `{"menu":{"items":[{"title":"Vestes","path":"/search/vestes"},{"title":"Contact","path":"/contact"},{"title":"Panier","path":"/cart"},
			{"title":"Mon compte","path":"/account"},{"title":"Mentions légales","path":"/legal/mentions-legales"}]}}`,
			"[ Vestes 0 " + shop + "/search/vestes]"},
	} {
		for path, m := range paths(t) {
			set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: sdktest.Pages{}}
			cols, err := set.Discover(context.Background(), Platform, doc(shop+"/", nextPage("", tc.props)))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cols {
				n := 0
				if c.ProductsCount != nil {
					n = *c.ProductsCount
				}
				got = append(got, fmt.Sprintf("%s %s %d %s", c.Handle, c.Title, n, c.URL))
			}
			if fmt.Sprint(got) != tc.want {
				t.Errorf("%s/%s: %s\nwant %s", path, tc.name, got, tc.want)
			}
		}
	}
}

// A listing page's products come from its state, each linked where the page's grid links
// it; the page info names the later pages, and a page past the last ends the listing.
func TestListPagesThroughTheState(t *testing.T) {
	vestes := shop + "/search/vestes"
	products := func(from, to int) string {
		var b []string
		for i := from; i <= to; i++ {
			compareAt := "null"
			if i == 1 {
				compareAt = `{"amount":"119.0","currencyCode":"EUR"}`
			}
			b = append(b, fmt.Sprintf(`{"id":"gid://shopify/Product/%d","handle":"veste-%d","title":"Veste %d","price":{"amount":"%d.50","currencyCode":"EUR"},"compareAtPrice":%s,"featuredImage":{"url":"/media/veste-%d.jpg"}}`, i, i, i, 10+i, compareAt, i))
		}
		return "[" + strings.Join(b, ",") + "]"
	}
	pages := sdktest.Pages{
		vestes: doc(vestes, nextPage(`<a href="/product/veste-1">Veste 1</a>`,
			`{"products":`+products(1, 2)+`,"pageInfo":{"page":1,"pageSize":2,"totalPages":3,"totalCount":5,"hasNextPage":true}}`)),
		vestes + "?page=3": doc(vestes+"?page=3", nextPage(``,
			`{"products":`+products(5, 5)+`,"pageInfo":{"page":3,"pageSize":2,"totalPages":3,"totalCount":5,"hasNextPage":false}}`)),
		vestes + "?page=4": {URL: vestes + "?page=4", Status: 404, Body: []byte("<html><body>404</body></html>")},
	}
	for path, m := range paths(t) {
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: pages}
		lp, err := set.List(context.Background(), Platform, vestes, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(listingsOf(lp.Listings))
		want := "[Veste 1 " + shop + "/product/veste-1 11.5 was 119 EUR " + shop + "/media/veste-1.jpg Veste 2 " + shop + "/products/veste-2 12.5 EUR " + shop + "/media/veste-2.jpg]"
		if got != want || lp.Total != 5 || lp.Next != vestes+"?page=2" || !slices.Equal(lp.Ahead, []string{vestes + "?page=2", vestes + "?page=3"}) {
			t.Errorf("%s: page 1: %s, total %d, next %q, ahead %q\nwant %s", path, got, lp.Total, lp.Next, lp.Ahead, want)
		}
		lp, err = set.List(context.Background(), Platform, vestes, vestes+"?page=3", 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(listingsOf(lp.Listings)); got != "[Veste 5 "+shop+"/products/veste-5 15.5 EUR "+shop+"/media/veste-5.jpg]" || lp.Next != "" || lp.Ahead != nil {
			t.Errorf("%s: page 3: %s, next %q, ahead %q", path, got, lp.Next, lp.Ahead)
		}
		lp, err = set.List(context.Background(), Platform, vestes, vestes+"?page=4", 0)
		if err != nil || len(lp.Listings) != 0 || lp.Next != "" {
			t.Errorf("%s: past the last page: %+v, %v", path, lp, err)
		}
	}
}

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
		for _, im := range l.Images {
			s += " " + im.URL
		}
		out = append(out, s)
	}
	return out
}

// Nuxt 3's payload is rebuilt from devalue's flat form: members by index, reactive
// wrappers and devalue's own types reduced to plain values, cycles cut.
func TestUnflattenRebuildsNuxtsPayload(t *testing.T) {
	got, ok := unflatten(`[["ShallowReactive",1],{"data":2,"when":6,"tags":8,"self":0,"gone":-1},{"product":3},{"name":4,"price":5},"Tasse",18.5,["Date","2024-05-01T00:00:00.000Z"],"x",["Set",7]]`)
	if !ok {
		t.Fatal("not unflattened")
	}
	for path, want := range map[string]string{"data.product.name": "Tasse", "data.product.price": "18.5", "when": "2024-05-01T00:00:00.000Z",
		"tags.0": "x", "gone": ""} {
		if v := got.Get(path).String(); v != want {
			t.Errorf("%s: %q, want %q (%s)", path, v, want, got.Raw)
		}
	}
	if _, ok := unflatten(`{"not":"a payload"}`); ok {
		t.Error("an object unflattened")
	}
}
