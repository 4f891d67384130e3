package crawl

import (
	"testing"

	"github.com/stockroom/stockroom/core/urlnorm"
)

// Listings and collections are kept only when they are on the vendor's own host,
// however the store wrote the URL.
func TestSameVendorKeepsOnlyURLsOnTheVendorsHost(t *testing.T) {
	for _, c := range []struct {
		url, vendor string
		want        bool
	}{
		{"https://shop.example/products/a", "shop.example", true},
		{"https://WWW.Shop.Example/products/a/", "shop.example", true},
		{"http://shop.example:8080/collections/all?page=2", "shop.example", true},
		{"https://shop.example?variant=1", "shop.example", true},
		{"http://127.0.0.2:18301/item/x", "127.0.0.2", true},
		{"http://[::1]:8080/item/x", "::1", true},
		{"https://bücher.example/produkt/1", mustHost(t, "bücher.example"), true},
		{"https://other.example/products/a", "shop.example", false},
		{"https://shop.example.evil.test/products/a", "shop.example", false},
		{"https://evil.test/shop.example/products/a", "shop.example", false},
		{"https://cdn.shop.example/products/a", "shop.example", false},
	} {
		page, err := urlnorm.Page(c.url)
		if err != nil {
			t.Fatalf("%s: %v", c.url, err)
		}
		if got := sameVendor(page, c.vendor); got != c.want {
			t.Errorf("sameVendor(%q, %q) = %v, want %v", page, c.vendor, got, c.want)
		}
		// The vendor of a URL is what urlnorm.Host says it is.
		if host := mustHost(t, c.url); (host == c.vendor) != c.want {
			t.Errorf("%s: urlnorm.Host gives %q, which disagrees", c.url, host)
		}
	}
}

func mustHost(t *testing.T, u string) string {
	t.Helper()
	h, err := urlnorm.Host(u)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
