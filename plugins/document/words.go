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
// look for marker words stay cheap on large pages.
func (s *Session) FindWords(n Node, kind WordsKind, words []string, dst []Node) ([]Node, error) {
	top := s.node(n)
	if top == nil || len(words) == 0 {
		return dst, nil
	}
	var err error
	var walk func(*html.Node) bool
	walk = func(x *html.Node) bool {
		switch x.Type {
		case html.ElementNode:
			if x.Data == "script" || x.Data == "style" {
				return true
			}
			if kind == ClassWords && classHas(x, words) {
				var h Node
				if h, err = s.addNode(x); err != nil {
					return false
				}
				dst = append(dst, h)
			}
		case html.TextNode:
			if kind == LabelWords && labelHas(x.Data, words) {
				var h Node
				if h, err = s.addNode(x); err != nil {
					return false
				}
				dst = append(dst, h)
			}
		}
		for c := x.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	walk(top)
	return dst, err
}

func classHas(x *html.Node, words []string) bool {
	for _, a := range x.Attr {
		if a.Key != "class" && a.Key != "id" || a.Val == "" {
			continue
		}
		v := lowerASCII(a.Val)
		for _, w := range words {
			if strings.Contains(v, w) {
				return true
			}
		}
	}
	return false
}

func labelHas(text string, words []string) bool {
	if len(text) > 4*MaxLabel {
		return false
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return false
	}
	t = strings.ToLower(strings.TrimLeftFunc(collapse(dropInvisible(t)), unicode.IsPunct))
	if len(t) > MaxLabel {
		return false
	}
	for _, w := range words {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
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
