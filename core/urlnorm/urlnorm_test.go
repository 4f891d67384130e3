package urlnorm

import (
	"errors"
	"testing"
)

func TestHostNamesOneVendorHowEverWritten(t *testing.T) {
	cases := []struct{ in, want string }{
		{"shop.com", "shop.com"},
		{"https://www.Shop.com/", "shop.com"},
		{"HTTP://WWW.SHOP.COM:8080/collections/all?x=1", "shop.com"},
		{"shop.com.", "shop.com"},
		{"  shop.com  ", "shop.com"},
		{"bücher.de", "xn--bcher-kva.de"},
		{"https://www.xn--bcher-kva.de/path", "xn--bcher-kva.de"},
		{"localhost:8080", "localhost"},
		{"127.0.0.1:9000", "127.0.0.1"},
	}
	for _, c := range cases {
		got, err := Host(c.in)
		if err != nil || got != c.want {
			t.Errorf("Host(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestHostRefusesWhatIsNoDomain(t *testing.T) {
	for _, in := range []string{"", "   ", "https://", "shop", "http://exa mple.com"} {
		if got, err := Host(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("Host(%q) = %q, %v; want ErrInvalid", in, got, err)
		}
	}
}

func TestPageCanonicalForm(t *testing.T) {
	cases := []struct{ in, want string }{
		{"shop.com/collections/Shoes/", "https://shop.com/collections/Shoes"},
		{"HTTPS://WWW.shop.com:443/collections/shoes#top", "https://shop.com/collections/shoes"},
		{"http://shop.com/c?utm_source=x&b=2&a=1", "http://shop.com/c?a=1&b=2"},
		{"https://shop.com:8443/c", "https://shop.com:8443/c"},
		{"https://shop.com/", "https://shop.com"},
	}
	for _, c := range cases {
		got, err := Page(c.in)
		if err != nil || got != c.want {
			t.Errorf("Page(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := Page("ftp://shop.com/x"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ftp URL accepted: %v", err)
	}
}
