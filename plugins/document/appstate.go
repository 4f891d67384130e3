package document

import (
	"bytes"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/stockroom/stockroom/core/adapter"
)

// AppState returns the product-shaped objects of document i's embedded application state
// as one JSON array, in document order, each {"source", "name", "path", "object"}:
//
//   - source is where the state was found: "next" (script#__NEXT_DATA__), "nuxt"
//     (window.__NUXT__, also its function-wrapped payload, and script#__NUXT_DATA__),
//     "state" (another `window.NAME = …` or `__NAME__ = …` assignment, Apollo caches
//     included), "json-script" (another <script type="application/json">, such as a
//     Shopify theme's data-product-json), "attribute" (a data-* attribute naming a
//     product, variant or item and holding JSON), "magento" (text/x-magento-init scripts,
//     data-mage-init attributes, Magento 1's `new Product.Config(…)`) or "woocommerce"
//     (data-product_variations);
//   - name is the script's id, the variable or the attribute it came from;
//   - path is where the object sits in that source's JSON, as a Get path ("" for the
//     whole);
//   - object is the object as the page wrote it; in an Apollo cache, references to other
//     entries ({"__ref": "Price:1"}) are replaced by those entries.
//
// An object is product-shaped when it has a name or title and a price, prices, offers,
// variants or sku; the objects inside one are not offered again, nor an object the page
// repeats. A Magento source offers
// its price configurations instead (objects with prices, optionPrices, basePrice or
// productPrice), and WooCommerce each variation. A page without any yields an empty array, not 0.
//
// The scan runs when an adapter first asks, never otherwise, and is kept with the
// document. It evaluates no JavaScript: an assignment is read when the value after the
// "=" is strict JSON up to its balanced end, or JSON.parse of a string literal; Nuxt's
// payload alone is read as a JavaScript literal. Whatever else is skipped. The limits
// (maxStateText, maxStatePage, maxStateObjects, maxStateDepth) bound the work on any page.
func (s *Session) AppState(i int) (Value, error) {
	d := s.Doc(i)
	if d == nil {
		return 0, nil
	}
	return s.addValue(parsedOf(d).appState(d))
}

// appState is d's application state objects, scanned on first use.
func (p *parsed) appState(d *adapter.Document) gjson.Result {
	p.stateOnce.Do(func() { p.state = gjson.Parse(ScanAppState(p.html(d))) })
	return p.state
}

// Limits of the application state scan.
const (
	// maxStateText bounds one script or attribute read as state; a larger one is skipped
	// whole. A large storefront's __NEXT_DATA__ is a megabyte or two.
	maxStateText = 4 << 20
	// maxStatePage bounds the state text read from one page, all sources together,
	// counting every attempt at a value that turned out not to be JSON.
	maxStatePage = 8 << 20
	// maxStateObjects bounds the objects offered per page.
	maxStateObjects = 64
	// maxStateDepth bounds how deep the scan looks into one source's JSON, and how deep
	// a Nuxt payload or a chain of Apollo references may nest.
	maxStateDepth = 32
)

// Sources of application state, as AppState names them.
const (
	stateNext        = "next"
	stateNuxt        = "nuxt"
	stateAssignment  = "state"
	stateJSONScript  = "json-script"
	stateAttribute   = "attribute"
	stateMagento     = "magento"
	stateWooCommerce = "woocommerce"
)

// ScanAppState returns the application state objects of the page under root as AppState
// describes them, as JSON text.
func ScanAppState(root *html.Node) string {
	sc := stateScan{budget: maxStatePage}
	sc.out = append(sc.out, '[')
	sc.element(root)
	sc.out = append(sc.out, ']')
	return string(sc.out)
}

// stateScan is one page's scan: the answer so far and what is left of the limits.
type stateScan struct {
	out    []byte
	count  int
	budget int
	// path holds the keys and indexes from a source's root to the value being walked.
	path []string
	// seen holds the objects offered, so that one a page repeats (a product tile in
	// several carousels) is offered once.
	seen map[string]bool
}

func (sc *stateScan) full() bool { return sc.count >= maxStateObjects || sc.budget <= 0 }

// element scans the elements below n: their data-* attributes, and their scripts.
func (sc *stateScan) element(n *html.Node) {
	for c := n.FirstChild; c != nil && !sc.full(); c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		sc.attributes(c)
		if c.DataAtom == atom.Script {
			sc.script(c)
			continue
		}
		sc.element(c)
	}
}

