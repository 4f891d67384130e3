// Package document is the host's native document library: it parses each fetched document
// once (HTML tree, JSON, JSON-LD blocks) and answers adapters' queries about it through
// small integer handles.
//
// It has no WebAssembly dependency on purpose. The wazero host functions in plugins/wasm
// wrap a Session for guests; adapters/sdk built natively calls a Session directly, so the
// same adapter source runs both ways and the two can be compared page for page.
package document

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/andybalholm/cascadia"
	"github.com/antchfx/htmlquery"
	"github.com/tidwall/gjson"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/stockroom/stockroom/core/adapter"
)

// Node is a handle to an HTML node of the session's documents; 0 is "no node".
type Node uint32

// Value is a handle to a JSON value of the session's documents; 0 is "no value" (a
// missing key, an index out of range).
type Value uint32

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

// DefaultMaxHandles bounds the handles one call may hold, so a guest that loops over
// queries cannot grow the host's memory without limit.
const DefaultMaxHandles = 1 << 20

// ErrTooManyHandles is returned when a call exceeds its handle budget.
var ErrTooManyHandles = errors.New("document: too many handles in one call")

// parsed is what the host derives from one Document, each part built on first use and kept
// with the Document (adapter.Document.Memo) for every later adapter and round.
type parsed struct {
	htmlOnce sync.Once
	root     *html.Node

	jsonOnce sync.Once
	json     gjson.Result

	ldOnce sync.Once
	ld     gjson.Result

	mdOnce sync.Once
	md     gjson.Result

	stateOnce sync.Once
	state     gjson.Result
}

func parsedOf(d *adapter.Document) *parsed {
	return d.Memo(func(*adapter.Document) any { return &parsed{} }).(*parsed)
}

// Session holds the documents of one adapter call and the handles given out during it.
// A Session is used by one call at a time; Reset readies it for the next call so its
// tables are reused.
type Session struct {
	docs       []*adapter.Document
	nodes      []*html.Node
	values     []gjson.Result
	maxHandles int
	scratch    []*html.Node
	// shapes keeps compiled Shape templates from call to call: an adapter sends the same
	// few templates for every page.
	shapes map[string]*shapeNode
	// selectors keeps compiled CSS selectors the same way (css.go).
	selectors map[string]cascadia.Matcher
	// indexes and lists hold the members of large objects and the elements of large lists
	// read during the call (index.go); listScratch and innerListScratch are split's
	// buffers for the lists it passes, and for those within their elements.
	indexes          map[textKey][]member
	lists            map[textKey][]gjson.Result
	listScratch      []gjson.Result
	innerListScratch []gjson.Result
	// recent holds the members of the last small objects paths went through (index.go).
	recent recentObjects
	// words holds what FindWords may match under the nodes it was asked about during the
	// call (words.go).
	words map[wordsKey][]wordTarget
}

// NewSession returns a session over docs. maxHandles <= 0 means DefaultMaxHandles.
func NewSession(docs []*adapter.Document, maxHandles int) *Session {
	s := &Session{maxHandles: maxHandles}
	if s.maxHandles <= 0 {
		s.maxHandles = DefaultMaxHandles
	}
	s.Reset(docs)
	return s
}

// Reset drops every handle and sets the documents of the next call.
func (s *Session) Reset(docs []*adapter.Document) {
	s.docs = docs
	clear(s.nodes)
	s.nodes = s.nodes[:0]
	s.values = s.values[:0]
	clear(s.indexes)
	clear(s.lists)
	s.recent.clear()
	clear(s.words)
}

// Docs returns the session's documents.
func (s *Session) Docs() []*adapter.Document { return s.docs }

// Doc returns document i, or nil when i is out of range.
func (s *Session) Doc(i int) *adapter.Document {
	if i < 0 || i >= len(s.docs) {
		return nil
	}
	return s.docs[i]
}

