package search

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/core/enrich"
)

// Understood is how a query was read. RULES.md describes each part.
type Understood struct {
	// Terms are the product words, each with its synonyms; the head (the thing asked for)
	// is the last noun-like term.
	Terms []Term `json:"terms"`
	// Attributes are soft constraints: color, material, pattern, style, occasion, claim,
	// season, gender, age_group, size.
	Attributes []Attribute `json:"attributes"`
	Brands     []Phrase    `json:"brands"`
	// MinPrice and MaxPrice are hard bounds on every variant's price.
	MinPrice *float64 `json:"min_price"`
	MaxPrice *float64 `json:"max_price"`
	// PriceLevel is "low" (cheap, budget...) or "high" (premium, luxury...): a preference.
	PriceLevel string `json:"price_level,omitempty"`
	// InStock is a hard constraint: only products that can be bought.
	InStock bool `json:"in_stock"`
	// Exclude are negations ("not black", "without leather"): hard constraints.
	Exclude []Phrase `json:"exclude"`
	// Sort is "price_asc", "price_desc" or "" (relevance).
	Sort string `json:"sort,omitempty"`
	// Corrections maps a misspelt query word to the catalog word it was read as.
	Corrections map[string]string `json:"corrections,omitempty"`
	// unknownWords: a word neither the catalog nor the vocabularies know, even after
	// spelling correction; retrieval then also looks for titles close to it in spelling.
	unknownWords bool
}

// Term is one product word or phrase of the query.
type Term struct {
	Text string `json:"text"`
	Head bool   `json:"head,omitempty"`
	// Phrases are the stemmed word sequences that count as this term (its synonyms);
	// Exact is the one the query said, met more strongly.
	Phrases [][]string `json:"-"`
	Exact   [][]string `json:"-"`
}

// Attribute is a soft constraint read from a vocabulary.
type Attribute struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	// Said is what the query wrote ("navy" for the color family blue).
	Said    string     `json:"said"`
	Phrases [][]string `json:"-"`
	// Exact are the phrases of what was said, matched more strongly than the family.
	Exact [][]string `json:"-"`
}

// Phrase is a brand or a negated word with the word sequences that express it.
type Phrase struct {
	Kind    string     `json:"kind,omitempty"`
	Text    string     `json:"text"`
	Phrases [][]string `json:"-"`
}

// Vocabulary is what the catalog holds, for spelling correction and brand detection.
type Vocabulary struct {
	// Words counts the folded words of titles, product types and tags.
	Words map[string]int
	// Brands are the brand (or vendor) names, lower case.
	Brands []string
	// ProductTypes are the product types, lower case, most common first.
	ProductTypes []string
}

// Attribute kinds, in the order an attribute is preferred when a phrase is in several
// vocabularies.
var attributeKinds = []string{enrich.LexiconColor, enrich.LexiconMaterial, enrich.LexiconPattern, enrich.LexiconClaim,
	enrich.LexiconStyle, enrich.LexiconOccasion, enrich.LexiconSeason, enrich.LexiconGender, enrich.LexiconAgeGroup}

// lexEntry is one phrase of the parser's lexicon.
type lexEntry struct {
	words []string // stemmed
	kind  string   // an attribute kind, "brand", "product", "synonym" or a keyword kind
	value string
}

// keyword kinds.
const (
	kwInStock   = "in_stock"
	kwPriceLow  = "price_low"
	kwPriceHigh = "price_high"
	kwSortAsc   = "sort_asc"
	kwSortDesc  = "sort_desc"
	kwBrand     = "brand"
	kwProduct   = "product"
	kwSynonym   = "synonym"
	kwStop      = "stop"
)