// attributes reads the data-* attributes of n that hold state.
func (sc *stateScan) attributes(n *html.Node) {
	for _, a := range n.Attr {
		if !strings.HasPrefix(a.Key, "data-") {
			continue
		}
		switch {
		case a.Key == "data-mage-init":
			sc.source(stateMagento, a.Key, a.Val)
		case a.Key == "data-product_variations":
			sc.source(stateWooCommerce, a.Key, a.Val)
		case startsJSON(a.Val) && (strings.Contains(a.Key, "product") || strings.Contains(a.Key, "variant") || strings.Contains(a.Key, "item")):
			sc.source(stateAttribute, a.Key, a.Val)
		}
	}
}

// startsJSON reports whether s, after white space, opens an object or an array.
func startsJSON(s string) bool {
	i := skipSpace(s, 0)
	return i < len(s) && (s[i] == '{' || s[i] == '[')
}

// script reads a script element: JSON by its type, or assignments in JavaScript.
func (sc *stateScan) script(n *html.Node) {
	if n.FirstChild == nil || n.FirstChild.Type != html.TextNode {
		return
	}
	text := n.FirstChild.Data
	typ := strings.ToLower(strings.TrimSpace(attr(n, "type")))
	switch {
	case typ == "" || typ == "module" || strings.Contains(typ, "javascript") || strings.Contains(typ, "ecmascript"):
		sc.assignments(text)
	case typ == "text/x-magento-init":
		sc.source(stateMagento, typ, text)
	case strings.HasSuffix(typ, "json") && !strings.Contains(typ, "ld+json"):
		id := attr(n, "id")
		switch id {
		case "__NEXT_DATA__":
			sc.source(stateNext, id, text)
		case "__NUXT_DATA__":
			if len(text) <= maxStateText && sc.spend(len(text)) {
				if payload, ok := devalue(text); ok {
					sc.walkSource(stateNuxt, id, gjson.Parse(payload))
				}
			}
		default:
			sc.source(stateJSONScript, scriptName(n, id), text)
		}
	}
}

// scriptName names a JSON script: its id, else its first data-* attribute
// (data-product-json), else "script".
func scriptName(n *html.Node, id string) string {
	if id != "" {
		return id
	}
	for _, a := range n.Attr {
		if strings.HasPrefix(a.Key, "data-") {
			return a.Key
		}
	}
	return "script"
}

// spend takes n bytes from the page's budget, and reports whether there were enough.
func (sc *stateScan) spend(n int) bool {
	if n > sc.budget {
		sc.budget = 0
		return false
	}
	sc.budget -= n
	return true
}

// source reads text as the JSON of one source, skipping it when it is not JSON.
func (sc *stateScan) source(kind, name, text string) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > maxStateText || !sc.spend(len(text)) || !validText(text) {
		return
	}
	sc.walkSource(kind, name, gjson.Parse(text))
}

// validText reports whether s is JSON in UTF-8.
func validText(s string) bool { return valid(unsafe.Slice(unsafe.StringData(s), len(s))) }

// walkSource offers the objects of one source's JSON.
func (sc *stateScan) walkSource(kind, name string, root gjson.Result) {
	sc.path = sc.path[:0]
	if kind == stateWooCommerce {
		// Each variation is offered: none has a name, and together they are the prices.
		i := 0
		root.ForEach(func(_, v gjson.Result) bool {
			if v.IsObject() {
				sc.emit(kind, name, strconv.Itoa(i), v.Raw, root)
			}
			i++
			return !sc.full()
		})
		return
	}
	sc.walk(kind, name, root, root, 0)
}

// walk offers v when it has the shape the source's objects have, and otherwise looks
// inside it.
func (sc *stateScan) walk(kind, name string, v, root gjson.Result, depth int) {
	if depth > maxStateDepth || sc.full() {
		return
	}
	if v.IsObject() && offered(kind, v) {
		sc.emit(kind, name, sc.joinPath(), v.Raw, root)
		return
	}
	if !v.IsObject() && !v.IsArray() {
		return
	}
	i := 0
	v.ForEach(func(k, e gjson.Result) bool {
		if e.IsObject() || e.IsArray() {
			if v.IsArray() {
				sc.path = append(sc.path, strconv.Itoa(i))
			} else {
				sc.path = append(sc.path, escapeKey(k.Str))
			}
			sc.walk(kind, name, e, root, depth+1)
			sc.path = sc.path[:len(sc.path)-1]
		}
		i++
		return !sc.full()
	})
}

