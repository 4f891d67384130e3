package rank

import (
	"html"
	"slices"
	"strings"
	"unicode"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// titleSeparators split a page's <title> into segments: the product's name, its
// category, the store's name.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " :: ", " : ", " · ", " • ", " / ", " « ", " » "}

// gatherTitles reads the title candidates: structured names, og:title, the <title>
// without the store's name, headings and elements whose class says product title.
func (r *reader) gatherTitles(p *Page) {
	var cands []Candidate
	add := func(src Source, text, where string, el *element) {
		text = strings.TrimSpace(html.UnescapeString(text))
		if text == "" {
			return
		}
		cands = append(cands, Candidate{Field: Title, Source: src, Value: text, Where: where, el: el})
	}
	for i, e := range r.products {
		name := e.Get("name").String()
		add(JSONLD, name, "jsonld name", nil)
		if i == 0 && len(cands) > 0 {
			cands[len(cands)-1].Features[FirstEntity] = 1
		}
	}
	if m, ok := r.meta("og:title"); ok {
		add(Meta, m.content, "meta og:title", nil)
	}
	if m, ok := r.meta("twitter:title"); ok {
		add(Meta, m.content, "meta twitter:title", nil)
	}
	for _, seg := range r.titleSegments() {
		add(TitleTag, seg.text, seg.where, nil)
	}
	// Visible candidates: itemprop names in a product's scope, h1 headings and
	// elements whose class says product title.
	names := r.propsNamed("name")
	scopes := productScopes(names)
	values := propValues(names)
	var nodes []sdk.Node
	var kinds []Source
	var wheres []string
	for i, n := range names {
		if !scopes[i] || len(nodes) >= maxTitleElements {
			continue
		}
		if n.tag == "meta" {
			add(Microdata, values[i], "itemprop name", nil)
			continue
		}
		nodes, kinds, wheres = append(nodes, n.node), append(kinds, Microdata), append(wheres, "itemprop name")
	}
	for i, h := range r.root.Select("h1") {
		if i >= 4 {
			break
		}
		nodes, kinds, wheres = append(nodes, h), append(kinds, Heading), append(wheres, "h1")
	}
	for i, e := range r.root.FindClass(titleClassWords...) {
		if i >= 6 {
			break
		}
		nodes, kinds, wheres = append(nodes, e), append(kinds, Element), append(wheres, "")
	}
	texts := sdk.Nodes(nodes).Text()
	described := r.describe(nodes)
	for i := range nodes {
		if len(texts[i]) > maxTitle {
			continue
		}
		where := wheres[i]
		if where == "" {
			where = described[i].where()
		}
		add(kinds[i], texts[i], where, &described[i])
		if kinds[i] == Element {
			cands[len(cands)-1].Features[TitleClass] = 1
		}
	}
	p.Candidates[Title] = cands
}

// maxTitleElements and maxTitle bound the visible title candidates: their number and the
// length of their text.
const (
	maxTitleElements = 16
	maxTitle         = 400
)

// titleSegment is a part of the page's <title> offered as a title.
type titleSegment struct{ text, where string }

// titleSegments splits the <title> at its separators, drops the segments that name the
// store, and offers the first segment left and, when there are more, all of them. The
// title is split once a page, and its callers share the segments.
func (r *reader) titleSegments() []titleSegment {
	if !r.segmentsRead {
		r.segments, r.segmentsRead = r.splitTitle(), true
	}
	return r.segments
}

// splitTitle does the work of titleSegments.
func (r *reader) splitTitle() []titleSegment {
	t := strings.TrimSpace(r.titleTag)
	if t == "" {
		return nil
	}
	parts := []string{t}
	for _, sep := range titleSeparators {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	var kept []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p != "" && !r.namesStore(p) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	out := []titleSegment{{kept[0], "title segment"}}
	if len(kept) > 1 {
		out = append(out, titleSegment{strings.Join(kept, " - "), "title without store name"})
	}
	if len(parts) == 1 {
		out[0].where = "title"
	}
	return out
}

// namesStore reports whether a short text is the store's name: it holds one of the
// names the store goes by ("H&M US", "Newegg.com", "Barnes & Noble®").
func (r *reader) namesStore(s string) bool {
	if len(r.textOf(s).words) > 5 {
		return false
	}
	c := r.textOf(s).compact
	for _, name := range r.siteNames {
		n := r.textOf(name).compact
		if len(n) >= 2 && (strings.Contains(c, n) || len(c) >= 4 && strings.HasPrefix(n, c)) {
			return true
		}
	}
	return false
}

// findHeading chooses the page's main heading: the h1 (or, without one, the element
// whose class says product title) that no rule rules out, that sits outside the page's
// menus, dialogs and other products' blocks, and that shares most words with the
// <title>, og:title and the URL's last segment; without such an h1, an h2 that names the
// product. The price's and the buy button's nearness are measured from it.
func (r *reader) findHeading(p *Page) {
	cands := p.Candidates[Title]
	best, bestScore := -1, 0.0
	for _, want := range []Source{Heading, Element} {
		for i := range cands {
			c := &cands[i]
			if c.Source != want || titleRule(c.Value, r) != "" {
				continue
			}
			w := r.textOf(c.Value).words
			score := overlap(w, r.textOf(r.titleTag).words) + overlap(w, r.textOf(r.ogTitle).words) + overlap(w, r.slugWords)
			if c.el != nil && (c.el.chrome || c.el.hidden || c.el.other) {
				// A heading of the menus, a dialog or another product's block is the
				// main one only when the page has no other.
				score -= 3
			}
			if best < 0 || score > bestScore {
				best, bestScore = i, score
			}
		}
		if best >= 0 {
			break
		}
	}
	if best < 0 || bestScore < 0 {
		// No h1 outside the menus: a second-level heading that repeats the product's
		// name as the <title> gives it is the product's heading.
		if h, text := r.subheading(); h.Exists() {
			r.heading = anchorAt(h)
			p.Heading = text
			return
		}
	}
	if best < 0 {
		return
	}
	r.heading = anchorAt(cands[best].el.node)
	p.Heading = cands[best].Value
}

// subheading returns the first h2 that holds at least minSubheadingCover of the words
// of the <title>'s leading segment (the product's name, where the <title> names it), with
// its text; the zero Node when none does.
func (r *reader) subheading() (sdk.Node, string) {
	segs := r.titleSegments()
	if len(segs) == 0 {
		return sdk.Node{}, ""
	}
	name := r.textOf(segs[0].text).words
	if len(name) < 2 {
		return sdk.Node{}, ""
	}
	h2s := sdk.Nodes(r.root.Select("h2"))
	if len(h2s) > maxSubheadings {
		h2s = h2s[:maxSubheadings]
	}
	for i, t := range h2s.Text() {
		if len(t) <= maxTitle && overlap(name, words(t)) >= minSubheadingCover {
			return h2s[i], strings.TrimSpace(t)
		}
	}
	return sdk.Node{}, ""
}

// maxSubheadings bounds the h2 headings read for a page without a main h1, and
// minSubheadingCover is the share of the product's name one must hold.
const (
	maxSubheadings     = 8
	minSubheadingCover = 0.75
)

// titleFeatures describes the title candidates, once the heading and buy button are
// known, and applies the title rules.
func (r *reader) titleFeatures(p *Page) {
	cands := p.Candidates[Title]
	titleWords, ogWords := r.textOf(r.titleTag).words, r.textOf(r.ogTitle).words
	var leading []string
	if segs := r.titleSegments(); len(segs) > 0 {
		leading = r.textOf(segs[0].text).words
	}
	var siteNames []string
	for _, name := range r.siteNames {
		if n := r.textOf(name).compact; len(n) >= 3 {
			siteNames = append(siteNames, n)
		}
	}
	for i := range cands {
		c := &cands[i]
		v := r.baseFeatures(c)
		w := r.textOf(c.Value).words
		v[OverlapTitle] = overlap(w, titleWords)
		v[OverlapOG] = overlap(w, ogWords)
		v[OverlapSlug] = overlap(w, r.urlWords)
		v[CoversTitle] = overlap(leading, w)
		v[CoversSlug] = overlap(r.slugWords, w)
		v[TitleWords] = min(float64(len(w)), 30) / 30
		if len(w) <= 2 {
			v[ShortTitle] = 1
		}
		if len(w) > 25 {
			v[LongTitle] = 1
		}
		value := r.textOf(c.Value).compact
		for _, n := range siteNames {
			if strings.Contains(value, n) {
				v[HasSiteName] = 1
			}
		}
		if hasPhrase(w, bannerForms) {
			v[Banner] = 1
		}
		c.Excluded = titleRule(c.Value, r)
	}
	r.shortenedTitles(cands)
	agree(cands, func(c *Candidate) string { return r.textOf(c.Value).compact })
}

// shortenedTitles rules out a <title> or og:title that is the page's main heading cut
// short: the heading begins with all its words and goes on with words the URL's slug
// also holds ("Trail lamp" of a heading "Trail lamp 400" at /p/trail-lamp-400). Stores
// shorten those tags; the heading names the product in full.
func (r *reader) shortenedTitles(cands []Candidate) {
	for i := range cands {
		h := &cands[i]
		if h.Source != Heading || h.Excluded != "" {
			continue
		}
		full := r.textOf(h.Value).words
		for j := range cands {
			c := &cands[j]
			if c.Source != TitleTag && c.Source != Meta || c.Excluded != "" {
				continue
			}
			short := r.textOf(c.Value).words
			if len(short) == 0 || len(short) >= len(full) || !slices.Equal(full[:len(short)], short) {
				continue
			}
			if overlap(full[len(short):], r.slugWords) == 1 {
				c.Excluded = "the main heading cut short"
			}
		}
	}
}

// overlap is the share of the words of a found in b: 1 when b holds them all.
func overlap(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	in := 0
	for _, w := range a {
		for _, x := range b {
			if w == x {
				in++
				break
			}
		}
	}
	return float64(in) / float64(len(a))
}

// hasPhrase reports whether the word sequence ws holds one of phrases (as phraseForms
// writes them) as whole words.
func hasPhrase(ws []string, phrases []string) bool {
	joined := " " + strings.Join(ws, " ") + " "
	for _, p := range phrases {
		if strings.Contains(joined, p) {
			return true
		}
	}
	return false
}

// phraseForms writes each phrase as hasPhrase looks for it: its words, each with a space
// on either side.
func phraseForms(phrases []string) []string {
	out := make([]string, len(phrases))
	for i, p := range phrases {
		out[i] = " " + strings.Join(words(p), " ") + " "
	}
	return out
}

// bannerForms and bannerPhraseForms are bannerWords and bannerPhrases as hasPhrase
// looks for them.
var (
	bannerForms       = phraseForms(bannerWords)
	bannerPhraseForms = phraseForms(bannerPhrases)
)

// bannerPhrases are texts of menus and calls to action that are never a product's name;
// a short title holding one is ruled out.
var bannerPhrases = []string{"shop by", "sign up", "sign in", "log in", "my account", "shopping cart", "your cart",
	"customer service", "free shipping", "newsletter", "adding to", "added to", "add to cart", "page not found"}

// titleText is a text's words and its compact form.
type titleText struct {
	words   []string
	compact string
}

// textOf returns the words and the compact form of s. A title candidate's text is read
// by the heading's choice, the title rules and the title features, and the store's names
// by every one of them, so each text is split once a page. The words are shared: callers
// read them and never change them.
func (r *reader) textOf(s string) titleText {
	if t, ok := r.titleTexts[s]; ok {
		return t
	}
	t := titleText{words: words(s)}
	t.compact = compactWords(t.words)
	if r.titleTexts == nil {
		r.titleTexts = map[string]titleText{}
	}
	r.titleTexts[s] = t
	return t
}

// titleRule returns the rule that rules out s as a product's title, or "".
func titleRule(s string, r *reader) string {
	w := r.textOf(s).words
	switch {
	case len(w) == 0:
		return "no words"
	case len(s) > maxTitle:
		return "too long for a title"
	case strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "${") || strings.Contains(s, "[["):
		return "an unrendered template key"
	case len(w) <= 3 && r.namesStore(s):
		return "the store's name"
	case len(w) <= 5 && hasPhrase(w, bannerPhraseForms):
		return "a menu or banner"
	case !strings.ContainsAny(s, " \u00a0") && strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, unicode.IsLetter) >= 0:
		return "an item number"
	case isPriceText(s):
		return "a price"
	}
	return ""
}

// isPriceText reports whether s is an amount with at most a currency around it.
func isPriceText(s string) bool {
	if _, ok := sdk.ParsePrice(s); !ok {
		return false
	}
	letters := 0
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			letters++
		}
	}
	return letters <= 3
}
