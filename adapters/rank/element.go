package rank

import (
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// element is a visible node a candidate was read from, described by the blocks around it.
type element struct {
	node sdk.Node
	// tag and own are the node's tag name and the words of its class and id.
	tag string
	own []string
	// Blocks around it (the node itself included), by tags and class and id words.
	struck, other, slider, chrome, cart, hidden, product bool
	// drawnStruck says the strike is drawn (a del, s or strike tag, a line-through
	// style), not only named by a class.
	drawnStruck bool
	// emphasis and bigFont: a class or tag of a price to pay, a large font; otherKind: a
	// class of another kind of price (per unit, per month, shipping).
	emphasis, bigFont, otherKind, priceClass bool
	// inHead marks a node of the page's head (a meta tag): not shown, nowhere near.
	inHead bool
	// headingLevel and buyLevel are how many levels above the main heading and the buy
	// button the smallest block holding both the node and it is; -1 when there is none
	// within reach.
	headingLevel, buyLevel int
}

// where names the element for Explain: its tag and first class or id words.
func (e *element) where() string {
	if len(e.own) == 0 {
		return e.tag
	}
	return e.tag + "." + strings.Join(e.own[:min(len(e.own), 3)], "-")
}

// describe reads the tags, classes and inline styles of nodes and of the blocks around
// them: one query per node for its ancestors, then one per attribute for them all.
func (r *reader) describe(nodes []sdk.Node) []element {
	out := make([]element, len(nodes))
	if len(nodes) == 0 {
		return out
	}
	// chains[i] holds the ancestors of node i, nearest first, at most chainDepth; near
	// holds each node and its styleDepth nearest ancestors, whose inline styles are read.
	chains := make([][]sdk.Node, len(nodes))
	all := make(sdk.Nodes, 0, len(nodes)*(chainDepth+1))
	near := make(sdk.Nodes, 0, len(nodes)*(styleDepth+1))
	for i, n := range nodes {
		// The host's XPath walks the ancestor axis upwards: the parent comes first.
		chain := n.Find("ancestor::*")
		if len(chain) > chainDepth {
			chain = chain[:chainDepth]
		}
		chains[i] = chain
		all = append(all, n)
		all = append(all, chain...)
		near = append(near, n)
		near = append(near, chain[:min(len(chain), styleDepth)]...)
	}
	names, classes, ids, styles := all.Name(), all.Attr("class"), all.Attr("id"), near.Attr("style")
	at, atStyle := 0, 0
	for i := range nodes {
		e := &out[i]
		e.node = nodes[i]
		e.headingLevel, e.buyLevel = -1, -1
		for depth := 0; depth <= len(chains[i]); depth++ {
			tag, style := names[at], ""
			if depth <= min(len(chains[i]), styleDepth) {
				style = strings.ToLower(styles[atStyle])
				atStyle++
			}
			block := r.classWords(classes[at], ids[at])
			at++
			if depth == 0 {
				e.tag, e.own = tag, block.words
			}
			// The chain may be cut short; a block this many levels below the root is
			// the page's frame (its header, its footer) when it says so.
			e.readBlock(depth, len(chains[i])-depth, tag, style, block)
		}
	}
	return out
}

// blockWords are the words of a block's class and id, and which vocabularies of
// words.go they hold.
type blockWords struct {
	words []string
	// Whether the words name a struck-out or former price, another product's block, a
	// slider, the page's menus, its header or footer, the cart, hidden content, the
	// product's own block, an emphasised price, another kind of price, a price.
	struck, other, slider, chrome, frame, cart, hidden, product, emphasis, otherKind, priceClass bool
}

// classWords returns the words of a block with the given class and id attributes. A
// page's blocks repeat their class names from candidate to candidate, and every
// candidate reads the blocks around it, so each distinct class and id is read once per
// page.
func (r *reader) classWords(class, id string) *blockWords {
	if class == "" && id == "" {
		// Many of the blocks around a candidate have neither, and say nothing.
		return &r.unnamedBlock
	}
	key := blockKey{class, id}
	if b, ok := r.blocks[key]; ok {
		return b
	}
	toks := tokens(class, id)
	b := &blockWords{words: toks}
	if len(toks) > 0 {
		hits := vocabularyHits(toks)
		b.struck = hits&(struckVocabulary|struckQualifierVocabulary) != 0
		b.other = hits&otherProductVocabulary != 0
		b.slider = hits&sliderVocabulary != 0
		b.chrome = hits&chromeVocabulary != 0
		b.frame = hits&frameVocabulary != 0
		b.cart = hits&cartVocabulary != 0
		b.hidden = hits&hiddenVocabulary != 0
		b.product = hits&productVocabulary != 0
		b.emphasis = hits&emphasisVocabulary != 0
		b.otherKind = hits&otherPriceVocabulary != 0
		b.priceClass = hits&priceClassVocabulary != 0 || hasPricePart(toks)
	}
	if r.blocks == nil {
		r.blocks = make(map[blockKey]*blockWords, pageBlocks)
	}
	r.blocks[key] = b
	return b
}

// blockKey is a block's class and id attributes.
type blockKey struct{ class, id string }

// pageBlocks is room enough for the distinct blocks the candidates of most pages sit in,
// so that the map of them is not grown block by block.
const pageBlocks = 128

// chainDepth bounds how many blocks above a node describe reads, and styleDepth those
// whose inline style it reads (a line-through or a font size is set near the text).
const (
	chainDepth = 14
	styleDepth = 4
)

// readBlock notes what the block depth levels above the node (0: the node) and fromRoot
// levels below the page's root element says.
func (e *element) readBlock(depth, fromRoot int, tag, style string, block *blockWords) {
	near := depth <= 2
	frame := fromRoot <= 4
	switch tag {
	case "del", "s", "strike":
		e.struck = e.struck || depth <= 4
		e.drawnStruck = e.drawnStruck || depth <= 4
	case "nav", "aside":
		e.chrome = true
	case "header", "footer":
		e.chrome = e.chrome || frame
	case "template", "noscript", "dialog":
		e.hidden = true
	case "head":
		e.inHead = true
	case "strong", "b", "h2", "h3", "h4":
		e.emphasis = e.emphasis || near
	case "h1":
		e.emphasis = e.emphasis || near
		e.bigFont = e.bigFont || near
	}
	if strings.Contains(style, "line-through") && depth <= 4 {
		e.struck, e.drawnStruck = true, true
	}
	if strings.Contains(style, "display:none") || strings.Contains(style, "display: none") {
		e.hidden = true
	}
	if near && bigFontSize(style) {
		e.bigFont = true
	}
	if depth <= 3 && block.struck {
		e.struck = true
	}
	e.other = e.other || block.other
	e.slider = e.slider || block.slider
	e.chrome = e.chrome || block.chrome || frame && block.frame
	// A control's own "add-to-cart" class says what it does, not that it sits in a cart.
	e.cart = e.cart || depth > 0 && block.cart
	// The page's html and body elements are shown whatever their classes say: WordPress
	// writes "product-template-default" on every product page's body.
	e.hidden = e.hidden || fromRoot > 1 && block.hidden
	e.product = e.product || depth <= 8 && block.product
	if near {
		e.emphasis = e.emphasis || block.emphasis
		e.otherKind = e.otherKind || block.otherKind
	}
	if depth <= 3 {
		e.priceClass = e.priceClass || block.priceClass
	}
}

// hasPricePart reports whether a class word holds a price word ("productprice").
func hasPricePart(toks []string) bool {
	for _, t := range toks {
		if strings.Contains(t, "price") || strings.Contains(t, "preis") || strings.Contains(t, "prix") {
			return true
		}
	}
	return false
}

// bigFontSize reports whether an inline style sets a large font: 18px, 1.25em or more.
func bigFontSize(style string) bool {
	i := strings.Index(style, "font-size:")
	if i < 0 {
		return false
	}
	v := strings.TrimSpace(style[i+len("font-size:"):])
	end := 0
	for end < len(v) && (v[end] >= '0' && v[end] <= '9' || v[end] == '.') {
		end++
	}
	size, err := strconv.ParseFloat(v[:end], 64)
	if err != nil {
		return false
	}
	unit := v[end:]
	switch {
	case strings.HasPrefix(unit, "px"):
		return size >= 18
	case strings.HasPrefix(unit, "em"), strings.HasPrefix(unit, "rem"):
		return size >= 1.25
	case strings.HasPrefix(unit, "pt"):
		return size >= 14
	}
	return false
}

// setRegions writes e's block features into v.
func (e *element) setRegions(v *Vector) {
	set := func(f Feature, b bool) {
		if b {
			v[f] = 1
		}
	}
	set(InOther, e.other)
	set(InSlider, e.slider)
	set(InChrome, e.chrome)
	set(InCart, e.cart)
	set(InHidden, e.hidden)
	set(InProduct, e.product)
	set(Emphasis, e.emphasis)
	set(BigFont, e.bigFont)
	set(OtherKind, e.otherKind)
	v[HeadingNear] = nearness(e.headingLevel)
	v[BuyNear] = nearness(e.buyLevel)
}

// anchor is a node candidates are measured against (the main heading, the buy button)
// with the blocks above it, itself first.
type anchor []sdk.Node

// anchorAt returns n and its ancestors, nearest first, up to maxLevels.
func anchorAt(n sdk.Node) anchor {
	if !n.Exists() {
		return nil
	}
	up := anchor{n}
	for _, a := range n.Find("ancestor::*") {
		if len(up) > maxLevels {
			break
		}
		up = append(up, a)
	}
	return up
}

// levels returns how many levels above the anchor the smallest of its blocks holding n
// is, or -1 when none within reach does. It asks the host whether n is inside a block
// a few times, halving the range each time.
func (a anchor) levels(n sdk.Node) int {
	if len(a) == 0 || !n.Exists() {
		return -1
	}
	if !inside(n, a[len(a)-1]) {
		return -1
	}
	lo, hi := 0, len(a)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if inside(n, a[mid]) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// inside reports whether n is below container: walking up from n, the search for the
// page's root element stops at the container when it is on the way.
func inside(n, container sdk.Node) bool { return !n.AncestorWithin("html", container).Exists() }

// baseFeatures sets the features every field's candidates share: the bias, the source,
// and for a visible candidate its nearness and blocks. It returns the candidate's
// features for the field's own.
func (r *reader) baseFeatures(c *Candidate) *Vector {
	v := &c.Features
	v[Bias] = 1
	v[sourceFeature(c.Source)] = 1
	if c.el != nil {
		r.measure(c.el)
		c.el.setRegions(v)
	}
	return v
}