// offered reports whether an object is one a source of kind offers.
func offered(kind string, v gjson.Result) bool {
	named, priced, priceConfig := false, false, false
	var buf [32]byte
	v.ForEach(func(k, e gjson.Result) bool {
		key := foldKey(buf[:0], k.Str)
		switch string(key) {
		case "name", "title", "productname", "producttitle", "displayname", "itemname":
			named = named || (e.Type == gjson.String && strings.TrimSpace(e.Str) != "")
		case "offers", "variants", "sku", "pricing":
			priced = true
		case "prices", "optionprices":
			priceConfig = priceConfig || e.IsObject()
			priced = true
		case "baseprice", "productprice":
			priceConfig = true // Magento 1's Product.Config and Product.OptionsPrice
			priced = true
		default:
			priced = priced || bytes.Contains(key, []byte("price"))
		}
		return true
	})
	if kind == stateMagento {
		return priceConfig
	}
	return named && priced
}

// foldKey appends to dst the key lower-cased without '_' and '-', so that product_name,
// productName and product-name compare alike. A key longer than dst's room yields nil,
// which matches nothing the scan looks for.
func foldKey(dst []byte, key string) []byte {
	if len(key) > cap(dst) {
		return nil
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '-':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// emit writes one object of the answer.
func (sc *stateScan) emit(kind, name, path, raw string, root gjson.Result) {
	if sc.count >= maxStateObjects || sc.seen[raw] {
		return
	}
	if sc.seen == nil {
		sc.seen = map[string]bool{}
	}
	sc.seen[raw] = true
	if sc.count > 0 {
		sc.out = append(sc.out, ',')
	}
	sc.count++
	sc.out = append(sc.out, `{"source":`...)
	sc.out = appendString(sc.out, kind)
	sc.out = append(sc.out, `,"name":`...)
	sc.out = appendString(sc.out, name)
	sc.out = append(sc.out, `,"path":`...)
	sc.out = appendString(sc.out, path)
	sc.out = append(sc.out, `,"object":`...)
	if strings.Contains(raw, `"__ref"`) && root.IsObject() {
		// What references add is taken from the page's budget: entries that refer to
		// each other could otherwise write far more than the page holds.
		start := len(sc.out)
		sc.out = appendResolved(sc.out, gjson.Parse(raw), root, maxStateDepth, start+min(maxStateText, sc.budget))
		sc.spend(len(sc.out) - start)
	} else {
		sc.out = append(sc.out, raw...)
	}
	sc.out = append(sc.out, '}')
}

// appendResolved appends v with each Apollo reference ({"__ref": "Price:1"}) replaced by
// the cache entry it names, as far as depth allows; past limit (a length of out) the rest
// is written as it is.
func appendResolved(out []byte, v, cache gjson.Result, depth, limit int) []byte {
	switch {
	case depth <= 0 || len(out) > limit:
		return append(out, v.Raw...)
	case v.IsObject():
		if ref := reference(v); ref != "" {
			if target := cache.Get(escapeKey(ref)); target.IsObject() {
				return appendResolved(out, target, cache, depth-1, limit)
			}
		}
		out = append(out, '{')
		first := true
		v.ForEach(func(k, e gjson.Result) bool {
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(out, k.Raw...)
			out = append(out, ':')
			out = appendResolved(out, e, cache, depth-1, limit)
			return true
		})
		return append(out, '}')
	case v.IsArray():
		out = append(out, '[')
		first := true
		v.ForEach(func(_, e gjson.Result) bool {
			if !first {
				out = append(out, ',')
			}
			first = false
			out = appendResolved(out, e, cache, depth-1, limit)
			return true
		})
		return append(out, ']')
	}
	return append(out, v.Raw...)
}

// reference is the cache key an Apollo reference names ({"__ref": "Price:1"} and nothing
// else), or "".
func reference(v gjson.Result) string {
	ref, members := "", 0
	v.ForEach(func(k, e gjson.Result) bool {
		members++
		if k.Str == "__ref" && e.Type == gjson.String {
			ref = e.Str
		}
		return members == 1
	})
	if members != 1 {
		return ""
	}
	return ref
}

// joinPath is the current path as a Get path.
func (sc *stateScan) joinPath() string { return strings.Join(sc.path, ".") }

// escapeKey escapes the characters of an object key that Get paths treat specially.
func escapeKey(key string) string {
	const special = `.*?|#@\!=<>%`
	if !strings.ContainsAny(key, special) {
		return key
	}
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		if strings.IndexByte(special, key[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(key[i])
	}
	return b.String()
}