var keywords = map[string][]string{
	kwInStock:   {"in stock", "instock", "available", "available now", "ready to ship", "not sold out", "not out of stock", "in store now"},
	kwPriceLow:  {"cheap", "cheaper", "affordable", "budget", "inexpensive", "bargain", "low cost", "low priced", "economical", "value"},
	kwPriceHigh: {"premium", "luxury", "luxurious", "high end", "expensive", "designer", "splurge", "top of the line"},
	kwSortAsc:   {"cheapest", "lowest price", "lowest priced", "least expensive", "cheapest first", "sort by price", "lowest cost"},
	kwSortDesc:  {"most expensive", "priciest", "highest price", "highest priced", "most premium", "most luxurious"},
}

// stopWords carry no product meaning in a shopping query.
var stopWords = strings.Fields(`a an the some any i me my we our you your want wanted need needs needed looking look
	search searching find finding show give get buy buying shop shopping for of to at on with and or in into is are be
	that this these those which who please something thing things item items product products good best nice great
	really very like would could should can will just also something anything stuff pair pairs set new one ones it its
	from by what whats where there here under over between than less more about around approx approximately
	dollars dollar usd bucks eur euros price priced cost costs ml oz kg lbs cm mm inch inches`)

var negators = map[string]bool{"not": true, "no": true, "without": true, "non": true, "except": true, "excluding": true,
	"exclude": true, "avoid": true, "minus": true, "never": true, "nothing": true, "wo": true, "sans": true}

// Words skipped right after a negator ("not in black", "without any leather").
var negFillers = map[string]bool{"in": true, "from": true, "by": true, "made": true, "of": true, "any": true, "a": true,
	"an": true, "the": true, "with": true, "too": true}

// Words that end a negation's reach ("no leather and waterproof": waterproof is wanted).
var negEnders = map[string]bool{"and": true, "but": true, "with": true, "for": true, "in": true, "that": true, "which": true,
	"under": true, "over": true, "only": true, "please": true}

// parser reads queries. It is built once per vocabulary and only read afterwards.
type parser struct {
	byFirst  map[string][]lexEntry
	synonyms map[string]*synonym
	known    map[string]int // folded word -> catalog frequency (0 for vocabulary words)
	// attrPhrases are the phrases of each kind and canonical value, for family matching.
	attrPhrases map[string]map[string][][]string
	nouns       map[string]bool // stemmed single words naming products (taxonomy, product types)
	stops       map[string]bool
}

func newParser(v Vocabulary) *parser {
	p := &parser{byFirst: map[string][]lexEntry{}, synonyms: buildSynonyms(), known: map[string]int{},
		attrPhrases: map[string]map[string][][]string{}, nouns: map[string]bool{}, stops: map[string]bool{}}
	add := func(words []string, kind, value string) {
		if len(words) == 0 {
			return
		}
		p.byFirst[words[0]] = append(p.byFirst[words[0]], lexEntry{words: words, kind: kind, value: value})
	}
	for _, w := range stopWords {
		p.stops[w] = true
		p.known[w] += 0
	}
	for kind, phrases := range keywords {
		for _, ph := range phrases {
			add(phraseStems(ph), kind, ph)
			for _, w := range words(ph) {
				p.known[w] += 0
			}
		}
	}
	for _, kind := range attributeKinds {
		lex := enrich.Lexicons(kind)
		p.attrPhrases[kind] = map[string][][]string{}
		values := make([]string, 0, len(lex))
		for v := range lex {
			values = append(values, v)
		}
		sort.Strings(values)
		for _, value := range values {
			for _, ph := range lex[value] {
				st := phraseStems(ph)
				p.attrPhrases[kind][value] = append(p.attrPhrases[kind][value], st)
				add(st, kind, value)
				for _, w := range words(ph) {
					p.known[w] += 0
				}
			}
		}
	}
	for key, s := range p.synonyms {
		add(strings.Fields(key), kwSynonym, s.canonical)
		for _, w := range strings.Fields(key) {
			p.known[w] += 0
		}
	}
	for _, b := range v.Brands {
		if st := phraseStems(b); len(st) > 0 && !(len(st) == 1 && p.stops[st[0]]) {
			add(st, kwBrand, strings.Join(words(b), " "))
		}
	}
	for kw := range enrich.Lexicons(enrich.LexiconCategory) {
		st := phraseStems(kw)
		switch {
		case len(st) == 1:
			p.nouns[st[0]] = true
		case len(st) <= 3:
			add(st, kwProduct, kw)
			p.nouns[st[len(st)-1]] = true
		}
	}
	for _, t := range v.ProductTypes {
		st := phraseStems(t)
		switch {
		case len(st) == 1:
			p.nouns[st[0]] = true
		case len(st) > 1 && len(st) <= 4:
			add(st, kwProduct, strings.Join(words(t), " "))
			p.nouns[st[len(st)-1]] = true
		}
	}
	for w, n := range v.Words {
		p.known[w] += n
	}
	for k, es := range p.byFirst {
		sort.SliceStable(es, func(i, j int) bool {
			if len(es[i].words) != len(es[j].words) {
				return len(es[i].words) > len(es[j].words)
			}
			return kindRank(es[i].kind) < kindRank(es[j].kind)
		})
		p.byFirst[k] = es
	}
	return p
}

