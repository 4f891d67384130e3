package demostore_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestRedirectsLeadToAProductPage(t *testing.T) {
	fleet := start(t, demostore.Options{Kind: demostore.Shopify, Products: 5},
		demostore.Options{Kind: demostore.HTML, Products: 5, Faults: demostore.Faults{ProductLinks: "/go/{handle}?status=302"}})
	shop, html := fleet.Get(demostore.Shopify), fleet.Get(demostore.HTML)
	handle := shop.Catalog().Product(0).Handle
	for _, c := range []struct {
		url, location string
		status        int
	}{
		{shop.URL("/go/" + handle), shop.URL(shop.ProductPath(0)), http.StatusMovedPermanently},
		{shop.URL("/go/" + handle + "?status=302"), shop.URL(shop.ProductPath(0)), http.StatusFound},
		{html.URL("/go/" + handle + "?to=" + shop.URL("/products/")), shop.URL(shop.ProductPath(0)), http.StatusMovedPermanently},
	} {
		resp, _ := get(t, c.url)
		if resp.StatusCode != c.status || resp.Header.Get("Location") != c.location {
			t.Errorf("GET %s: %d to %q, want %d to %q", c.url, resp.StatusCode, resp.Header.Get("Location"), c.status, c.location)
		}
	}
	if resp, _ := get(t, shop.URL("/go/"+handle+"?status=200")); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a status that is no redirect: %d", resp.StatusCode)
	}

	// The HTML store's listing pages link its products through the redirect.
	page := getOK(t, html.URL(html.CategoryPath("all")))
	link := html.URL("/go/" + html.Catalog().Product(0).Handle + "?status=302")
	if !slices.ContainsFunc(hrefs(page), func(h string) bool { return strings.ReplaceAll(h, "&amp;", "&") == link }) {
		t.Errorf("listing page links no product through %s: %q", link, hrefs(page))
	}
}
