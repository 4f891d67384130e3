package sdk

import (
	"math"
	"strings"
)

// Kind is the type of a JSON value.
type Kind uint32

const (
	Missing Kind = iota
	Null
	False
	True
	Number
	String
	Array
	Object
)

// Node is an HTML node (element, text or attribute) of a document. The zero Node is "no
// node": every query on it yields nothing, so chains need no nil checks.
type Node struct {
	h uint32
	b backend
}

// Exists reports whether n is a node.
func (n Node) Exists() bool { return n.h != 0 }

// Find returns the nodes under n the XPath 1.0 expression selects ("//a/@href" selects
// attribute nodes, whose Text is the value). A syntax error in expr fails the call.
func (n Node) Find(expr string) []Node {
	if n.h == 0 {
		return nil
	}
	return n.nodes(n.b.queryAll(n.h, expr))
}

// FindOne returns the first node under n that expr selects, or the zero Node.
func (n Node) FindOne(expr string) Node {
	if n.h == 0 {
		return Node{}
	}
	return Node{n.b.query(n.h, expr), n.b}
}

// Select returns the elements under n (n itself excluded) that the CSS selector matches,
// in document order: tile.Select("img"), a.SelectOne("h2, h3, [class*=title]"). The host
// matches each element with a compiled selector, where an XPath predicate of contains()
// is evaluated anew at every element. A bad selector fails the call. ABI 1.4.
func (n Node) Select(css string) []Node {
	if n.h == 0 {
		return nil
	}
	return n.nodes(n.b.cssAll(n.h, css))
}

// SelectOne returns the first element under n that the CSS selector matches, or the zero
// Node. ABI 1.4.
func (n Node) SelectOne(css string) Node {
	if n.h == 0 {
		return Node{}
	}
	return Node{n.b.cssOne(n.h, css), n.b}
}

// Text returns the text of n with white space collapsed; an attribute's value.
func (n Node) Text() string {
	if n.h == 0 {
		return ""
	}
	s, _ := n.b.nodeString(n.h, nodeText, "")
	return s
}

// FindClass returns the elements under n, in document order, whose id or class attribute
// contains one of words, case-insensitively: FindClass("price") finds
// class="product-price__current" and id="priceBlock". The host matches in one native walk,
// far cheaper than an XPath of contains() and translate() calls. ABI 1.1.
func (n Node) FindClass(words ...string) []Node { return n.findWords(wordsClass, words) }

// FindLabels returns the text nodes under n (outside script and style), in document
// order, whose text starts with one of words, case-insensitively, and is at most 64 bytes
// once white space is collapsed and invisible marks dropped: FindLabels("sku") finds
// " SKU: 1234 ". A label's value is then in the same text or in the next one
// (TextOf("following::text()[normalize-space()][1]")). ABI 1.1.
func (n Node) FindLabels(words ...string) []Node { return n.findWords(wordsLabel, words) }

func (n Node) findWords(kind wordsKind, words []string) []Node {
	if n.h == 0 || len(words) == 0 {
		return nil
	}
	if len(words) == 1 {
		// The usual FindClass("price"): no list to build.
		return n.nodes(n.b.queryWords(n.h, kind, strings.ToLower(words[0])))
	}
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	return n.nodes(n.b.queryWords(n.h, kind, strings.Join(lower, "\n")))
}

// nodes are the nodes of the handles hs, found under n.
func (n Node) nodes(hs []uint32) []Node {
	if len(hs) == 0 {
		return nil
	}
	out := n.b.nodeList(len(hs))
	for i, h := range hs {
		out[i] = Node{h, n.b}
	}
	return out
}

// Ancestor returns the nearest element above n (n itself excluded) that the CSS
// selector matches, or a node that does not exist: a.Ancestor("li, article,
// [class*=product]") is the tile around a product link, a.Ancestor("header, nav").Exists()
// says the link is in the page's menus. The host matches each element with a compiled
// selector, where the XPath ancestor::*[…][1] costs microseconds per element. ABI 1.3.
func (n Node) Ancestor(css string) Node { return n.AncestorWithin(css, Node{}) }