// kindRank orders the kinds a phrase may have: keywords first, then brands, product
// phrases, synonyms, then attributes in attributeKinds order.
func kindRank(kind string) int {
	switch kind {
	case kwInStock, kwSortAsc, kwSortDesc, kwPriceLow, kwPriceHigh:
		return 0
	case kwBrand:
		return 1
	case kwProduct:
		return 2
	case kwSynonym:
		return 3
	}
	for i, k := range attributeKinds {
		if k == kind {
			return 4 + i
		}
	}
	return 100
}

var (
	num           = `\$?\s?(\d+(?:[.,]\d{1,2})?)\s?(?:\$|usd|dollars?|bucks|eur|euros?|€|£)?`
	priceBetween  = regexp.MustCompile(`\b(?:between|from)\s+` + num + `\s*(?:and|to|-|–)\s*` + num)
	priceRange    = regexp.MustCompile(`(\$\s?\d+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s*(?:-|–|to)\s*(\$\s?\d+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(\s*(?:\$|usd|dollars?|bucks))?`)
	priceMax      = regexp.MustCompile(`(?:\bunder|\bbelow|\bless than|\bcheaper than|\bat most|\bup to|\bno more than|\bnot more than|\bmax(?:imum)?|\bwithin|\bbudget of|<=?)\s*` + num)
	priceMin      = regexp.MustCompile(`(?:\bover|\babove|\bmore than|\bat least|\bstarting at|\bmin(?:imum)?|\bfrom|>=?)\s*` + num)
	priceAround   = regexp.MustCompile(`(?:\baround|\babout|\broughly|\bapprox(?:imately)?|~)\s*` + num)
	sizeWord      = regexp.MustCompile(`\bsize\s+([a-z0-9.]+)\b|\b(xxs|xs|xl|xxl|xxxl|2xl|3xl)\b`)
	currencyNamed = regexp.MustCompile(`\$|€|£|\b(?:usd|dollars?|bucks|eur|euros?)\b`)
	inStockAfter  = regexp.MustCompile(`^\s*in[\s-]*stock\b`)
	unitAfter     = regexp.MustCompile(`^\s*(?:ml|l|liters?|litres?|oz|g|kg|lbs?|pounds|mm|cm|m|inch|inches|in\b|"|years?|yrs?|months?|hours?|h\b|w\b|watts?|mah|pieces?|pcs|pack|person|people|%)`)
)

