package document

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// WordsKind selects what FindWords matches.
type WordsKind uint32

const (
	// ClassWords matches elements whose id or class attribute, in lower case, contains one
	// of the words ("price" matches class="product-price__Current").
	ClassWords WordsKind = iota
	// LabelWords matches text nodes, outside script and style, whose text (white space
	// collapsed, invisible format characters and leading punctuation dropped, lower case)
	// is at most MaxLabel bytes and starts with one of the words ("sku" matches
	// " SKU: 1234 " and "(SKU: 1234)").
	LabelWords
)

// MaxLabel is the longest text LabelWords considers: a label and its value, not a
// paragraph.
const MaxLabel = 64

// FindWords appends to dst the nodes under n, in document order, that kind matches with
// one of words (given in lower case). It does in one native walk what an XPath of
// translate() and contains() calls does hundreds of times slower, so heuristics that
// look for marker words stay cheap on large pages. A call usually looks for several
// vocabularies under the same node: the first walk keeps the elements with a class or id
// (lower-cased) or the texts short enough to be labels (in their label form), and later
// calls of the same kind under that node match against those alone.
func (s *Session) FindWords(n Node, kind WordsKind, words []string, dst []Node) ([]Node, error) {
	top := s.node(n)
	if top == nil || len(words) == 0 {
		return dst, nil
	}
	targets := s.wordTargets(top, kind)
	index := indexWords(words)
	for _, t := range targets {
		if !t.matches(kind, index) {
			continue
		}
		h, err := s.addNode(t.node)
		if err != nil {
			return dst, err
		}
		dst = append(dst, h)
	}
	return dst, nil
}

// wordTarget is a node FindWords may match: an element with its class and id in lower
// case ("" when absent or empty), or a text node with its label form.
type wordTarget struct {
	node      *html.Node
	class, id string
	label     string
}

func (t *wordTarget) matches(kind WordsKind, words *wordIndex) bool {
	if kind == LabelWords {
		return words.startOf(t.label)
	}
	return t.class != "" && words.inside(t.class) || t.id != "" && words.inside(t.id)
}

// wordIndex holds the words of one FindWords call by their first byte: a class is read
// once for all the words, where trying each word in turn read it once per word, and a
// label is compared only with the words that begin as it does. A class element is
// matched against every call's words, so this is where FindWords spends its time.
type wordIndex struct {
	byFirstByte [256][]string
	// empty is whether one of the words is "", which every text holds.
	empty bool
}

func indexWords(words []string) *wordIndex {
	index := &wordIndex{}
	for _, w := range words {
		if w == "" {
			index.empty = true
			continue
		}
		index.byFirstByte[w[0]] = append(index.byFirstByte[w[0]], w)
	}
	return index
}

// inside reports whether s holds one of the words.
func (x *wordIndex) inside(s string) bool {
	if x.empty {
		return true
	}
	for i := 0; i < len(s); i++ {
		for _, w := range x.byFirstByte[s[i]] {
			if strings.HasPrefix(s[i:], w) {
				return true
			}
		}
	}
	return false
}

// startOf reports whether s starts with one of the words.
func (x *wordIndex) startOf(s string) bool {
	if x.empty {
		return true
	}
	if s == "" {
		return false
	}
	for _, w := range x.byFirstByte[s[0]] {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// wordsKey names the targets of one kind under one node, kept for the call.
type wordsKey struct {
	top  *html.Node
	kind WordsKind
}

// wordTargets returns the nodes under top, in document order and outside scripts and
// styles, that kind could match: elements with a class or id, or texts that are short
// enough to be labels. They are found by one walk per call.
func (s *Session) wordTargets(top *html.Node, kind WordsKind) []wordTarget {
	key := wordsKey{top, kind}
	if targets, ok := s.words[key]; ok {
		return targets
	}
	var targets []wordTarget
	var walk func(*html.Node)
	walk = func(x *html.Node) {
		switch x.Type {
		case html.ElementNode:
			if x.Data == "script" || x.Data == "style" {
				return
			}
			if kind == ClassWords {
				if t := classTarget(x); t.class != "" || t.id != "" {
					targets = append(targets, t)
				}
			}
		case html.TextNode:
			if kind == LabelWords {
				if label, ok := labelForm(x.Data); ok {
					targets = append(targets, wordTarget{node: x, label: label})
				}
			}
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(top)
	if s.words == nil {
		s.words = map[wordsKey][]wordTarget{}
	}
	s.words[key] = targets
	return targets
}

// classTarget is x with its class and id in lower case.
func classTarget(x *html.Node) wordTarget {
	t := wordTarget{node: x}
	for _, a := range x.Attr {
		switch {
		case a.Val == "":
		case a.Key == "class" && t.class == "":
			t.class = lowerASCII(a.Val)
		case a.Key == "id" && t.id == "":
			t.id = lowerASCII(a.Val)
		}
	}
	return t
}

// labelForm is text as LabelWords matches it: white space collapsed, invisible format
// characters and leading punctuation dropped, in lower case; ok is false when the text is
// empty or longer than MaxLabel.
func labelForm(text string) (string, bool) {
	if len(text) > 4*MaxLabel {
		return "", false
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return "", false
	}
	t = strings.ToLower(strings.TrimLeftFunc(collapse(dropInvisible(t)), unicode.IsPunct))
	if len(t) > MaxLabel {
		return "", false
	}
	return t, true
}

// dropInvisible removes format characters (left-to-right marks, zero-width spaces) that
// pages put between a label and its colon.
func dropInvisible(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// lowerASCII lower-cases ASCII letters only, without allocating when there are none.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
