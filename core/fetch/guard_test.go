package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
)

// Every spelling of "this machine" that a URL or a redirect can carry is refused, and the
// server behind it never sees a request. The targets are all loopback, so that even a guard
// bug would send nothing off the machine.
func TestFetchRefusesEveryWayToReachLoopback(t *testing.T) {
	target := newSite(t, nil)
	port := target.port()
	opts := testOptions()
	opts.Allow = nil
	opts.Resolver = mapResolver{
		"shop.test":   {netip.MustParseAddr("127.0.0.1")},
		"v6.test":     {netip.MustParseAddr("::1")},
		"mapped.test": {netip.MustParseAddr("::ffff:127.0.0.1")},
		"mixed.test":  {netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("0.0.0.0")},
	}
	f := newFetcher(t, opts)

	cases := []struct{ name, url string }{
		{"dotted quad", "http://127.0.0.1:" + port + "/"},
		{"other loopback address", "http://127.8.9.10:" + port + "/"},
		{"localhost", "http://localhost:" + port + "/"},
		{"LOCALHOST with trailing dot", "http://LOCALHOST.:" + port + "/"},
		{"subdomain of localhost", "http://shop.localhost:" + port + "/"},
		{"decimal", "http://2130706433:" + port + "/"},
		{"octal", "http://0177.0.0.1:" + port + "/"},
		{"octal with padding", "http://0177.0000.0000.0001:" + port + "/"},
		{"hex short form", "http://0x7f.1:" + port + "/"},
		{"hex whole", "http://0x7f000001:" + port + "/"},
		{"short form", "http://127.1:" + port + "/"},
		{"trailing dot", "http://127.0.0.1.:" + port + "/"},
		{"unspecified v4", "http://0.0.0.0:" + port + "/"},
		{"zero", "http://0:" + port + "/"},
		{"IPv6 loopback", "http://[::1]:" + port + "/"},
		{"IPv6 loopback long form", "http://[0:0:0:0:0:0:0:1]:" + port + "/"},
		{"IPv6 unspecified", "http://[::]:" + port + "/"},
		{"IPv4-mapped", "http://[::ffff:127.0.0.1]:" + port + "/"},
		{"IPv4-mapped hex", "http://[::ffff:7f00:1]:" + port + "/"},
		{"IDNA circled letter", "http://ⓛocalhost:" + port + "/"},
		{"fullwidth digits", "http://１２７.０.０.１:" + port + "/"},
		{"name resolving to 127.0.0.1", "http://shop.test:" + port + "/"},
		{"name resolving to ::1", "http://v6.test:" + port + "/"},
		{"name resolving to mapped loopback", "http://mapped.test:" + port + "/"},
		{"name resolving to several forbidden", "http://mixed.test:" + port + "/"},
	}

	// An allowed server that redirects to the target in the same spellings.
	redirector := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	opts.Allow = []string{"127.0.0.1:" + redirector.port()}
	fr := newFetcher(t, opts)
	for _, to := range []string{
		"http://127.0.0.1:" + port + "/",
		"http://localhost:" + port + "/",
		"http://2130706433:" + port + "/",
		"http://[::ffff:127.0.0.1]:" + port + "/",
		"http://shop.test:" + port + "/",
	} {
		cases = append(cases, struct{ name, url string }{"redirect to " + to, redirector.URL + "/?to=" + to})
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fetcher := f
			if strings.HasPrefix(c.url, redirector.URL) {
				fetcher = fr
			}
			resp, err := get(context.Background(), fetcher, c.url)
			if !errors.Is(err, ErrForbiddenAddress) {
				t.Fatalf("Fetch(%s) = %v, %v; want ErrForbiddenAddress", c.url, resp, err)
			}
			var blocked *BlockedAddressError
			if !errors.As(err, &blocked) || blocked.Reason == "" {
				t.Fatalf("error %v does not carry a *BlockedAddressError with a reason", err)
			}
			if IsTransient(err) {
				t.Errorf("a refused address is reported as transient: %v", err)
			}
		})
	}
	if n := target.total() + target.count("/robots.txt"); n != 0 {
		t.Errorf("the forbidden server received %d requests; want none", n)
	}
	if got := f.Stats().Blocked + fr.Stats().Blocked; got != int64(len(cases)) {
		t.Errorf("Stats().Blocked = %d; want %d", got, len(cases))
	}
}