// parse reads query; the result's slices are never nil.
func (p *parser) parse(query string) Understood {
	u := Understood{Terms: []Term{}, Attributes: []Attribute{}, Brands: []Phrase{}, Exclude: []Phrase{}}
	text := " " + strings.ToLower(query) + " "
	text = p.readPrices(text, &u)
	text = sizeWord.ReplaceAllStringFunc(text, func(m string) string {
		sm := sizeWord.FindStringSubmatch(m)
		size := sm[1] + sm[2]
		u.Attributes = append(u.Attributes, Attribute{Kind: "size", Value: size, Said: m, Phrases: [][]string{{size}}})
		return " , "
	})
	toks := p.correct(tokenizeQuery(text), &u)

	var pending []token // content words for terms, in order
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.brk {
			pending = append(pending, t)
			i++
			continue
		}
		if negators[t.word] {
			i = p.negation(toks, i+1, &u)
			pending = append(pending, token{brk: true})
			continue
		}
		if e, n := p.longest(toks, i); n > 0 {
			p.apply(e, toks[i:i+n], &u, &pending)
			i += n
			continue
		}
		if !p.stops[t.word] && !isNumber(t.word) {
			pending = append(pending, t)
		}
		i++
	}
	u.Terms = p.terms(pending)
	return u
}

// token is one query word, or a clause break.
type token struct {
	word, stem string
	brk        bool
}

func tokenizeQuery(text string) []token {
	var out []token
	for _, clause := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(",;.!?()|", r) }) {
		if len(out) > 0 {
			out = append(out, token{brk: true})
		}
		for _, w := range words(clause) {
			out = append(out, token{word: w, stem: stem(w)})
		}
	}
	return out
}

// correct replaces words the catalog and the vocabularies do not know by the nearest known
// word, when one is close enough: one slip for words of 5-6 letters, two from 7; shorter words are left alone.
func (p *parser) correct(toks []token, u *Understood) []token {
	for i, t := range toks {
		if t.brk || len(t.word) < 3 || isNumber(t.word) {
			continue
		}
		if _, ok := p.known[t.word]; ok {
			continue
		}
		if _, ok := p.known[t.stem]; ok {
			continue
		}
		if len(t.word) < 5 {
			u.unknownWords = true
			continue
		}
		limit := 1
		if len(t.word) >= 7 {
			limit = 2
		}
		best, bestD, bestN := "", limit+1, -1
		for w, n := range p.known {
			if len(w) < 3 || isNumber(w) {
				continue
			}
			d := editDistance(t.word, w, limit)
			if d < bestD || (d == bestD && (n > bestN || (n == bestN && w < best))) {
				best, bestD, bestN = w, d, n
			}
		}
		if best != "" && bestD <= limit {
			if u.Corrections == nil {
				u.Corrections = map[string]string{}
			}
			u.Corrections[t.word] = best
			toks[i] = token{word: best, stem: stem(best)}
		} else {
			u.unknownWords = true
		}
	}
	return toks
}

// longest finds the longest lexicon phrase starting at toks[i].
func (p *parser) longest(toks []token, i int) (lexEntry, int) {
	for _, e := range p.byFirst[toks[i].stem] {
		if i+len(e.words) > len(toks) {
			continue
		}
		ok := true
		for k, w := range e.words {
			if toks[i+k].brk || toks[i+k].stem != w {
				ok = false
				break
			}
		}
		if ok {
			return e, len(e.words)
		}
	}
	return lexEntry{}, 0
}

func said(toks []token) string {
	ws := make([]string, len(toks))
	for i, t := range toks {
		ws[i] = t.word
	}
	return strings.Join(ws, " ")
}

