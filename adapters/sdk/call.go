package sdk

import (
	"net/url"
	"strconv"
	"strings"
)

// Call is one round of an operation: the request and the documents the host fetched.
type Call struct {
	op      string
	url     string
	cursor  string
	total   int
	round   int
	docs    []*Doc
	need    []string
	splices []splice
}

// Op is the operation: "detect", "discover", "list", "extract" or "assemble".
func (c *Call) Op() string { return c.op }

// URL is the home page (detect, discover), the collection (list) or the product page
// (extract).
func (c *Call) URL() string { return c.url }

// Cursor is the paging position of a list call, "" for the first page.
func (c *Call) Cursor() string { return c.cursor }

// Total is, in a list call, the products the collection holds as far as the host knows
// (the store's count at discovery, or what a page stated); 0 when unknown. An adapter
// whose cursors are page numbers can then name every later page at once (Page.Ahead),
// and without it the next few.
func (c *Call) Total() int { return c.total }

// Round counts the calls of this operation so far, from 0.
func (c *Call) Round() int { return c.round }

// Docs are the documents of the call in the order they were fetched.
func (c *Call) Docs() []*Doc { return c.docs }

// Page is the document the operation started from (the home page, the product page, or
// in an assemble call the listing's record), or nil (list calls start with none).
func (c *Call) Page() *Doc {
	if len(c.docs) == 0 {
		return nil
	}
	return c.docs[0]
}

// Doc returns the document fetched for rawURL, or nil.
func (c *Call) Doc(rawURL string) *Doc {
	for _, d := range c.docs {
		if d.URL == rawURL {
			return d
		}
	}
	return nil
}

// Need returns the document for rawURL when the host has fetched it; otherwise it asks the
// host to, and returns nil. An operation that cannot go on without it returns ErrPending.
// A fetched document may have failed: check Doc.OK.
func (c *Call) Need(rawURL string) *Doc {
	if d := c.Doc(rawURL); d != nil {
		return d
	}
	for _, u := range c.need {
		if u == rawURL {
			return nil
		}
	}
	c.need = append(c.need, rawURL)
	return nil
}

// Splice makes the JSON value v the member of the answer named member, in place of the Go
// value of that name: "listings" in a List; "product.images", "product.options",
// "product.variants", "product.description" or "product.description_html" in an Extract.
// v is usually built by Value.Shape in the member's wire form (ABI.md): the host already
// holds it, so a long list or a large description reaches the answer without crossing
// into the guest at all. The host checks it like any answer. A missing v leaves the member
// out. ABI 1.2.
func (c *Call) Splice(member string, v Value) {
	for i := range c.splices {
		if c.splices[i].member == member {
			c.splices[i].v = v
			return
		}
	}
	c.splices = append(c.splices, splice{member, v})
}

// splice is a member of the answer given as a value.
type splice struct {
	member string
	v      Value
}

// Resolve returns ref resolved against the address of the call's page as it was fetched:
// where it landed after redirects, else the URL it was asked at ("/products/x.json" on a
// page of https://shop/ becomes "https://shop/products/x.json"). The call's page is Page:
// in a list call, the first document fetched; before one is, the call's URL is the base.
// Resolve the links of any other fetched document with Doc.Resolve. "" when either does
// not parse.
func (c *Call) Resolve(ref string) string {
	if p := c.Page(); p != nil {
		return p.Resolve(ref)
	}
	return resolve(c.url, ref)
}

// resolve returns ref resolved against base, or "" when either does not parse.
func resolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return ""
	}
	return b.ResolveReference(r).String()
}

// Doc is a fetched document. Its parsed forms (HTML, JSON, JSON-LD) are built by the host
// once and shared by every adapter reading it.
type Doc struct {
	// URL is the URL requested; FinalURL the one that answered after redirects, "" when
	// the same.
	URL      string
	FinalURL string
	// Status is the HTTP status, 0 when the fetch failed (Err says why).
	Status int
	Err    string
	// header holds the headers in a native build; in a guest, they are read on demand
	// from the request, req, into hdr.
	header  map[string][]string
	req     Value
	hdr     Value
	hdrRead bool
	index   int
	b       backend
}

// Landed is the address the document was answered from: FinalURL after redirects, else
// URL. Links on the page are relative to it.
func (d *Doc) Landed() string {
	if d.FinalURL != "" {
		return d.FinalURL
	}
	return d.URL
}

// Resolve returns ref, a link on the document, resolved against the address the document
// was answered from (Landed), or "" when either does not parse.
func (d *Doc) Resolve(ref string) string { return resolve(d.Landed(), ref) }

