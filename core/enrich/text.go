package enrich

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// token is one word of a text: its folded form (lower case, no accents, no possessive)
// and where it sits in the original string, so a match can quote the store's own words.
type token struct {
	word       string
	start, end int // byte offsets in the original text
	// breakBefore is true when a clause boundary (. , ; : ! ? / | and the like) separates
	// this token from the previous one; negations do not reach across it.
	breakBefore bool
}

// fold lower-cases s and strips the accents of Latin letters ("Grün" -> "grun",
// "Écru" -> "ecru"). A small table rather than Unicode normalization keeps the package
// free of dependencies; letters outside it are only lower-cased.
func fold(s string) string {
	// Most words are plain ASCII, often already lower case: no copy for those.
	ascii, upper := true, false
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
		upper = upper || 'A' <= s[i] && s[i] <= 'Z'
	}
	switch {
	case ascii && upper:
		return strings.ToLower(s)
	case ascii:
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		r = unicode.ToLower(r)
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		if r == 'ß' {
			b.WriteString("ss")
			continue
		}
		if r == '’' || r == '‘' || r == 'ʼ' {
			b.WriteRune('\'')
			continue
		}
		if f, ok := unaccent[r]; ok {
			b.WriteRune(f)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var unaccent = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ",
		'h': "ĥħ", 'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ",
		'o': "òóôõöøōŏő", 'r': "ŕŗř", 's': "śŝşš", 't': "ţťŧ", 'u': "ùúûüũūŭůűų",
		'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

// tokenize splits text into words. Letters and digits form words; an apostrophe inside a
// word is kept only to drop a possessive ("women's" -> "women"); everything else separates
// words, and punctuation that ends a clause marks the next token's breakBefore.
func tokenize(text string) []token {
	out := make([]token, 0, len(text)/6+1)
	brk := false
	i := 0
	for i < len(text) {
		r, size := decodeRune(text[i:])
		if !isWordRune(r) {
			if isClauseBreak(r) {
				brk = true
			}
			i += size
			continue
		}
		start := i
		for i < len(text) {
			r, size = decodeRune(text[i:])
			if isWordRune(r) {
				i += size
				continue
			}
			// An apostrophe followed by "s" and a non-letter is a possessive: swallow it.
			if (r == '\'' || r == '’') && i+size < len(text) && (text[i+size] == 's' || text[i+size] == 'S') {
				j := i + size + 1
				if j >= len(text) || !isWordRune(rune(text[j])) {
					w := text[start:i]
					out = append(out, token{word: fold(w), start: start, end: i, breakBefore: brk})
					brk = false
					i = j
					start = -1
				}
			}
			break
		}
		if start >= 0 {
			out = append(out, token{word: fold(text[start:i]), start: start, end: i, breakBefore: brk})
			brk = false
		}
	}
	return out
}

func decodeRune(s string) (rune, int) {
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isClauseBreak(r rune) bool {
	switch r {
	case '.', ',', ';', ':', '!', '?', '/', '|', '(', ')', '[', ']', '\n', '•', '·', '–', '—':
		return true
	}
	return false
}

// words returns the folded words of text, for vocabulary look-ups.
func words(text string) []string {
	toks := tokenize(text)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.word
	}
	return out
}

// phrase folds and tokenizes a vocabulary entry into its words ("Hook-and-loop" ->
// ["hook" "and" "loop"]).
func phrase(s string) []string { return words(s) }

// squash collapses runs of white space into one space and trims the ends.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// htmlText is what the description markup says: its text with block boundaries as line
// breaks, and the text of each list item.
type htmlText struct {
	text  string
	items []string
}

var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "ul": true, "ol": true, "h1": true,
	"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "tr": true, "td": true,
	"th": true, "table": true, "section": true, "article": true, "dd": true, "dt": true,
	"blockquote": true, "hr": true,
}

// parseHTML extracts the text and the list items of a fragment of markup. Script and style
// content is dropped.
func parseHTML(src string) htmlText {
	z := html.NewTokenizer(strings.NewReader(src))
	var text strings.Builder
	var item *strings.Builder
	var out htmlText
	skip := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if item != nil {
				if s := squash(item.String()); s != "" {
					out.items = append(out.items, s)
				}
			}
			out.text = text.String()
			return out
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if tag == "script" || tag == "style" {
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
				continue
			}
			if tag == "li" {
				if item != nil {
					if s := squash(item.String()); s != "" {
						out.items = append(out.items, s)
					}
					item = nil
				}
				if tt == html.StartTagToken {
					item = &strings.Builder{}
				}
			}
			if blockTags[tag] {
				text.WriteString("\n")
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			t := string(z.Text())
			text.WriteString(t)
			if item != nil {
				item.WriteString(t)
			}
		}
	}
}

// sentences splits text into sentences: at line breaks, and after . ! ? when followed by
// white space (a decimal point or "e.g." inside a word does not split). Each sentence is
// whitespace-squashed; empty ones are dropped.
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		start := 0
		rs := []rune(line)
		for i := 0; i < len(rs); i++ {
			if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
				continue
			}
			if i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
				continue
			}
			if s := squash(string(rs[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
		if s := squash(string(rs[start:])); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cut trims s to at most n bytes at a word boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.LastIndexFunc(s[:n+1], unicode.IsSpace)
	if i <= 0 {
		// One huge word: cut at a rune boundary.
		for n > 0 && !isRuneStart(s[n]) {
			n--
		}
		return s[:n]
	}
	return strings.TrimRightFunc(s[:i], func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' })
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
