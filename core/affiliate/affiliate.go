// Package affiliate turns product URLs into affiliate links of the one network the operator
// configured, and says which vendors that network covers.
//
// A network is a link template and a list of vendors:
//
//	n, err := affiliate.New(affiliate.Options{
//		Template: "https://go.example-network.com/?id=42&url={url_encoded}",
//		Vendors:  []string{"nike.com", "*.adidas.com"},
//	})
//	link, err := n.Link("https://www.nike.com/t/air-force-1")
//	// https://go.example-network.com/?id=42&url=https%3A%2F%2Fwww.nike.com%2Ft%2Fair-force-1
//
// A nil *Network is "no network": it covers no vendor, and Links answers that the feature
// is unavailable.
package affiliate

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// MaxURLs is the most URLs one request turns into links.
const MaxURLs = 100

// Errors of one URL, wrapped with the reason; each is an item's error, not the request's.
var (
	// ErrMalformedURL is a URL that is not an http(s) URL with a valid host name.
	ErrMalformedURL = errors.New("malformed URL")
	// ErrNotCovered is a URL of a vendor outside the network.
	ErrNotCovered = errors.New("vendor is not in the affiliate network")
)

// Placeholders a template may hold, and what each is replaced with for a product URL.
var placeholders = map[string]func(product) string{
	// The product URL as the client wrote it (surrounding spaces removed).
	"url": func(p product) string { return p.raw },
	// The same, escaped to be a query parameter's value.
	"url_encoded": func(p product) string { return url.QueryEscape(p.raw) },
	// The vendor: the host name without "www.", lower case, punycode for international names.
	"vendor": func(p product) string { return p.vendor },
	// The host name as the URL writes it, lower case ("www." kept), without the port.
	"host": func(p product) string { return strings.ToLower(p.parsed.Hostname()) },
	// The URL's path, escaped as in the URL, "/" when it has none; the query is not part of it.
	"path": func(p product) string {
		if path := p.parsed.EscapedPath(); path != "" {
			return path
		}
		return "/"
	},
}

// Options configure a network. Both empty means no network.
type Options struct {
	// Template is the affiliate link with placeholders in braces: {url}, {url_encoded},
	// {vendor}, {host}, {path}. It must be an http(s) URL and hold {url}, {url_encoded} or
	// {path}, so that each link leads to its product.
	Template string
	// Vendors are the host names the network covers. "shop.com" covers shop.com (and
	// www.shop.com, the same vendor); "*.shop.com" covers shop.com and every subdomain of it;
	// "*" covers every vendor. Names are compared as the catalog writes vendors: lower case,
	// without "www.", punycode for international names.
	Vendors []string
}

// Network is a configured affiliate network. It is safe for concurrent use.
type Network struct {
	template []segment
	// exact holds vendors covered by name, domains the vendors covered with their subdomains.
	exact   map[string]bool
	domains []string
	all     bool
}

// segment is a run of a template's literal text, or one placeholder when fill is set.
type segment struct {
	text string
	fill func(product) string
}

// product is a URL being turned into a link, parsed once for every placeholder.
type product struct {
	raw    string
	parsed *url.URL
	vendor string
}

// New builds the network of o; with no template and no vendors it returns nil, no network.
// An error starts with the name of the option at fault ("template: ...", "vendors[2]: ..."),
// so that configuration can name its key.
func New(o Options) (*Network, error) {
	if o.Template == "" && len(o.Vendors) == 0 {
		return nil, nil
	}
	if o.Template == "" {
		return nil, errors.New("template: must be set when vendors are listed")
	}
	if len(o.Vendors) == 0 {
		return nil, errors.New("vendors: must list at least one vendor when a template is set")
	}
	template, err := parseTemplate(o.Template)
	if err != nil {
		return nil, fmt.Errorf("template: %w", err)
	}
	n := &Network{template: template, exact: map[string]bool{}}
	for i, entry := range o.Vendors {
		if err := n.addVendor(entry); err != nil {
			return nil, fmt.Errorf("vendors[%d]: %w", i, err)
		}
	}
	return n, nil
}

// parseTemplate splits a template into text and placeholders, and checks that it renders
// an http(s) URL that depends on the product.
func parseTemplate(t string) ([]segment, error) {
	var segments []segment
	leadsToProduct := false
	for rest := t; rest != ""; {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			segments = append(segments, segment{text: rest})
			break
		}
		if rest[open] == '}' {
			return nil, fmt.Errorf("%q has a '}' that closes no placeholder", t)
		}
		if open > 0 {
			segments = append(segments, segment{text: rest[:open]})
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("%q has a '{' that is never closed", t)
		}
		name := rest[open+1 : open+end]
		fill, ok := placeholders[name]
		if !ok {
			return nil, fmt.Errorf("unknown placeholder {%s}; known: {url}, {url_encoded}, {vendor}, {host}, {path}", name)
		}
		leadsToProduct = leadsToProduct || name == "url" || name == "url_encoded" || name == "path"
		segments = append(segments, segment{fill: fill})
		rest = rest[open+end+1:]
	}
	if !leadsToProduct {
		return nil, fmt.Errorf("%q must hold {url}, {url_encoded} or {path}, or every link would lead to the same page", t)
	}
	sample, err := parseProduct("https://www.shop.example/products/sample?variant=1")
	if err != nil {
		return nil, err
	}
	if err := checkLink(render(segments, sample)); err != nil {
		return nil, fmt.Errorf("%q: %w", t, err)
	}
	return segments, nil
}