// OK reports whether the document was fetched with a 2xx status.
func (d *Doc) OK() bool { return d != nil && d.Status >= 200 && d.Status < 300 }

// Failure says why a document is not OK, for an adapter's error message: the host's
// reason when the fetch failed (it names the URL: "fetch https://…: status 502 after 4
// attempt(s)"), else "status N".
func (d *Doc) Failure() string {
	if d.Err != "" {
		return d.Err
	}
	return "status " + strconv.Itoa(d.Status)
}

// Header returns the first value of the response header name (any case), or "".
func (d *Doc) Header(name string) string {
	name = strings.ToLower(name)
	if d.header != nil {
		if v := d.header[name]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	return d.headerValue().Strings(escapePath(name) + ".0")[0]
}

// Headers returns the response headers, keys in lower case.
func (d *Doc) Headers() map[string][]string {
	if hdr := d.headerValue(); d.header == nil && hdr.Exists() {
		d.header = map[string][]string{}
		vals := hdr.Array()
		for i, k := range hdr.Keys() {
			for _, v := range vals[i].Array() {
				d.header[k] = append(d.header[k], v.String())
			}
		}
	}
	return d.header
}

// headerValue is the request's header object of the document, in a guest.
func (d *Doc) headerValue() Value {
	if !d.hdrRead && d.req.Exists() {
		d.hdr, d.hdrRead = d.req.Get("docs."+strconv.Itoa(d.index)+".header"), true
	}
	return d.hdr
}

// escapePath escapes the characters gjson paths treat specially.
func escapePath(key string) string {
	if !strings.ContainsAny(key, `.*?|#@\!=<>%`) {
		return key
	}
	var b strings.Builder
	for _, r := range key {
		if strings.ContainsRune(`.*?|#@\!=<>%`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Body returns the raw response body (one copy from the host).
func (d *Doc) Body() []byte { return d.b.body(d.index) }

// Index returns the byte offset of the first s in the raw body, or -1. The host searches,
// so a guest looking for a marker in a large page copies nothing and runs at native
// speed: prefer it to searching Body. ABI 1.1.
func (d *Doc) Index(s string) int { return d.b.index(d.index, s) }

// Contains reports whether the raw body holds s (see Index).
func (d *Doc) Contains(s string) bool { return d.Index(s) >= 0 }

// HTML returns the document's root node, the body parsed as HTML.
func (d *Doc) HTML() Node { return Node{d.b.parse(d.index, parseHTML), d.b} }

// JSON returns the body decoded as JSON; a missing Value when it is not JSON.
func (d *Doc) JSON() Value { return Value{d.b.parse(d.index, parseJSON), d.b} }

// JSONLD returns the page's JSON-LD entities as one array: every
// application/ld+json block, repaired when invalid, with top-level arrays and @graph lists
// flattened.
func (d *Doc) JSONLD() Value { return Value{d.b.parse(d.index, parseJSONLD), d.b} }

// Microdata returns the page's top-level microdata items as one array, each in JSON-LD's
// shape ({"@type": "http://schema.org/Product", "offers": {…}}), so that code reading
// JSON-LD entities reads microdata items unchanged. ABI 1.1.
func (d *Doc) Microdata() Value { return Value{d.b.parse(d.index, parseMicrodata), d.b} }

// AppState is one product-shaped object of a page's embedded application state: the
// JSON a storefront's scripts start from.
type AppState struct {
	// Source is where it was found: "next", "nuxt", "state", "json-script", "attribute",
	// "magento" or "woocommerce" (adapters/ABI.md, "Reading documents").
	Source string
	// Name is the script's id, the variable or the attribute it came from
	// ("__NEXT_DATA__", "__INITIAL_STATE__", "data-product-json").
	Name string
	// Path is where Object sits in that source's JSON, as a Get path.
	Path string
	// Object is the object as the page wrote it ({"name": …, "price": …}).
	Object Value
}

// AppState returns the product-shaped objects of the page's embedded application state,
// in document order: objects with a name or title and a price, offers, variants or sku
// in __NEXT_DATA__, window.__NUXT__, window.__INITIAL_STATE__-style assignments, Apollo
// caches, JSON scripts and data-* attributes; Magento's price configurations and
// WooCommerce's variations. The host scans the page when first asked, so an adapter that
// has what it needs from other markup pays nothing for it. ABI 1.7.
func (d *Doc) AppState() []AppState {
	list := Value{d.b.appState(d.index), d.b}.Array()
	out := make([]AppState, len(list))
	for i, e := range list {
		f := e.Strings("source", "name", "path")
		out[i] = AppState{Source: f[0], Name: f[1], Path: f[2], Object: e.Get("object")}
	}
	return out
}
