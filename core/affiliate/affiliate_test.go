package affiliate_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/affiliate"
	"github.com/stockroom/stockroom/core/failure"
)

func network(t *testing.T, template string, vendors ...string) *affiliate.Network {
	t.Helper()
	n, err := affiliate.New(affiliate.Options{Template: template, Vendors: vendors})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestEachPlaceholderIsFilledFromTheProductURL(t *testing.T) {
	const product = "https://WWW.Shop.com/t/air-force 1/CW2288?size=10&color=white#reviews"
	cases := []struct{ template, want string }{
		{"https://go.net/?u={url}", "https://go.net/?u=" + product},
		{"https://go.net/?u={url_encoded}",
			"https://go.net/?u=https%3A%2F%2FWWW.Shop.com%2Ft%2Fair-force+1%2FCW2288%3Fsize%3D10%26color%3Dwhite%23reviews"},
		{"https://go.net/{vendor}{path}", "https://go.net/shop.com/t/air-force%201/CW2288"},
		{"https://go.net/?dc={host}&url={url_encoded}",
			"https://go.net/?dc=www.shop.com&url=https%3A%2F%2FWWW.Shop.com%2Ft%2Fair-force+1%2FCW2288%3Fsize%3D10%26color%3Dwhite%23reviews"},
		{"https://{host}{path}?tag=me-20", "https://www.shop.com/t/air-force%201/CW2288?tag=me-20"},
	}
	for _, c := range cases {
		got, err := network(t, c.template, "shop.com").Link(product)
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %q, %v\nwant %q", c.template, got, err, c.want)
		}
	}
}