// Literal addresses of every non-public range are refused before any connection is tried;
// public ones pass. No test here opens a socket.
func TestGuardClassifiesAddresses(t *testing.T) {
	g, err := newGuard(nil, mapResolver{})
	if err != nil {
		t.Fatal(err)
	}
	refused := []string{
		"http://10.0.0.1/", "http://10.255.255.255/",
		"http://172.16.0.1/", "http://172.31.255.254/",
		"http://192.168.1.1/",
		"http://169.254.169.254/latest/meta-data/", // cloud metadata
		"http://100.64.0.1/", "http://100.127.255.255/",
		"http://0.1.2.3/",
		"http://192.0.0.8/",
		"http://192.0.2.1/", "http://198.51.100.7/", "http://203.0.113.9/",
		"http://198.18.0.1/", "http://198.19.255.255/",
		"http://224.0.0.1/", "http://239.255.255.250/",
		"http://240.0.0.1/", "http://255.255.255.255/",
		"http://[fc00::1]/", "http://[fdab:cdef::1]/",
		"http://[fe80::1]/", "http://[fe80::1%25eth0]/",
		"http://[fec0::1]/",
		"http://[ff02::1]/",
		"http://[::127.0.0.1]/",
		"http://[::ffff:10.0.0.1]/", "http://[::ffff:a9fe:a9fe]/",
		"http://[64:ff9b::10.0.0.1]/", "http://[64:ff9b::7f00:1]/",
		"http://[2002:7f00:1::]/", "http://[2002:c0a8:0101::1]/",
		"http://[2001:db8::1]/", "http://[3fff::1]/",
		"http://[2001::1]/", // Teredo
		"http://[100::1]/",  // discard-only
		"http://0xa9.0xfe.0xa9.0xfe/",
		"http://0251.0376.0251.0376/",
		"http://2852039166/",
		"http://1.2.3.4.5/", // numeric but no address
		"http://999.1.1.1/",
		"http://8.8.8.010/", // octal spelling of a public address: ambiguous, refused too
		"http://8.8.2056/",
		"http://metadata.localhost/",
	}
	for _, raw := range refused {
		if _, err := g.checkURL(raw); !errors.Is(err, ErrForbiddenAddress) {
			t.Errorf("checkURL(%q) = %v; want ErrForbiddenAddress", raw, err)
		}
	}
	allowed := []string{
		"http://8.8.8.8/", "https://1.1.1.1:8443/x", "http://93.184.216.34/",
		"http://[2606:4700:4700::1111]/", "http://[::ffff:8.8.8.8]/",
		"http://[64:ff9b::8.8.8.8]/", "http://[2002:0808:0808::1]/",
		"http://shop.example/", "https://xn--bcher-kva.example/p?q=1",
		"http://1.2.3.4.example/", "http://0x7f.example/",
		"http://100.128.0.1/", "http://172.32.0.1/", "http://192.169.0.1/",
	}
	for _, raw := range allowed {
		if _, err := g.checkURL(raw); err != nil {
			t.Errorf("checkURL(%q) = %v; want accepted", raw, err)
		}
	}
}

// Only http and https are fetched, and never a URL with credentials: they are not part of
// a crawl, and "http://shop.com@10.0.0.1/" exists to make a reader misread the host.
func TestGuardRefusesOtherSchemesAndCredentials(t *testing.T) {
	g, _ := newGuard(nil, mapResolver{})
	for _, raw := range []string{
		"ftp://shop.example/", "file:///etc/passwd", "gopher://shop.example:70/",
		"javascript:alert(1)", "//shop.example/", "shop.example/x",
		"http://user:pass@shop.example/", "http://shop.example@127.0.0.1/",
		"http:///path", "http://shop.example:99999/", "http://[::1/",
	} {
		if _, err := g.checkURL(raw); !errors.Is(err, ErrInvalidURL) {
			t.Errorf("checkURL(%q) = %v; want ErrInvalidURL", raw, err)
		}
	}
}