// AncestorWithin is Ancestor looking no higher than below container (which must be
// above n to stop the search): t.AncestorWithin("s, del", price) says whether a text sits
// in a struck element inside a price element, whatever the page wraps the price in. ABI 1.3.
func (n Node) AncestorWithin(css string, container Node) Node {
	if n.h == 0 {
		return Node{}
	}
	return Node{n.b.ancestor(n.h, css, container.h), n.b}
}

// Texts returns the text of each text node below n in document order, as Text gives it
// ("" for white space alone), leaving out scripts and styles and the text inside any
// element, n included, that the CSS selector except matches ("" leaves none out): a price
// element's texts without its struck former price, p.Texts("s, del, [class*=was]"), in
// one host call where finding the text nodes and asking each its text and ancestors took
// two per text. ABI 1.5.
func (n Node) Texts(except string) []string {
	if n.h == 0 {
		return nil
	}
	return n.b.texts(n.h, except)
}

// TextOf returns the text of the first node expr selects under n, or "".
func (n Node) TextOf(expr string) string { return n.FindOne(expr).Text() }

// Attr returns the value of the attribute name, or "".
func (n Node) Attr(name string) string {
	v, _ := n.AttrOK(name)
	return v
}

// AttrOK returns the value of the attribute name and whether n has it.
func (n Node) AttrOK(name string) (string, bool) {
	if n.h == 0 {
		return "", false
	}
	return n.b.nodeString(n.h, nodeAttr, name)
}

// Name returns the tag name of an element, lower case.
func (n Node) Name() string {
	if n.h == 0 {
		return ""
	}
	s, _ := n.b.nodeString(n.h, nodeName, "")
	return s
}

// HTML renders n with its children as HTML.
func (n Node) HTML() string {
	if n.h == 0 {
		return ""
	}
	s, _ := n.b.nodeString(n.h, nodeOuterHTML, "")
	return s
}

// InnerHTML renders the children of n as HTML.
func (n Node) InnerHTML() string {
	if n.h == 0 {
		return ""
	}
	s, _ := n.b.nodeString(n.h, nodeInnerHTML, "")
	return s
}

// Nodes asks several nodes the same question in one host call, where a Node's method is
// a call each: a listing page's tiles, their headings or their images at once
// (sdk.Nodes(links).Attr("href")). Each answer is the one the Node method gives for the
// node at the same index; a node that does not exist answers nothing. ABI 1.6.
type Nodes []Node

// SelectOne returns each node's SelectOne(css).
func (ns Nodes) SelectOne(css string) Nodes { return ns.selectEach(false, css) }

// Ancestor returns each node's Ancestor(css).
func (ns Nodes) Ancestor(css string) Nodes { return ns.selectEach(true, css) }

// Text returns each node's Text.
func (ns Nodes) Text() []string { return ns.stringEach(nodeText, "") }

// Attr returns each node's Attr(name).
func (ns Nodes) Attr(name string) []string { return ns.stringEach(nodeAttr, name) }

// Name returns each node's Name.
func (ns Nodes) Name() []string { return ns.stringEach(nodeName, "") }

// handles are the nodes' handles and the backend of those that exist; b is nil when
// none does.
func (ns Nodes) handles() (hs []uint32, b backend) {
	hs = make([]uint32, len(ns))
	for i, n := range ns {
		hs[i] = n.h
		if n.h != 0 {
			b = n.b
		}
	}
	return hs, b
}

func (ns Nodes) selectEach(above bool, css string) Nodes {
	hs, b := ns.handles()
	if b == nil {
		return make(Nodes, len(ns))
	}
	out := Nodes(b.nodeList(len(ns)))
	for i, h := range b.nodesSelect(hs, above, css) {
		if h != 0 {
			out[i] = Node{h, b}
		}
	}
	return out
}

func (ns Nodes) stringEach(what nodeWhat, arg string) []string {
	hs, b := ns.handles()
	if b == nil {
		return make([]string, len(ns))
	}
	return b.nodesString(hs, what, arg)
}

