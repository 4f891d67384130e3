package document

import (
	"fmt"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// Ancestor returns the nearest element above n (n itself excluded) and below within (0:
// the document) that the CSS selector matches, or 0 (ABI 1.3, node_ancestor). Listing
// heuristics ask it of every link of a page: the tile around a link ("li, article,
// [class*=product]"), whether a link sits in the page's menus ("header, nav"), whether a
// price is struck through ("s, del"). As XPath (ancestor::*[self::li or
// contains(@class,'product')…][1]) each cost tens of microseconds, evaluated by cloning
// the predicate at every ancestor; a compiled selector matches an element in nanoseconds.
func (s *Session) Ancestor(n Node, selector string, within Node) (Node, error) {
	m, err := s.compiledSelector(selector)
	if err != nil {
		return 0, err
	}
	start := s.node(n)
	if start == nil {
		return 0, nil
	}
	return s.addNode(ancestorMatching(start, m, s.node(within)))
}

// Select appends to dst the elements below n (n itself excluded) that the CSS selector
// matches, in document order (ABI 1.4, css_all). Tile heuristics ask a link or a tile for
// its heading or image ("h2, h3, [class*=title]", "img"), which as XPath an evaluator
// walked with a cloned predicate at every element below.
func (s *Session) Select(n Node, selector string, dst []Node) ([]Node, error) {
	m, err := s.compiledSelector(selector)
	if err != nil {
		return dst, err
	}
	top := s.node(n)
	if top == nil {
		return dst, nil
	}
	for _, e := range cascadia.QueryAll(top, m) {
		h, err := s.addNode(e)
		if err != nil {
			return dst, err
		}
		dst = append(dst, h)
	}
	return dst, nil
}

// SelectOne returns the first element Select would, or 0 (ABI 1.4, css_one).
func (s *Session) SelectOne(n Node, selector string) (Node, error) {
	m, err := s.compiledSelector(selector)
	if err != nil {
		return 0, err
	}
	top := s.node(n)
	if top == nil {
		return 0, nil
	}
	found := cascadia.Query(top, m)
	if found == nil {
		return 0, nil
	}
	return s.addNode(found)
}

// SelectEach appends to dst, for each of nodes, what SelectOne answers for it or, with
// above, what Ancestor (no container) answers: 0 where nothing matches (ABI 1.6,
// nodes_select). A listing page asks the same of every tile (its heading, its image, the
// tile around its link); one call for all of them spares a guest a crossing and a handle
// decode per tile.
func (s *Session) SelectEach(nodes []Node, selector string, above bool, dst []Node) ([]Node, error) {
	m, err := s.compiledSelector(selector)
	if err != nil {
		return dst, err
	}
	for _, n := range nodes {
		var found *html.Node
		if e := s.node(n); e != nil {
			if above {
				found = ancestorMatching(e, m, nil)
			} else {
				found = cascadia.Query(e, m)
			}
		}
		h, err := s.addNode(found)
		if err != nil {
			return dst, err
		}
		dst = append(dst, h)
	}
	return dst, nil
}

// ancestorMatching is the nearest element above n, and below stop, that m matches.
func ancestorMatching(n *html.Node, m cascadia.Matcher, stop *html.Node) *html.Node {
	for p := n.Parent; p != nil && p != stop; p = p.Parent {
		if p.Type == html.ElementNode && m.Match(p) {
			return p
		}
	}
	return nil
}

// maxCachedSelectors bounds a session's compiled selectors, like maxCachedShapes;
// maxSelector bounds what one selector may ask, like maxShapeTemplate.
const (
	maxCachedSelectors = 256
	maxSelector        = 4 << 10
)

func (s *Session) compiledSelector(selector string) (cascadia.Matcher, error) {
	if m, ok := s.selectors[selector]; ok {
		return m, nil
	}
	if len(selector) > maxSelector {
		return nil, fmt.Errorf("css selector of %d bytes exceeds %d", len(selector), maxSelector)
	}
	m, err := cascadia.Compile(selector)
	if err != nil {
		return nil, fmt.Errorf("css selector %q: %w", selector, err)
	}
	if s.selectors == nil || len(s.selectors) >= maxCachedSelectors {
		s.selectors = make(map[string]cascadia.Matcher)
	}
	s.selectors[selector] = m
	return m, nil
}

// Texts appends to dst the text of each text node below n, in document order, as Text
// gives it (white space collapsed; "" for white space alone), leaving out those inside
// scripts and styles and those inside an element, n itself included, that the CSS
// selector except matches ("" leaves none out) (ABI 1.5, node_texts). A price element's
// texts without its struck former price were an XPath for the text nodes, then a call
// for each one's text and another for its ancestors: ten host calls per product tile.
func (s *Session) Texts(n Node, except string, dst []string) ([]string, error) {
	var m cascadia.Matcher
	if except != "" {
		var err error
		if m, err = s.compiledSelector(except); err != nil {
			return dst, err
		}
	}
	top := s.node(n)
	if top == nil || top.Type == html.TextNode {
		return dst, nil
	}
	var walk func(*html.Node)
	walk = func(e *html.Node) {
		if e.Type == html.ElementNode && (e.Data == "script" || e.Data == "style" || m != nil && m.Match(e)) {
			return
		}
		for c := e.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				dst = append(dst, collapse(c.Data))
			} else {
				walk(c)
			}
		}
	}
	walk(top)
	return dst, nil
}