// The allowlist opens exactly what it names: a CIDR any port, a host:port that pair only.
func TestAllowlistOpensWhatItNames(t *testing.T) {
	g, err := newGuard([]string{"10.1.0.0/16", "::1", "127.0.0.1:8080", "localhost:3000"}, mapResolver{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url   string
		allow bool
	}{
		{"http://10.1.2.3/", true},
		{"http://10.2.0.1/", false},
		{"http://[::1]:9/", true},
		{"http://127.0.0.1:8080/", true},
		{"http://127.0.0.1:8081/", false},
		{"http://localhost:3000/", true},
		{"http://localhost:3001/", false},
		{"http://2130706433:8080/", false}, // the allowlist never blesses odd spellings
	}
	for _, c := range cases {
		_, err := g.checkURL(c.url)
		if got := err == nil; got != c.allow {
			t.Errorf("checkURL(%q) = %v; want allowed=%v", c.url, err, c.allow)
		}
	}
	for _, bad := range []string{"not an address", "10.0.0.0/33", "host:port", "host:0"} {
		if _, err := New(Options{Allow: []string{bad}}); err == nil || !strings.Contains(err.Error(), "Options.Allow[0]") {
			t.Errorf("New with Allow %q = %v; want an error naming Options.Allow[0]", bad, err)
		}
	}
}

func TestParseLooseIPv4(t *testing.T) {
	cases := []struct {
		in          string
		want        string // "" when not valid
		wantNumeric bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"2130706433", "127.0.0.1", true},
		{"0x7f000001", "127.0.0.1", true},
		{"0177.0.0.1", "127.0.0.1", true},
		{"0x7f.1", "127.0.0.1", true},
		{"127.1", "127.0.0.1", true},
		{"10.1.258", "10.1.1.2", true},
		{"0", "0.0.0.0", true},
		{"0x", "0.0.0.0", true},
		{"4294967295", "255.255.255.255", true},
		{"4294967296", "", true},
		{"256.1.1.1", "", true},
		{"1.2.3.4.5", "", true},
		{"09.1.1.1", "", true},
		{"shop.example", "", false},
		{"1.2.3.example", "", false},
		{"0x7f.example", "", false},
	}
	for _, c := range cases {
		a, ok, numeric := parseLooseIPv4(c.in)
		got := ""
		if ok {
			got = a.String()
		}
		if got != c.want || numeric != c.wantNumeric {
			t.Errorf("parseLooseIPv4(%q) = %q, numeric %v; want %q, numeric %v", c.in, got, numeric, c.want, c.wantNumeric)
		}
	}
}

// FuzzAddressGuard checks that no URL the guard accepts names a forbidden address in any
// spelling the guard knows, and that accepted URLs are http(s) without credentials.
func FuzzAddressGuard(f *testing.F) {
	for _, seed := range []string{
		"http://127.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/",
		"http://[fe80::1%25lo]/", "http://shop.example/", "https://8.8.8.8:443/", "http://0177.1/",
		"http://user@host/", "http://[64:ff9b::a00:1]/", "http://127.0.0.1.:80/", "http://LOCALHOST/",
	} {
		f.Add(seed)
	}
	g, err := newGuard(nil, mapResolver{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := g.checkURL(raw)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.User != nil {
			t.Fatalf("accepted %q: scheme %q, user %v", raw, u.Scheme, u.User)
		}
		host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
		if a, err := netip.ParseAddr(host); err == nil {
			if why := classify(a); why != "" {
				t.Fatalf("accepted %q whose host %s is %s", raw, a, why)
			}
		}
		if _, _, numeric := parseLooseIPv4(host); numeric {
			if _, err := netip.ParseAddr(host); err != nil {
				t.Fatalf("accepted %q with a numeric host that is no canonical address", raw)
			}
		}
		if host == "localhost" || strings.HasSuffix(host, ".localhost") {
			t.Fatalf("accepted %q naming localhost", raw)
		}
	})
}

// The reason names the range the address is in, so that a refusal explains itself.
func TestClassifyNamesTheRange(t *testing.T) {
	cases := map[string]string{
		"127.0.0.1":          "loopback (127.0.0.0/8)",
		"::1":                "loopback (::1)",
		"::ffff:127.0.0.1":   "IPv4-mapped loopback (127.0.0.0/8)",
		"::ffff:10.1.1.1":    "IPv4-mapped private (10.0.0.0/8)",
		"64:ff9b::a9fe:a9fe": "NAT64 (64:ff9b::/96) of link-local (169.254.0.0/16)",
		"2002:c0a8:1::":      "6to4 (2002::/16) of private (192.168.0.0/16)",
		"fe80::1":            "link-local (fe80::/10)",
		"fd00::1":            "unique local (fc00::/7)",
		"100.64.1.1":         "carrier-grade NAT (100.64.0.0/10)",
		"8.8.8.8":            "",
		"2606:4700::1111":    "",
	}
	for in, want := range cases {
		if got := classify(netip.MustParseAddr(in)); got != want {
			t.Errorf("classify(%s) = %q; want %q", in, got, want)
		}
	}
}

// A host:port entry opens that name and port however it resolves, and nothing else.
func TestAllowlistedNameIsDialed(t *testing.T) {
	s := newSite(t, nil)
	opts := testOptions()
	opts.Allow = []string{"localhost:" + s.port()}
	f := newFetcher(t, opts)
	if _, err := get(context.Background(), f, "http://localhost:"+s.port()+"/p"); err != nil {
		t.Fatalf("Fetch via the allowlisted name = %v", err)
	}
	if _, err := get(context.Background(), f, s.URL+"/p"); !errors.Is(err, ErrForbiddenAddress) {
		t.Fatalf("Fetch via the address = %v; want ErrForbiddenAddress (only the name is allowed)", err)
	}
}