// Value is a JSON value of a document. The zero Value is missing: every query on it
// yields nothing.
type Value struct {
	h uint32
	b backend
}

// Exists reports whether v is present (null is present).
func (v Value) Exists() bool { return v.h != 0 }

// Get returns the value at path under v, in gjson path syntax: "variants.0.price",
// "offers.price"; escape dots in keys with a backslash ("@graph" needs none).
func (v Value) Get(path string) Value {
	if v.h == 0 {
		return Value{}
	}
	return Value{v.b.get(v.h, path), v.b}
}

// Kind returns the type of v.
func (v Value) Kind() Kind {
	if v.h == 0 {
		return Missing
	}
	return v.b.kind(v.h)
}

// String returns a string's contents, a number's or literal's text, and the raw JSON of an
// array or object; "" for missing and null.
func (v Value) String() string {
	if v.h == 0 {
		return ""
	}
	return v.b.valueString(v.h, valueString)
}

// Strings returns the String of the value at each path under v, "" where there is none:
// many fields in one host call, where String and Get cost two each. Paths hold no
// newline. ABI 1.2.
//
//	f := product.Strings("id", "handle", "title")
func (v Value) Strings(paths ...string) []string {
	if v.h == 0 {
		return make([]string, len(paths))
	}
	return v.b.strs(v.h, paths)
}

// HTMLText returns the readable text of the HTML a string value holds (a description's
// markup): tags dropped, entities decoded, white space collapsed. The host does the
// parsing.
func (v Value) HTMLText() string {
	if v.h == 0 {
		return ""
	}
	return v.b.valueString(v.h, valueHTMLText)
}

// Raw returns v's JSON text.
func (v Value) Raw() string {
	if v.h == 0 {
		return ""
	}
	return v.b.valueString(v.h, valueRaw)
}

// Float returns v as a number: a JSON number or a string holding a plain decimal
// ("19.90"). ok is false otherwise.
func (v Value) Float() (f float64, ok bool) {
	if v.h == 0 {
		return 0, false
	}
	f = v.b.float(v.h)
	return f, !math.IsNaN(f)
}

// Bool returns true for JSON true and the string "true".
func (v Value) Bool() bool {
	switch v.Kind() {
	case True:
		return true
	case String:
		return v.String() == "true"
	}
	return false
}

// Array returns the elements of an array, or the values of an object in order; nil
// otherwise.
func (v Value) Array() []Value {
	if v.h == 0 {
		return nil
	}
	hs := v.b.elems(v.h)
	if len(hs) == 0 {
		return nil
	}
	out := make([]Value, len(hs))
	for i, h := range hs {
		out[i] = Value{h, v.b}
	}
	return out
}

// List returns the elements of an array, and v itself when it is a single value: JSON-LD
// writes a one-element list either way ("image": "a.jpg" or "image": ["a.jpg"]).
func (v Value) List() []Value {
	switch v.Kind() {
	case Missing, Null:
		return nil
	case Array:
		return v.Array()
	}
	return []Value{v}
}

// Keys returns the keys of an object in order; nil otherwise.
func (v Value) Keys() []string {
	if v.Kind() != Object {
		return nil
	}
	return v.b.keys(v.h)
}

// Shape builds a new value from v by a template, in one host call: the template names the
// members wanted and where they come from, and the host walks v natively. It is how a long
// list (a product's images and variants, a page's listings) reaches the answer without a
// host call per field; see Call.Splice. vars are further values the template reads as
// "$1", "$2"…; the template language is in ABI.md. A template error fails the call. ABI 1.2.
//
//	images := product.Shape(`{"$each": "images", "$map": {"url": "src", "id": {"$string": "id"}}}`)
func (v Value) Shape(template string, vars ...Value) Value {
	if v.h == 0 {
		return Value{}
	}
	hs := make([]uint32, len(vars))
	for i, x := range vars {
		hs[i] = x.h
	}
	return Value{v.b.shape(v.h, template, hs), v.b}
}