func TestPathOfAURLWithoutOneIsTheRoot(t *testing.T) {
	got, err := network(t, "https://go.net{path}", "shop.com").Link("https://shop.com?ref=x")
	if err != nil || got != "https://go.net/" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestTheURLIsTakenWithoutSurroundingSpaces(t *testing.T) {
	got, err := network(t, "https://go.net/?u={url}", "shop.com").Link("  https://shop.com/p/1\n")
	if err != nil || got != "https://go.net/?u=https://shop.com/p/1" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestCoverageByNameWildcardAndEverything(t *testing.T) {
	n := network(t, "https://go.net/?u={url_encoded}", "Shop.COM", "www.outlet.example", "*.brand.example", "xn--bcher-kva.example")
	cases := []struct {
		vendor string
		want   bool
	}{
		{"shop.com", true},
		{"eu.shop.com", false}, // a name covers that vendor only
		{"outlet.example", true},
		{"brand.example", true}, // a wildcard covers the domain itself
		{"eu.brand.example", true},
		{"a.b.brand.example", true},
		{"notbrand.example", false},
		{"brand.example.com", false},
		{"xn--bcher-kva.example", true},
		{"other.com", false},
	}
	for _, c := range cases {
		if got := n.Covers(c.vendor); got != c.want {
			t.Errorf("Covers(%q) = %v, want %v", c.vendor, got, c.want)
		}
	}
	if !network(t, "https://go.net/?u={url_encoded}", "*").Covers("anything.example") {
		t.Error(`"*" does not cover every vendor`)
	}
	var none *affiliate.Network
	if none.Covers("shop.com") {
		t.Error("no network covers a vendor")
	}
}

func TestURLsAreMatchedByTheirVendor(t *testing.T) {
	n := network(t, "https://go.net/?u={url_encoded}", "shop.com", "xn--bcher-kva.example")
	for _, u := range []string{"https://www.shop.com/p/1", "HTTP://SHOP.COM:8443/p/1", "https://shop.com./p", "https://bücher.example/buch"} {
		if _, err := n.Link(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	_, err := n.Link("https://shop.co/p/1")
	if !errors.Is(err, affiliate.ErrNotCovered) || !strings.Contains(err.Error(), "shop.co") {
		t.Errorf("a vendor outside the network: %v", err)
	}
}

func TestMalformedURLsAreRefusedWithTheReason(t *testing.T) {
	n := network(t, "https://go.net/?u={url_encoded}", "*")
	cases := map[string]string{
		"":                      "empty",
		"   ":                   "empty",
		"shop.com/p/1":          "http:// or https://",
		"ftp://shop.com/p":      "http:// or https://",
		"https:///p/1":          "no host",
		"https://shop/p/1":      "valid host",
		"https://sh op.com/p":   "unparseable",
		"https://shop.com/\x00": "unparseable",
	}
	for raw, reason := range cases {
		_, err := n.Link(raw)
		if !errors.Is(err, affiliate.ErrMalformedURL) || !strings.Contains(err.Error(), reason) {
			t.Errorf("%q: %v, want malformed (%s)", raw, err, reason)
		}
	}
}

func TestLinksAnswersEveryURLInOrderAndCountsThem(t *testing.T) {
	n := network(t, "https://go.net/?u={url_encoded}", "shop.com")
	b, err := n.Links([]string{"https://shop.com/a", "https://other.com/b", "not a url", "https://shop.com/a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Results) != 4 || b.Successful != 2 || b.Failed != 2 {
		t.Fatalf("%+v", b)
	}
	want := []struct {
		original, link string
		err            error
	}{
		{"https://shop.com/a", "https://go.net/?u=https%3A%2F%2Fshop.com%2Fa", nil},
		{"https://other.com/b", "", affiliate.ErrNotCovered},
		{"not a url", "", affiliate.ErrMalformedURL},
		{"https://shop.com/a", "https://go.net/?u=https%3A%2F%2Fshop.com%2Fa", nil},
	}
	for i, w := range want {
		r := b.Results[i]
		if r.OriginalURL != w.original || r.Link != w.link || !errors.Is(r.Err, w.err) || (w.err == nil) != (r.Err == nil) {
			t.Errorf("item %d: %+v, want %+v", i, r, w)
		}
	}
}

func TestLinksTakesOneToAHundredURLs(t *testing.T) {
	n := network(t, "https://go.net/?u={url_encoded}", "shop.com")
	urls := make([]string, affiliate.MaxURLs+1)
	for i := range urls {
		urls[i] = fmt.Sprintf("https://shop.com/p/%d", i)
	}
	if b, err := n.Links(urls[:affiliate.MaxURLs]); err != nil || b.Successful != affiliate.MaxURLs {
		t.Errorf("%d URLs: %v", affiliate.MaxURLs, err)
	}
	for _, bad := range [][]string{nil, {}, urls} {
		_, err := n.Links(bad)
		var fe *failure.Error
		if !errors.As(err, &fe) || fe.Kind != failure.Validation || fe.Param != "urls" {
			t.Errorf("%d URLs: %v, want a validation error on urls", len(bad), err)
		}
	}
}

func TestNoNetworkAnswersUnavailable(t *testing.T) {
	n, err := affiliate.New(affiliate.Options{})
	if n != nil || err != nil {
		t.Fatalf("empty options: %v, %v; want no network", n, err)
	}
	_, err = n.Links([]string{"https://shop.com/p"})
	if failure.KindOf(err) != failure.Unavailable {
		t.Errorf("no network: %v", err)
	}
}

func TestBadOptionsNameWhatIsWrong(t *testing.T) {
	const ok = "https://go.net/?u={url_encoded}"
	cases := []struct {
		template string
		vendors  []string
		want     string
	}{
		{"", []string{"shop.com"}, "template: must be set"},
		{ok, nil, "vendors: must list"},
		{"https://go.net/?u={link}", []string{"shop.com"}, "template: unknown placeholder {link}"},
		{"https://go.net/?u={url", []string{"shop.com"}, "template: " + `"https://go.net/?u={url" has a '{'`},
		{"https://go.net/?u=url}", []string{"shop.com"}, "template: " + `"https://go.net/?u=url}" has a '}'`},
		{"https://go.net/?vendor={vendor}", []string{"shop.com"}, "must hold {url}, {url_encoded} or {path}"},
		{"go.net/?u={url_encoded}", []string{"shop.com"}, "http:// or https://"},
		{"https:///?u={url_encoded}", []string{"shop.com"}, "with a host"},
		{ok, []string{"shop.com", "https://brand.example/"}, `vendors[1]: "https://brand.example/" must be a host name`},
		{ok, []string{"shop"}, `vendors[0]: "shop" is not a host name`},
		{ok, []string{"*shop.com"}, `vendors[0]`},
		{ok, []string{"*.*.shop.com"}, `vendors[0]`},
		{ok, []string{""}, `vendors[0]`},
	}
	for _, c := range cases {
		_, err := affiliate.New(affiliate.Options{Template: c.template, Vendors: c.vendors})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %q: %v, want an error with %q", c.template, c.vendors, err, c.want)
		}
	}
}