func (s *Session) full() bool { return len(s.nodes)+len(s.values) >= s.maxHandles }

func (s *Session) addNode(n *html.Node) (Node, error) {
	if n == nil {
		return 0, nil
	}
	if s.full() {
		return 0, ErrTooManyHandles
	}
	s.nodes = append(s.nodes, n)
	return Node(len(s.nodes)), nil
}

func (s *Session) node(h Node) *html.Node {
	if h == 0 || int(h) > len(s.nodes) {
		return nil
	}
	return s.nodes[h-1]
}

func (s *Session) addValue(v gjson.Result) (Value, error) {
	if !v.Exists() {
		return 0, nil
	}
	if s.full() {
		return 0, ErrTooManyHandles
	}
	s.values = append(s.values, v)
	return Value(len(s.values)), nil
}

func (s *Session) value(h Value) gjson.Result {
	if h == 0 || int(h) > len(s.values) {
		return gjson.Result{}
	}
	return s.values[h-1]
}

// AddJSON returns a handle to the JSON value raw, which the caller guarantees valid (the
// host's own encoding of a request).
func (s *Session) AddJSON(raw []byte) (Value, error) {
	return s.addValue(gjson.ParseBytes(raw))
}

// HTML returns the root node of document i parsed as HTML. Parsing never fails on
// real-world markup; an out-of-range document yields 0.
func (s *Session) HTML(i int) (Node, error) {
	d := s.Doc(i)
	if d == nil {
		return 0, nil
	}
	return s.addNode(parsedOf(d).html(d))
}

// html is d's parsed HTML tree, parsed on first use.
func (p *parsed) html(d *adapter.Document) *html.Node {
	p.htmlOnce.Do(func() {
		root, err := html.Parse(bytes.NewReader(d.Body))
		if err != nil {
			// html.Parse only fails on reader errors; a bytes.Reader has none. An empty
			// document keeps queries valid.
			root = &html.Node{Type: html.DocumentNode}
		}
		p.root = root
	})
	return p.root
}

// jsonld is d's JSON-LD entities as one array, extracted on first use.
func (p *parsed) jsonld(d *adapter.Document) gjson.Result {
	p.ldOnce.Do(func() { p.ld = gjson.Parse(extractJSONLD(p.html(d))) })
	return p.ld
}

// StructuredData returns the page's own structured data: its JSON-LD entities (as
// Session.JSONLD finds them), then its microdata items (as Session.Microdata renders
// them, in JSON-LD's shape), decoded the way encoding/json decodes into any: maps,
// slices, float64, string, bool, nil. The host reads facts adapters do not report (a
// product's reviews) with it, from the parse the adapters already paid for. A page with
// neither yields nil.
func StructuredData(d *adapter.Document) []any {
	if d == nil {
		return nil
	}
	p := parsedOf(d)
	entities, _ := p.jsonld(d).Value().([]any)
	items, _ := p.microdata(d).Value().([]any)
	return append(entities, items...)
}

// JSON returns document i's body as a JSON value, 0 when it is not valid JSON.
func (s *Session) JSON(i int) (Value, error) {
	d := s.Doc(i)
	if d == nil {
		return 0, nil
	}
	p := parsedOf(d)
	p.jsonOnce.Do(func() {
		body := bytes.TrimPrefix(d.Body, []byte("\xef\xbb\xbf"))
		if valid(body) {
			// A view of the body, not a copy (ParseBytes copies it whole): a Document's
			// Body never changes once adapters read it, and a storefront page is a megabyte.
			p.json = gjson.Parse(unsafe.String(unsafe.SliceData(body), len(body)))
		} else if fixed := Repair(body); fixed != nil {
			p.json = gjson.ParseBytes(fixed)
		}
	})
	return s.addValue(p.json)
}