func (p *parser) apply(e lexEntry, toks []token, u *Understood, pending *[]token) {
	s := said(toks)
	switch e.kind {
	case kwInStock:
		u.InStock = true
	case kwPriceLow:
		u.PriceLevel = "low"
	case kwPriceHigh:
		u.PriceLevel = "high"
	case kwSortAsc:
		u.Sort, u.PriceLevel = "price_asc", "low"
	case kwSortDesc:
		u.Sort, u.PriceLevel = "price_desc", "high"
	case kwBrand:
		u.Brands = appendPhrase(u.Brands, Phrase{Kind: kwBrand, Text: e.value, Phrases: [][]string{e.words}})
	case kwProduct, kwSynonym:
		// Product phrases and synonyms stay terms; they are grouped in terms().
		*pending = append(*pending, token{word: s, stem: strings.Join(e.words, " ")})
	default:
		a := Attribute{Kind: e.kind, Value: e.value, Said: s, Phrases: p.attrPhrases[e.kind][e.value], Exact: [][]string{e.words}}
		for _, have := range u.Attributes {
			if have.Kind == a.Kind && have.Value == a.Value {
				return
			}
		}
		u.Attributes = append(u.Attributes, a)
		// "men" is both a gender and an age group.
		if e.kind == enrich.LexiconGender {
			if e2, n := p.ageOf(toks); n > 0 {
				u.Attributes = append(u.Attributes, Attribute{Kind: e2.kind, Value: e2.value, Said: s, Phrases: p.attrPhrases[e2.kind][e2.value], Exact: [][]string{e2.words}})
			}
		}
	}
}

func (p *parser) ageOf(toks []token) (lexEntry, int) {
	for _, e := range p.byFirst[toks[0].stem] {
		if e.kind == enrich.LexiconAgeGroup && len(e.words) == len(toks) {
			return e, len(toks)
		}
	}
	return lexEntry{}, 0
}

// negation reads what follows a negator, from toks[i], and returns where reading resumes.
func (p *parser) negation(toks []token, i int, u *Understood) int {
	excluded := 0
	for i < len(toks) && !toks[i].brk && negFillers[toks[i].word] {
		i++
	}
	for i < len(toks) && !toks[i].brk {
		t := toks[i]
		switch {
		case t.word == "or" || t.word == "nor" || negFillers[t.word] && t.word != "in" && t.word != "with":
			i++
			continue
		case negEnders[t.word] || negators[t.word]:
			return i
		}
		if e, n := p.longest(toks, i); n > 0 {
			// "no leather sneakers": a product word after a negated attribute is what is
			// wanted, not refused.
			if excluded > 0 && (e.kind == kwSynonym || e.kind == kwProduct) {
				return i
			}
			excluded++
			var ex Phrase
			switch {
			case e.kind == kwBrand:
				ex = Phrase{Kind: kwBrand, Text: e.value, Phrases: [][]string{e.words}}
			case e.kind == kwSynonym || e.kind == kwProduct:
				ex = Phrase{Kind: "word", Text: said(toks[i : i+n]), Phrases: p.synonymPhrases(strings.Join(e.words, " "))}
			case e.kind == enrich.LexiconColor || e.kind == enrich.LexiconMaterial:
				// The whole family: "not black" also refuses "jet black" and "noir".
				ex = Phrase{Kind: e.kind, Text: e.value, Phrases: p.attrPhrases[e.kind][e.value]}
			case strings.HasPrefix(e.kind, "price_") || strings.HasPrefix(e.kind, "sort_") || e.kind == kwInStock:
				i += n
				continue
			default:
				ex = Phrase{Kind: e.kind, Text: said(toks[i : i+n]), Phrases: [][]string{e.words}}
			}
			u.Exclude = appendPhrase(u.Exclude, ex)
			i += n
			continue
		}
		if !p.stops[t.word] && !isNumber(t.word) {
			if excluded > 0 && p.nouns[t.stem] {
				return i
			}
			excluded++
			u.Exclude = appendPhrase(u.Exclude, Phrase{Kind: "word", Text: t.word, Phrases: p.synonymPhrases(t.stem)})
		}
		i++
	}
	return i
}

func (p *parser) synonymPhrases(stemmed string) [][]string {
	if s, ok := p.synonyms[stemmed]; ok {
		return s.phrases
	}
	return [][]string{strings.Fields(stemmed)}
}

