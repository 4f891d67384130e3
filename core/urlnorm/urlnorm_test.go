package urlnorm

import (
	"errors"
	"strings"
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

func TestHostsAndURLsBeyondTheLimitsAreRefused(t *testing.T) {
	label63 := strings.Repeat("a", MaxLabelLength)
	longest := strings.Repeat(label63+".", 3) + strings.Repeat("b", MaxHostLength-3*(MaxLabelLength+1)-len(".com")) + ".com"
	if got, err := Host(longest); err != nil || got != longest {
		t.Errorf("a host of %d bytes: %q, %v", len(longest), got, err)
	}
	for _, in := range []string{
		strings.Repeat("a", 296) + ".com",         // a label too long
		"x" + longest,                             // a host too long
		"https://" + strings.Repeat("a", 500_000), // a URL too long
	} {
		if _, err := Host(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("Host of %d bytes: %v, want ErrInvalid", len(in), err)
		}
	}
	path := "https://shop.com/" + strings.Repeat("p", MaxURLLength-len("https://shop.com/"))
	if got, err := Page(path); err != nil || got != path {
		t.Errorf("a URL of %d bytes: %v", len(path), err)
	}
	for _, in := range []string{path + "q", path + "/"} {
		if _, err := Page(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("Page of %d bytes: %v, want ErrInvalid", len(in), err)
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

// The URLs a crawl meets by the thousand, already canonical, are returned as they are; any
// difference from the canonical form takes the long way and is normalized.
func TestPageKeepsCanonicalURLsAsTheyAre(t *testing.T) {
	for _, in := range []string{
		"http://127.0.0.4:18555/item/ridgeback-insulated-sneaker-1",
		"https://shop.example/products/a-b_c.d~e",
		"https://shop.example",
		"https://localhost:8080/collections/all",
		"https://sub.shop-example.co.uk/p/1;2,3:4@5=6&7+8$9",
	} {
		if !canonicalPage(in) {
			t.Errorf("%q: not recognised as canonical", in)
		}
		if got, err := Page(in); err != nil || got != in {
			t.Errorf("Page(%q) = %q, %v", in, got, err)
		}
	}
	for in, want := range map[string]string{
		"https://shop.example/products/a/":         "https://shop.example/products/a",
		"https://www.shop.example/products/a":      "https://shop.example/products/a",
		"https://Shop.Example/products/a":          "https://shop.example/products/a",
		"https://shop.example:443/products/a":      "https://shop.example/products/a",
		"https://shop.example/products/a?b=2&a=1":  "https://shop.example/products/a?a=1&b=2",
		"https://shop.example/products/a#reviews":  "https://shop.example/products/a",
		"https://shop.example/products/caf%C3%A9":  "https://shop.example/products/caf%C3%A9",
		"https://shop.example/products/a b":        "https://shop.example/products/a%20b",
		"https://xn--caf-dma.example/products/a":   "https://xn--caf-dma.example/products/a",
		"https://café.example/products/a":          "https://xn--caf-dma.example/products/a",
		"http://127.000.0.1/p":                     "",
		" https://shop.example/products/a":         "https://shop.example/products/a",
		"https://shop.example./products/a":         "https://shop.example/products/a",
		"https://shop.example:08080/products/a":    "https://shop.example:08080/products/a",
		"https://user@shop.example/products/a":     "https://shop.example/products/a",
		"https://shop.example/products/(special)!": "https://shop.example/products/(special)!",
	} {
		if canonicalPage(in) {
			t.Errorf("%q: taken for canonical", in)
		}
		got, err := Page(in)
		if want == "" {
			continue // whatever the long way makes of it
		}
		if err != nil || got != want {
			t.Errorf("Page(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// Whatever the fast path takes for canonical, the long way returns unchanged.
func FuzzPageFastPath(f *testing.F) {
	for _, seed := range []string{
		"http://127.0.0.4:18555/item/x", "https://shop.example", "https://localhost/a", "https://a.b/c/d;e=f",
		"https://shop/a", "https://1.2.3/a", "https://1.2.3.4/a", "https://a--b.example/x", "https://-a.example/x",
		"https://xn--caf-dma.example/a", "http://shop.example:80/a", "https://shop.example:65536/a",
		"http://256.1.1.1/a", "http://01.2.3.4/a", "http://1.2.3.4.5/a", "http://0.0.0.0/a",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !canonicalPage(s) {
			return
		}
		if got, err := normalizePage(s); err != nil || got != s {
			t.Errorf("canonicalPage(%q) but the long way gives %q, %v", s, got, err)
		}
	})
}

// BenchmarkPage: a listing URL as adapters hand them back (canonical already), and one
// that needs normalizing.
func BenchmarkPage(b *testing.B) {
	for _, in := range []string{"http://127.0.0.4:18555/item/ridgeback-insulated-sneaker-1", "HTTPS://www.Shop.example/item/ridgeback-insulated-sneaker-1/"} {
		b.Run(strings.SplitN(in, ":", 2)[0], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Page(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