// checkLink refuses a rendered link that is not an absolute http(s) URL.
func checkLink(link string) error {
	u, err := url.Parse(link)
	switch {
	case err != nil:
		return fmt.Errorf("does not render a URL: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("must render an http:// or https:// URL")
	case u.Host == "":
		return errors.New("must render a URL with a host")
	}
	return nil
}

// addVendor adds one entry of Options.Vendors.
func (n *Network) addVendor(entry string) error {
	name := strings.TrimSpace(entry)
	if name == "*" {
		n.all = true
		return nil
	}
	wildcard := strings.HasPrefix(name, "*.")
	name = strings.TrimPrefix(name, "*.")
	if strings.ContainsAny(name, "/:*") {
		return fmt.Errorf("%q must be a host name, \"*.\" and a host name, or \"*\"", entry)
	}
	host, err := urlnorm.Host(name)
	if err != nil {
		return fmt.Errorf("%q is not a host name", entry)
	}
	if wildcard {
		n.domains = append(n.domains, host)
	} else {
		n.exact[host] = true
	}
	return nil
}

// Covers reports whether the network covers vendor, a host name in the catalog's form
// (urlnorm.Host). No network covers nothing.
func (n *Network) Covers(vendor string) bool {
	if n == nil {
		return false
	}
	if n.all || n.exact[vendor] {
		return true
	}
	for _, domain := range n.domains {
		if vendor == domain || strings.HasSuffix(vendor, "."+domain) {
			return true
		}
	}
	return false
}

// Link returns the affiliate link of a product URL. Its error wraps ErrMalformedURL or
// ErrNotCovered; n must not be nil.
func (n *Network) Link(rawURL string) (string, error) {
	p, err := parseProduct(rawURL)
	if err != nil {
		return "", err
	}
	if !n.Covers(p.vendor) {
		return "", fmt.Errorf("%w: %s", ErrNotCovered, p.vendor)
	}
	return render(n.template, p), nil
}

// parseProduct reads a product URL, or says why it is malformed.
func parseProduct(rawURL string) (product, error) {
	s := strings.TrimSpace(rawURL)
	malformed := func(reason string) (product, error) {
		return product{}, fmt.Errorf("%w: %s", ErrMalformedURL, reason)
	}
	if s == "" {
		return malformed("empty URL")
	}
	u, err := url.Parse(s)
	if err != nil {
		return malformed("unparseable URL")
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return malformed("URL must start with http:// or https://")
	}
	if u.Host == "" {
		return malformed("URL has no host")
	}
	vendor, err := urlnorm.Host(s)
	if err != nil {
		return malformed("URL has no valid host name")
	}
	return product{raw: s, parsed: u, vendor: vendor}, nil
}

func render(template []segment, p product) string {
	var b strings.Builder
	for _, s := range template {
		if s.fill != nil {
			b.WriteString(s.fill(p))
		} else {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

// Result is one URL of a request: its link, or why it has none.
type Result struct {
	OriginalURL string
	// Link is the affiliate link; empty when Err is set.
	Link string
	// Err wraps ErrMalformedURL or ErrNotCovered.
	Err error
}

// Batch is the answer to one request, a Result per URL in the order given.
type Batch struct {
	Results    []Result
	Successful int
	Failed     int
}

// Available returns nil when there is a network, else the error (Unavailable) that Links
// answers, so that a caller may refuse a request before reading it.
func (n *Network) Available() error {
	if n == nil {
		return &failure.Error{Kind: failure.Unavailable, Message: "affiliate links are off: this server has no affiliate network configured"}
	}
	return nil
}

// Links turns up to MaxURLs product URLs into links. A URL that gets no link is an item
// with its error, not a failed request; the request fails when it holds no URL or too many,
// or when there is no network (Unavailable).
func (n *Network) Links(urls []string) (Batch, error) {
	if err := n.Available(); err != nil {
		return Batch{}, err
	}
	if len(urls) == 0 {
		return Batch{}, failure.OutOfRange("urls", "must hold at least one URL")
	}
	if len(urls) > MaxURLs {
		return Batch{}, failure.OutOfRange("urls", "must hold at most %d URLs, got %d", MaxURLs, len(urls))
	}
	b := Batch{Results: make([]Result, len(urls))}
	for i, raw := range urls {
		link, err := n.Link(raw)
		b.Results[i] = Result{OriginalURL: raw, Link: link, Err: err}
		if err != nil {
			b.Failed++
		} else {
			b.Successful++
		}
	}
	return b, nil
}
