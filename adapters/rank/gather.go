package rank

import (
	"net/url"
	"path"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// reader holds what several fields' gatherers read from one page.
type reader struct {
	call *sdk.Call
	doc  *sdk.Doc
	root sdk.Node
	url  *url.URL
	// metas are the page's meta tags with content, in order; props its itemprop and
	// RDFa property elements.
	metas []metaTag
	props []propNode
	// products are the schema.org product entities of the page's JSON-LD.
	products []sdk.Value
	// heading and buy are the main heading and the buy button with the blocks above them.
	heading, buy anchor
	// titleTag and ogTitle are the page's <title> and og:title; siteNames the names the
	// store goes by (og:site_name, its domain's name).
	titleTag, ogTitle string
	siteNames         []string
	// urlWords are the words of the page's URL path; urlCodes its code-like tokens.
	urlWords []string
	urlCodes []string
	// slugWords are the words of the URL path's last segment, where a store writes the
	// product's name.
	slugWords []string
	// locale is the locale the page is written for; currencyHint the currency its prices
	// are expected in: the first its structured data states, else its locale's.
	locale       sdk.Locale
	currencyHint string
	// pricePairs are the price elements that show more than one amount, such as a
	// listing tile's former and current price.
	pricePairs []sdk.Node
	// blocks are the class and id words of the page's blocks read so far, by their
	// class and id (see classWords).
	blocks map[blockKey]*blockWords
	// unnamedBlock is what a block without a class or an id says: nothing.
	unnamedBlock blockWords
	// titleTexts are the words and compact forms of the texts the title rules read so
	// far, by text (see textOf).
	titleTexts map[string]titleText
	// segments are the <title>'s segments (see titleSegments), once segmentsRead.
	segments     []titleSegment
	segmentsRead bool
}

// metaTag is a meta tag's key (its property, name or itemprop, in lower case) and content.
type metaTag struct {
	key, content string
	node         sdk.Node
}

// propNode is an element with an itemprop or an RDFa property: name is the property's
// local name ("price" for itemprop="price" and property="schema:price").
type propNode struct {
	name   string
	source Source
	node   sdk.Node
	// content is its content attribute, read when present.
	content string
	tag     string
}

// meta returns the content of the first meta tag whose key is one of keys, in keys'
// order.
func (r *reader) meta(keys ...string) (metaTag, bool) {
	for _, k := range keys {
		for _, m := range r.metas {
			if m.key == k && strings.TrimSpace(m.content) != "" {
				return m, true
			}
		}
	}
	return metaTag{}, false
}

// Gather reads every candidate of the page of c. It returns nil when c has no page.
func Gather(c *sdk.Call) *Page {
	doc := c.Page()
	if doc == nil || !doc.OK() {
		return nil
	}
	r := &reader{call: c, doc: doc, root: doc.HTML()}
	r.url, _ = url.Parse(c.URL())
	r.locale = sdk.PageLocale(doc, c.URL())
	r.readMarkup()
	p := &Page{SchemaProduct: len(r.products) > 0 || r.root.SelectOne("[itemscope][itemtype*=product i], [itemscope][itemtype*=offer i]").Exists()}
	r.gatherTitles(p)
	r.findHeading(p)
	buttons := r.findBuy(p)
	r.titleFeatures(p)
	r.gatherPrices(p)
	r.gatherCurrencies(p)
	r.gatherAvailability(p, buttons)
	r.gatherSKUs(p)
	r.gatherImages(p)
	p.metas = map[string]string{}
	for _, m := range r.metas {
		if v := strings.TrimSpace(m.content); v != "" && p.metas[m.key] == "" {
			p.metas[m.key] = v
		}
	}
	for _, c := range p.Candidates[Price] {
		p.marked = p.marked || c.Source == Meta || c.Source == Microdata || c.Source == RDFa
	}
	return p
}

// readMarkup reads the page's machine-readable parts: meta tags, itemprop and property
// attributes, JSON-LD, and its address.
func (r *reader) readMarkup() {
	tagged := sdk.Nodes(r.root.Select("meta[content], [itemprop], [property]"))
	if len(tagged) > maxTagged {
		tagged = tagged[:maxTagged]
	}
	if len(tagged) > 0 {
		names, itemprops, properties, metaNames, contents := tagged.Name(), tagged.Attr("itemprop"), tagged.Attr("property"),
			tagged.Attr("name"), tagged.Attr("content")
		for i, n := range tagged {
			switch {
			case itemprops[i] != "":
				r.props = append(r.props, propNode{name: strings.ToLower(itemprops[i]), source: Microdata, node: n, content: contents[i], tag: names[i]})
			case names[i] == "meta":
				key := strings.ToLower(strings.TrimSpace(properties[i] + metaNames[i]))
				if properties[i] != "" && metaNames[i] != "" {
					key = strings.ToLower(properties[i])
				}
				r.metas = append(r.metas, metaTag{key: key, content: contents[i], node: n})
			case properties[i] != "":
				name := properties[i]
				if j := strings.LastIndexAny(name, ":/#"); j >= 0 {
					name = name[j+1:]
				}
				r.props = append(r.props, propNode{name: strings.ToLower(name), source: RDFa, node: n, content: contents[i], tag: names[i]})
			}
		}
	}
	for _, e := range r.doc.JSONLD().Array() {
		switch {
		case isProduct(e):
			r.products = append(r.products, e)
		case isType(e, "Offer") && isProduct(e.Get("itemOffered")):
			r.products = append(r.products, e.Get("itemOffered"))
		default:
			if m := e.Get("mainEntity"); isProduct(m) {
				r.products = append(r.products, m)
			}
		}
	}
	r.titleTag = r.root.SelectOne("title").Text()
	if m, ok := r.meta("og:title", "twitter:title"); ok {
		r.ogTitle = m.content
	}
	if m, ok := r.meta("og:site_name", "application-name", "apple-mobile-web-app-title"); ok {
		r.siteNames = append(r.siteNames, m.content)
	}
	if r.url != nil {
		if name := domainName(r.url.Hostname()); name != "" {
			r.siteNames = append(r.siteNames, name)
		}
		r.urlWords = words(r.url.Path)
		r.slugWords = words(path.Base(r.url.Path))
		r.urlCodes = codesIn(r.url.Path + " " + r.url.RawQuery)
	}
}

// maxTagged bounds the tagged elements read: pages with thousands are listings.
const maxTagged = 600

// props returns the page's property elements named one of names, in document order.
func (r *reader) propsNamed(names ...string) []propNode {
	var out []propNode
	for _, p := range r.props {
		for _, n := range names {
			if p.name == n {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// propValues reads the value of each property element: its content attribute, a link's
// href, else its text.
func propValues(props []propNode) []string {
	out := make([]string, len(props))
	var needText sdk.Nodes
	var at []int
	for i, p := range props {
		switch {
		case p.content != "":
			out[i] = strings.TrimSpace(p.content)
		default:
			needText = append(needText, p.node)
			at = append(at, i)
		}
	}
	if len(needText) == 0 {
		return out
	}
	texts, hrefs := needText.Text(), needText.Attr("href")
	for j, i := range at {
		out[i] = texts[j]
		if out[i] == "" {
			out[i] = hrefs[j]
		}
	}
	return out
}

// productScopes reports, for each property element, whether the nearest item scope around
// it is a product or an offer.
func productScopes(props []propNode) []bool {
	out := make([]bool, len(props))
	if len(props) == 0 {
		return out
	}
	nodes := make(sdk.Nodes, len(props))
	for i, p := range props {
		nodes[i] = p.node
	}
	types := nodes.Ancestor("[itemscope]").Attr("itemtype")
	for i, t := range types {
		t = strings.ToLower(t)
		out[i] = strings.Contains(t, "product") || strings.Contains(t, "offer")
	}
	return out
}

// findBuy finds the page's buy controls and takes the first one outside other products'
// blocks, the page's frame and its cart as the buy button. It returns the controls as
// elements, the enabled ones first.
func (r *reader) findBuy(p *Page) []buyControl {
	enabled, disabled := sdk.BuyControls(r.root)
	p.BuyEnabled, p.BuyDisabled = len(enabled), len(disabled)
	if len(enabled)+len(disabled) > maxButtons {
		// A listing: a button per tile says nothing of one product.
		return nil
	}
	nodes := append(append([]sdk.Node{}, enabled...), disabled...)
	els := r.describe(nodes)
	var out []buyControl
	for i := range els {
		out = append(out, buyControl{element: els[i], enabled: i < len(enabled)})
	}
	for _, b := range out {
		if b.enabled && !b.other && !b.chrome && !b.cart && !b.hidden {
			r.buy = anchorAt(b.node)
			break
		}
	}
	if r.buy == nil && len(enabled) > 0 {
		r.buy = anchorAt(enabled[0])
	}
	for i := range out {
		r.measure(&out[i].element)
	}
	return out
}

// maxButtons is the most buy controls a page of one product shows.
const maxButtons = 12

// buyControl is a buy button and whether it can be pressed.
type buyControl struct {
	element
	enabled bool
}

// measure sets how near e is to the heading and the buy button.
func (r *reader) measure(e *element) {
	e.headingLevel = r.heading.levels(e.node)
	e.buyLevel = r.buy.levels(e.node)
}

// domainName is the name a host's owner registered, without subdomains and suffix: "hm"
// for www2.hm.com, "amazon" for www.amazon.co.uk. A suffix of two labels is taken for one
// when its second-level label is short ("co.uk", "com.au"): good enough to recognise a
// store's name in its titles, which is all this is for, without the public suffix list's
// weight in every guest.
func domainName(host string) string {
	labels := strings.Split(strings.ToLower(strings.TrimSuffix(host, ".")), ".")
	n := len(labels)
	switch {
	case n >= 3 && len(labels[n-1]) == 2 && len(labels[n-2]) <= 3:
		return labels[n-3]
	case n >= 2:
		return labels[n-2]
	}
	return labels[0]
}

// gatherImages lists the product's images: the structured product's, then the meta
// tags', then itemprop images, each once, resolved against the page's URL.
func (r *reader) gatherImages(p *Page) {
	seen := map[string]bool{}
	add := func(u string) {
		if u = r.call.Resolve(u); u != "" && !seen[u] {
			seen[u] = true
			p.Images = append(p.Images, u)
		}
	}
	if len(r.products) > 0 {
		for i, img := range r.products[0].Get("image").List() {
			if i >= maxImages {
				break
			}
			if img.Kind() == sdk.Object {
				f := img.Strings("url", "contentUrl")
				add(cmpOr(f[0], f[1]))
				continue
			}
			add(img.String())
		}
	}
	for _, m := range r.metas {
		if m.key == "og:image" || m.key == "og:image:secure_url" || m.key == "twitter:image" {
			add(strings.TrimSpace(m.content))
		}
	}
	if images := r.propsNamed("image"); len(images) > 0 {
		nodes := make(sdk.Nodes, 0, len(images))
		for _, img := range images {
			nodes = append(nodes, img.node)
		}
		srcs := nodes.Attr("src")
		for i, img := range images {
			add(cmpOr(strings.TrimSpace(img.content), srcs[i]))
		}
	}
}

// maxImages bounds the images read from structured data.
const maxImages = 30