func appendPhrase(list []Phrase, ph Phrase) []Phrase {
	for _, have := range list {
		if have.Kind == ph.Kind && have.Text == ph.Text {
			return list
		}
	}
	return append(list, ph)
}

// terms groups the remaining words into terms and picks the head: the last noun of the
// first clause that has one, else the last word.
func (p *parser) terms(pending []token) []Term {
	var out []Term
	head := -1
	headClause, clause := -1, 0
	for _, t := range pending {
		if t.brk {
			clause++
			continue
		}
		key, text := t.stem, t.word
		phrases := p.synonymPhrases(key)
		dup := false
		for _, have := range out {
			if have.Text == text {
				dup = true
			}
		}
		if dup {
			continue
		}
		out = append(out, Term{Text: text, Phrases: phrases, Exact: [][]string{strings.Fields(key)}})
		fields := strings.Fields(key)
		if (headClause < 0 || headClause == clause) && (len(fields) > 1 || p.nouns[key] || p.synonyms[key] != nil) {
			head, headClause = len(out)-1, clause
		}
	}
	if head < 0 && len(out) > 0 {
		head = len(out) - 1
	}
	if head >= 0 {
		out[head].Head = true
	}
	return out
}

// readPrices takes the price expressions out of text and records them.
func (p *parser) readPrices(text string, u *Understood) string {
	set := func(lo, hi *float64) {
		if lo != nil && (u.MinPrice == nil || *lo > *u.MinPrice) {
			u.MinPrice = lo
		}
		if hi != nil && (u.MaxPrice == nil || *hi < *u.MaxPrice) {
			u.MaxPrice = hi
		}
	}
	replace := func(re *regexp.Regexp, fn func(sm []string) bool) {
		text = replaceWhere(re, text, fn)
	}
	replace(priceBetween, func(sm []string) bool {
		a, b := money(sm[1]), money(sm[2])
		if *a > *b {
			a, b = b, a
		}
		set(a, b)
		return true
	})
	replace(priceRange, func(sm []string) bool {
		// A bare "20-40" is a price range only with a currency sign or word around it.
		if !strings.Contains(sm[0], "$") && strings.TrimSpace(sm[3]) == "" {
			return false
		}
		a, b := money(sm[1]), money(sm[2])
		if *a > *b {
			a, b = b, a
		}
		set(a, b)
		return true
	})
	replace(priceMax, func(sm []string) bool { set(nil, money(sm[1])); return true })
	replace(priceMin, func(sm []string) bool { set(money(sm[1]), nil); return true })
	replace(priceAround, func(sm []string) bool {
		v := *money(sm[1])
		lo, hi := v*0.8, v*1.2
		set(&lo, &hi)
		return true
	})
	return text
}

// replaceWhere replaces the matches of re for which fn is true by a clause break, unless a
// unit follows the number ("under 500 ml" is a size, not a price). A match that names its
// currency ("under $50") is a price whatever follows: "under $50 in stock" is not inches.
func replaceWhere(re *regexp.Regexp, text string, fn func(sm []string) bool) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringSubmatchIndex(text, -1) {
		if !currencyNamed.MatchString(text[loc[0]:loc[1]]) && unitFollows(text[loc[1]:]) {
			continue
		}
		sm := make([]string, len(loc)/2)
		for k := range sm {
			if loc[2*k] >= 0 {
				sm[k] = text[loc[2*k]:loc[2*k+1]]
			}
		}
		if !fn(sm) {
			continue
		}
		b.WriteString(text[last:loc[0]])
		b.WriteString(" , ")
		last = loc[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// unitFollows reports whether rest starts with a unit of measure; "in" starting "in
// stock" is the stock phrase, not inches.
func unitFollows(rest string) bool {
	return unitAfter.MatchString(rest) && !inStockAfter.MatchString(rest)
}

func money(s string) *float64 {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	s = strings.ReplaceAll(s, ",", ".")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		f = 0
	}
	return &f
}

func isNumber(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