// JSONLD returns the JSON-LD entities of document i as one JSON array: every
// <script type="application/ld+json"> block, repaired when invalid (see Repair), with
// top-level arrays and @graph lists flattened into their entities. Blocks that cannot be
// repaired are skipped. A page without JSON-LD yields an empty array, not 0.
func (s *Session) JSONLD(i int) (Value, error) {
	d := s.Doc(i)
	if d == nil {
		return 0, nil
	}
	return s.addValue(parsedOf(d).jsonld(d))
}

func extractJSONLD(root *html.Node) string {
	var b strings.Builder
	b.WriteByte('[')
	n := 0
	add := func(raw string) {
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(raw)
		n++
	}
	for _, script := range htmlquery.Find(root, "//script[@type]") {
		typ := strings.ToLower(strings.TrimSpace(htmlquery.SelectAttr(script, "type")))
		if !strings.HasPrefix(typ, "application/ld+json") {
			continue
		}
		text := []byte(htmlquery.InnerText(script))
		if !valid(text) {
			if text = Repair(text); text == nil {
				continue
			}
		}
		block := gjson.ParseBytes(text)
		for _, entity := range flatten(block) {
			add(entity.Raw)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// flatten lists the entities of a JSON-LD block: the elements of a top-level array, and the
// members of @graph (with the block itself when it says more than its @context).
func flatten(v gjson.Result) []gjson.Result {
	var out []gjson.Result
	switch {
	case v.IsArray():
		for _, e := range v.Array() {
			out = append(out, flatten(e)...)
		}
	case v.IsObject():
		if g := v.Get(`@graph`); g.Exists() {
			for _, e := range g.Array() {
				out = append(out, flatten(e)...)
			}
			if v.Get(`@type`).Exists() {
				out = append(out, v)
			}
			return out
		}
		out = append(out, v)
	}
	return out
}

// QueryAll appends to dst the handles of the nodes under n that the XPath expression
// selects. Attribute selections (//meta/@content) yield attribute nodes whose Text is the
// attribute value.
func (s *Session) QueryAll(n Node, expr string, dst []Node) ([]Node, error) {
	top := s.node(n)
	if top == nil {
		return dst, nil
	}
	found, err := htmlquery.QueryAll(top, expr)
	if err != nil {
		return dst, fmt.Errorf("xpath %q: %w", expr, err)
	}
	for _, f := range found {
		h, err := s.addNode(f)
		if err != nil {
			return dst, err
		}
		dst = append(dst, h)
	}
	return dst, nil
}

// Query returns the first node under n that expr selects, or 0.
func (s *Session) Query(n Node, expr string) (Node, error) {
	top := s.node(n)
	if top == nil {
		return 0, nil
	}
	found, err := htmlquery.Query(top, expr)
	if err != nil {
		return 0, fmt.Errorf("xpath %q: %w", expr, err)
	}
	return s.addNode(found)
}

// Text returns the text content of n as a reader sees it: the contents of scripts and
// styles inside it left out, runs of white space collapsed; for an attribute node, the
// attribute value; for a script or style element itself, its code.
func (s *Session) Text(n Node) string {
	node := s.node(n)
	if node == nil {
		return ""
	}
	if node.Type == html.ElementNode && (node.Data == "script" || node.Data == "style") {
		return collapse(htmlquery.InnerText(node))
	}
	return collapse(innerText(node))
}

// collapse trims s and turns every run of white space into one space, as a reader sees it.
func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\t\r\f\v") && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// Attr returns the attribute name of n and whether n has it.
func (s *Session) Attr(n Node, name string) (string, bool) {
	node := s.node(n)
	if node == nil {
		return "", false
	}
	for _, a := range node.Attr {
		if strings.EqualFold(a.Key, name) {
			return a.Val, true
		}
	}
	return "", false
}

// Name returns the tag name of an element (lower case), or the name of an attribute node.
func (s *Session) Name(n Node) string {
	node := s.node(n)
	if node == nil {
		return ""
	}
	return node.Data
}

// OuterHTML renders n and its children as HTML.
func (s *Session) OuterHTML(n Node) string {
	node := s.node(n)
	if node == nil {
		return ""
	}
	return htmlquery.OutputHTML(node, true)
}

// InnerHTML renders the children of n as HTML.
func (s *Session) InnerHTML(n Node) string {
	node := s.node(n)
	if node == nil {
		return ""
	}
	return htmlquery.OutputHTML(node, false)
}

// Get returns the value at path under v, in gjson path syntax ("variants.0.price",
// "offers.#.price"); keys containing dots or wildcards are escaped with a backslash.
func (s *Session) Get(v Value, path string) (Value, error) {
	return s.addValue(s.get(s.value(v), path))
}

// Kind returns the type of v; Missing for 0.
func (s *Session) Kind(v Value) Kind {
	r := s.value(v)
	switch r.Type {
	case gjson.Null:
		if !r.Exists() {
			return Missing
		}
		return Null
	case gjson.False:
		return False
	case gjson.True:
		return True
	case gjson.Number:
		return Number
	case gjson.String:
		return String
	}
	if r.IsArray() {
		return Array
	}
	return Object
}

// String returns v as a string: a string's contents, a number's or a literal's text, and
// the raw JSON of arrays and objects. Missing and null yield "".
func (s *Session) String(v Value) string {
	r := s.value(v)
	if r.Type == gjson.Null {
		return ""
	}
	return r.String()
}

// Strings appends to dst the String of the value at each path under v: many fields read
// in one query, so a guest pays one crossing for a product's scalars instead of two per
// field.
func (s *Session) Strings(v Value, paths []string, dst []string) []string {
	r := s.value(v)
	for _, p := range paths {
		e := s.get(r, p)
		if e.Type == gjson.Null {
			dst = append(dst, "")
			continue
		}
		dst = append(dst, e.String())
	}
	return dst
}

// Float returns v as a number: a number, or a string holding one ("19.90"); ok is false
// for anything else.
func (s *Session) Float(v Value) (f float64, ok bool) {
	r := s.value(v)
	switch r.Type {
	case gjson.Number:
		return r.Num, true
	case gjson.String:
		return parseNumber(r.Str)
	}
	return 0, false
}

// HTMLText returns the readable text of the HTML fragment a JSON string holds (a
// description's markup): tags dropped, entities decoded, white space collapsed.
func (s *Session) HTMLText(v Value) string {
	return FragmentText(s.String(v))
}

// FragmentText returns the readable text of an HTML fragment.
func FragmentText(fragment string) string {
	if !strings.ContainsAny(fragment, "<&") {
		return collapse(fragment)
	}
	nodes, err := html.ParseFragment(strings.NewReader(fragment), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return collapse(fragment)
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style"):
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockElements[n.Data] {
			b.WriteByte(' ')
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return collapse(b.String())
}

// blockElements end a run of text: "<p>a</p><p>b</p>" reads "a b", not "ab".
var blockElements = map[string]bool{"p": true, "div": true, "br": true, "li": true, "tr": true, "td": true, "th": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "ul": true, "ol": true, "table": true, "section": true}

// Raw returns v's JSON text.
func (s *Session) Raw(v Value) string { return s.value(v).Raw }

// Elems appends to dst the handles of v's elements (an array) or values (an object); keys,
// when not nil, receives an object's keys in order.
func (s *Session) Elems(v Value, dst []Value, keys *[]string) ([]Value, error) {
	r := s.value(v)
	if !r.IsArray() && !r.IsObject() {
		return dst, nil
	}
	var err error
	r.ForEach(func(k, e gjson.Result) bool {
		var h Value
		if h, err = s.addValue(e); err != nil {
			return false
		}
		dst = append(dst, h)
		if keys != nil && r.IsObject() {
			*keys = append(*keys, k.String())
		}
		return true
	})
	return dst, err
}
