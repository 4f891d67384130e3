package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/net/idna"
)

// The address guard keeps the fetcher from being turned against the machine it runs on or
// the network behind it (SSRF). README.md explains the policy; this file implements it in
// three places: checkURL refuses a URL early with a clear error, guard.dial resolves names
// and dials only addresses it may, and guard.control checks the address actually being
// connected to, so that a name resolving differently on a second lookup (DNS rebinding)
// cannot slip through.

// forbiddenRange is a block of addresses that are not public unicast destinations.
type forbiddenRange struct {
	prefix netip.Prefix
	reason string
}

// forbiddenV4 lists IPv4 special-purpose ranges (IANA registry, RFC 6890 and successors)
// that are not globally reachable, plus multicast and the reserved 240/4.
var forbiddenV4 = []forbiddenRange{
	{netip.MustParsePrefix("0.0.0.0/8"), "\"this network\" (0.0.0.0/8)"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private (10.0.0.0/8)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT (100.64.0.0/10)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback (127.0.0.0/8)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (169.254.0.0/16)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private (172.16.0.0/12)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments (192.0.0.0/24)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation (192.0.2.0/24)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast (192.88.99.0/24)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private (192.168.0.0/16)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking (198.18.0.0/15)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation (198.51.100.0/24)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation (203.0.113.0/24)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast (224.0.0.0/4)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved or broadcast (240.0.0.0/4)"},
}

// forbiddenV6 lists IPv6 ranges refused outright. Only global unicast (2000::/3) is public
// at all; inside it, these blocks are not. Ranges embedding an IPv4 address (::ffff:0:0/96,
// ::/96, 64:ff9b::/96, 2002::/16) are judged by the embedded address instead, in check.
var forbiddenV6 = []forbiddenRange{
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments incl. Teredo (2001::/23)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation (2001:db8::/32)"},
	{netip.MustParsePrefix("3fff::/20"), "documentation (3fff::/20)"},
}

var (
	globalUnicastV6 = netip.MustParsePrefix("2000::/3")
	mappedV4        = netip.MustParsePrefix("::ffff:0:0/96")
	compatibleV4    = netip.MustParsePrefix("::/96")
	nat64           = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour       = netip.MustParsePrefix("2002::/16")
	uniqueLocal     = netip.MustParsePrefix("fc00::/7")
)

// classify returns why addr is not a public unicast address, or "" when it is.
func classify(addr netip.Addr) string {
	if addr.Zone() != "" {
		return "a scoped address with a zone identifier"
	}
	if addr.Is4() {
		for _, r := range forbiddenV4 {
			if r.prefix.Contains(addr) {
				return r.reason
			}
		}
		return ""
	}
	switch {
	case mappedV4.Contains(addr):
		// Before the netip predicates below, which unmap and would name the v4 range
		// as if it were IPv6's.
		if why := classify(addr.Unmap()); why != "" {
			return "IPv4-mapped " + why
		}
		return ""
	case addr.IsUnspecified():
		return "unspecified (::)"
	case addr.IsLoopback():
		return "loopback (::1)"
	case compatibleV4.Contains(addr):
		// Deprecated (RFC 4291) and never routed; some stacks still send it to the v4 address.
		return "IPv4-compatible IPv6 (::/96)"
	case nat64.Contains(addr):
		b := addr.As16()
		if why := classify(netip.AddrFrom4([4]byte(b[12:16]))); why != "" {
			return "NAT64 (64:ff9b::/96) of " + why
		}
		return ""
	case sixToFour.Contains(addr):
		b := addr.As16()
		if why := classify(netip.AddrFrom4([4]byte(b[2:6]))); why != "" {
			return "6to4 (2002::/16) of " + why
		}
		return ""
	case addr.IsLinkLocalUnicast():
		return "link-local (fe80::/10)"
	case addr.IsMulticast():
		return "multicast (ff00::/8)"
	case uniqueLocal.Contains(addr):
		return "unique local (fc00::/7)"
	case !globalUnicastV6.Contains(addr):
		return "not global unicast (outside 2000::/3)"
	}
	for _, r := range forbiddenV6 {
		if r.prefix.Contains(addr) {
			return r.reason
		}
	}
	return ""
}

// guard holds the allowlist and dials on the fetcher's behalf.
type guard struct {
	allowNets  []netip.Prefix
	allowPorts map[string]bool // "host:port" (host lower case, IPv6 bracketed) dialed as given
	resolver   Resolver
	dialer     *net.Dialer
}

func newGuard(allow []string, resolver Resolver) (*guard, error) {
	g := &guard{allowPorts: map[string]bool{}, resolver: resolver}
	for i, entry := range allow {
		e := strings.TrimSpace(entry)
		if p, err := netip.ParsePrefix(e); err == nil {
			g.allowNets = append(g.allowNets, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(e); err == nil {
			g.allowNets = append(g.allowNets, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		host, port, err := net.SplitHostPort(e)
		if err != nil || host == "" {
			return nil, fmt.Errorf("Options.Allow[%d] %q: want a CIDR, an IP address or host:port", i, entry)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("Options.Allow[%d] %q: bad port", i, entry)
		}
		g.allowPorts[hostPortKey(host, port)] = true
	}
	g.dialer = &net.Dialer{ControlContext: g.control}
	return g, nil
}

func hostPortKey(host, port string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.String()
	}
	return net.JoinHostPort(host, port)
}

func (g *guard) allowedAddr(a netip.Addr) bool {
	for _, p := range g.allowNets {
		if p.Contains(a) || p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// checkAddr returns a *BlockedAddressError for a forbidden address, nil otherwise.
func (g *guard) checkAddr(host string, a netip.Addr, port string) error {
	if g.allowedAddr(a) || g.allowPorts[hostPortKey(a.String(), port)] {
		return nil
	}
	if why := classify(a); why != "" {
		return &BlockedAddressError{Host: host, Addr: a, Reason: why}
	}
	return nil
}

// checkURL parses raw and refuses it early when its scheme, credentials or host are not
// acceptable. Names that are not literal addresses pass here; dial checks what they resolve to.
func (g *guard) checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: %q: scheme must be http or https", ErrInvalidURL, raw)
	}
	if u.User != nil {
		// Credentials have no place in a crawl and "http://shop.com@10.0.0.1/" exists to
		// make a reader believe the host is shop.com.
		return nil, fmt.Errorf("%w: %q: URLs with user:password@ are not fetched", ErrInvalidURL, raw)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("%w: %q has no host", ErrInvalidURL, raw)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("%w: %q: bad port", ErrInvalidURL, raw)
	}
	if err := g.checkHost(host, port); err != nil {
		return nil, err
	}
	return u, nil
}

// checkHost judges a URL's host name without resolving it.
func (g *guard) checkHost(host, port string) error {
	if g.allowPorts[hostPortKey(host, port)] {
		return nil
	}
	name := strings.TrimSuffix(strings.ToLower(host), ".")
	if ascii, err := idna.Lookup.ToASCII(name); err == nil {
		// As net/http will before dialing: "ⓛocalhost" is localhost and "１２７.０.０.１"
		// is 127.0.0.1.
		name = strings.TrimSuffix(ascii, ".")
	}
	if a, err := netip.ParseAddr(name); err == nil {
		return g.checkAddr(host, a, port)
	}
	if a, ok, numeric := parseLooseIPv4(name); numeric {
		// Some resolvers (getaddrinfo, browsers) read 2130706433, 0x7f.1 and 0177.0.0.1 as
		// 127.0.0.1; others look them up as names. Neither reading is worth guessing.
		if !ok {
			return &BlockedAddressError{Host: host, Reason: "a numeric host that is no valid IPv4 address"}
		}
		if err := g.checkAddr(host, a, port); err != nil {
			return err
		}
		return &BlockedAddressError{Host: host, Addr: a, Reason: "a non-canonical spelling of an IPv4 address"}
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		// RFC 6761: these names always mean loopback, whatever DNS says.
		return g.checkAddr(host, netip.AddrFrom4([4]byte{127, 0, 0, 1}), port)
	}
	return nil
}

// parseLooseIPv4 reads the inet_aton spellings of IPv4 (1 to 4 dot-separated parts, each
// decimal, 0-prefixed octal or 0x-prefixed hex, the last filling the remaining bytes), as
// WHATWG URL parsers do when a host's last label is numeric. numeric reports whether the host
// looks like such a spelling at all; ok whether it is a valid one.
func parseLooseIPv4(host string) (addr netip.Addr, ok, numeric bool) {
	parts := strings.Split(host, ".")
	if !numericPart(parts[len(parts)-1]) {
		return netip.Addr{}, false, false
	}
	if len(parts) > 4 {
		return netip.Addr{}, false, true
	}
	var nums []uint64
	for _, p := range parts {
		n, err := parseIPv4Part(p)
		if err != nil {
			return netip.Addr{}, false, true
		}
		nums = append(nums, n)
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false, true
	}
	var v uint32
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false, true
		}
		v |= uint32(n) << (24 - 8*i)
	}
	v |= uint32(last)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, true
}

// numericPart reports whether a label is decimal digits or 0x followed by hex digits.
func numericPart(p string) bool {
	if p == "" {
		return false
	}
	if strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X") {
		return strings.Trim(p[2:], "0123456789abcdefABCDEF") == ""
	}
	return strings.Trim(p, "0123456789") == ""
}

func parseIPv4Part(p string) (uint64, error) {
	switch {
	case p == "":
		return 0, errors.New("empty part")
	case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
		if len(p) == 2 {
			return 0, nil
		}
		return strconv.ParseUint(p[2:], 16, 32)
	case len(p) > 1 && p[0] == '0':
		return strconv.ParseUint(p[1:], 8, 32)
	default:
		return strconv.ParseUint(p, 10, 32)
	}
}

// Resolver looks host names up. *net.Resolver implements it; tests inject their own.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

type allowedDialKey struct{}

// dial is the transport's DialContext. It resolves addr's host itself and dials each address
// in turn; control refuses the forbidden ones at connect time. A host:port listed in
// Options.Allow is dialed whatever it resolves to.
func (g *guard) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if g.allowPorts[hostPortKey(host, port)] {
		ctx = context.WithValue(ctx, allowedDialKey{}, true)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ipNet := map[string]string{"tcp4": "ip4", "tcp6": "ip6"}[network]
		if ipNet == "" {
			ipNet = "ip"
		}
		addrs, err = g.resolver.LookupNetIP(ctx, ipNet, host)
		if err != nil {
			return nil, err
		}
	}
	var firstErr error
	for _, a := range addrs {
		conn, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return conn, nil
		}
		var blocked *BlockedAddressError
		if errors.As(err, &blocked) {
			blocked.Host = host
		}
		if firstErr == nil || (errors.As(err, &blocked) && !errors.As(firstErr, &blocked)) {
			// A refusal explains more than a connection error to another address.
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if firstErr == nil {
		firstErr = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, firstErr
}

// control runs after the socket is created and before it connects: the last word on the
// address, whoever resolved it.
func (g *guard) control(ctx context.Context, network, address string, _ syscall.RawConn) error {
	if allowed, _ := ctx.Value(allowedDialKey{}).(bool); allowed {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedAddressError{Host: address, Reason: "an address the guard cannot read"}
	}
	return g.checkAddr(ap.Addr().String(), ap.Addr(), strconv.Itoa(int(ap.Port())))
}
