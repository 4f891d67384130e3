package search

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Ranking weights; RULES.md explains them.
const (
	weightText       = 1.0  // ts_rank, normalised to the best candidate
	weightSimilarity = 0.3  // trigram similarity of the title
	weightTerms      = 1.5  // share of the query's terms the product carries
	weightAttribute  = 0.5  // each attribute matched
	weightExact      = 0.25 // the attribute's own word, not just its family ("navy", not "teal")
	weightBrand      = 0.6
	weightPriceQuery = 0.5 // "cheap", "premium" in the query
	weightPriceValue = 0.3 // purchase_behavior.value
	penaltyVendor    = 0.15
	penaltyBrand     = 0.05
)

// relaxOrder is the order soft constraints are dropped in; RULES.md gives the reasons.
var relaxOrder = map[string]int{
	"style": 0, "pattern": 0, "season": 0,
	"occasion": 1,
	"size":     2,
	"gender":   3, "age_group": 3,
	"claim":    4,
	"material": 5,
	"color":    6,
	"brand":    7,
	"term":     8,
	"head":     9,
}

// doc is a candidate's text, stemmed, by field strength.
type doc struct {
	c       *Candidate
	title   []string
	meta    []string        // brand, product type, vendor, a listing's collections, tags, option values
	options map[string]bool // folded option values, whole
	// desc is read when title and labels do not settle a question: most candidates
	// never need their description's words.
	desc     []string
	descRead bool
}

func newDoc(c *Candidate) *doc {
	d := &doc{c: c, title: stems(c.Title), options: map[string]bool{}}
	meta := []string{c.Brand, c.ProductType, c.Vendor}
	meta = append(meta, c.Collections...)
	meta = append(meta, c.Tags...)
	meta = append(meta, c.Options...)
	// A clause mark between fields keeps phrases from spanning two of them.
	d.meta = stems(strings.Join(meta, " | "))
	for _, o := range c.Options {
		d.options[strings.Join(words(o), " ")] = true
	}
	return d
}

// description returns the stemmed words of the candidate's description.
func (d *doc) description() []string {
	if !d.descRead {
		d.desc, d.descRead = stems(d.c.Description), true
	}
	return d.desc
}

// strength is 1 when a phrase is in the title or the product's labels, 0.5 when only in
// the description (unless strongOnly), else 0.
func (d *doc) strength(phrases [][]string, strongOnly bool) float64 {
	switch {
	case d.named(phrases):
		return 1
	case !strongOnly && d.described(phrases):
		return 0.5
	}
	return 0
}

// anywhere reports whether any phrase occurs in any field: the test of exclusions.
func (d *doc) anywhere(phrases [][]string) bool { return d.named(phrases) || d.described(phrases) }

// named reports whether any phrase is in the title or the labels.
func (d *doc) named(phrases [][]string) bool {
	for _, p := range phrases {
		if containsPhrase(d.title, p) || containsPhrase(d.meta, p) {
			return true
		}
	}
	return false
}

// described reports whether any phrase is in the description.
func (d *doc) described(phrases [][]string) bool {
	for _, p := range phrases {
		if containsPhrase(d.description(), p) {
			return true
		}
	}
	return false
}

// plan is everything ranking needs to know about one search.
type plan struct {
	u       Understood
	prefs   preferences
	filters Filters
	limit   int
	// target is the number of results below which soft constraints are relaxed.
	target int
}

// hardReasons returns why a candidate satisfies the hard constraints, or ok false when it
// violates one. It is the last word on hard constraints: retrieval filters the same way
// in SQL, but only this check decides.
func (pl *plan) hardReasons(d *doc) (reasons []string, ok bool) {
	c := d.c
	if c.Listing && !pl.listingsQualify() {
		return nil, false
	}
	lo, hi := pl.priceBounds()
	if lo != nil || hi != nil {
		if c.MinPrice == nil || c.MaxPrice == nil {
			return nil, false
		}
		if lo != nil && *c.MinPrice < *lo-1e-9 || hi != nil && *c.MaxPrice > *hi+1e-9 {
			return nil, false
		}
		reasons = append(reasons, priceLabel(lo, hi))
	}
	if pl.inStock() {
		if !c.Available {
			return nil, false
		}
		label := "in stock"
		if pl.prefs.inStockOnly && !pl.u.InStock {
			label = "profile: in stock only"
		}
		reasons = append(reasons, label)
	}
	if pl.filters.IsAvailable != nil && !*pl.filters.IsAvailable && c.Available {
		return nil, false
	}
	for _, ex := range pl.u.Exclude {
		if d.anywhere(ex.Phrases) {
			return nil, false
		}
		reasons = append(reasons, "not "+ex.Text)
	}
	for _, ex := range pl.prefs.avoid {
		if d.anywhere(ex.Phrases) {
			return nil, false
		}
		reasons = append(reasons, "profile: avoids "+ex.Text)
	}
	f := pl.filters
	if f.Vendor != "" {
		if !strings.EqualFold(c.Vendor, f.Vendor) && !strings.EqualFold(c.Brand, f.Vendor) {
			return nil, false
		}
		reasons = append(reasons, "vendor: "+f.Vendor)
	}
	if f.Brand != "" {
		if !strings.EqualFold(c.Brand, strings.TrimSpace(f.Brand)) {
			return nil, false
		}
		reasons = append(reasons, "brand: "+f.Brand)
	}
	if f.ProductType != "" {
		if !strings.EqualFold(c.ProductType, strings.TrimSpace(f.ProductType)) {
			return nil, false
		}
		reasons = append(reasons, "product type: "+f.ProductType)
	}
	for _, t := range f.Tags {
		found := false
		for _, have := range c.Tags {
			found = found || strings.EqualFold(have, strings.TrimSpace(t))
		}
		if !found {
			return nil, false
		}
		reasons = append(reasons, "tag: "+t)
	}
	return reasons, true
}

// inStock reports whether only available products may be results.
func (pl *plan) inStock() bool {
	return pl.u.InStock || pl.prefs.inStockOnly || pl.filters.IsAvailable != nil && *pl.filters.IsAvailable
}

// listingsQualify reports whether crawled listings may be results of the search: only when
// its every hard constraint can be checked on what a listing shows, and the only one that
// can is the vendor filter. A price bound needs the price of every variant, "in stock" the
// availability, a negation or an avoided word the product's labels and description, and
// the brand, type and tag filters the labels; a listing shows none of them (one listed
// price is not the price of every variant), so under any of them the search keeps to
// extracted products. RULES.md, "Listings".
func (pl *plan) listingsQualify() bool {
	lo, hi := pl.priceBounds()
	f := pl.filters
	return lo == nil && hi == nil && !pl.inStock() && f.IsAvailable == nil &&
		len(pl.u.Exclude) == 0 && len(pl.prefs.avoid) == 0 &&
		f.Brand == "" && f.ProductType == "" && len(f.Tags) == 0
}

// priceBounds combines the query's and the filters' bounds: the tighter wins.
func (pl *plan) priceBounds() (lo, hi *float64) {
	lo, hi = pl.u.MinPrice, pl.u.MaxPrice
	if f := pl.filters.MinPrice; f != nil && (lo == nil || *f > *lo) {
		lo = f
	}
	if f := pl.filters.MaxPrice; f != nil && (hi == nil || *f < *hi) {
		hi = f
	}
	return lo, hi
}

func priceLabel(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("price $%s-$%s", money2(*lo), money2(*hi))
	case hi != nil:
		return "under $" + money2(*hi)
	default:
		return "over $" + money2(*lo)
	}
}

func money2(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2f", f)
}

// soft is one soft constraint and how strongly each candidate meets it.
type soft struct {
	kind  string
	label string
	order int
	sat   []float64
	// exact is the extra strength of the attribute's own word, per candidate.
	exact []float64
}

type scored struct {
	c       *Candidate
	score   float64
	reasons []string
	price   float64
}

// rank applies the hard constraints, relaxes soft ones until enough products match, scores
// what is kept and orders it: diverse across vendors, or by price for a sort intent.
func rank(cands []Candidate, pl plan) (out []scored, relaxed []string) {
	var docs []*doc
	var hard [][]string
	for i := range cands {
		d := newDoc(&cands[i])
		if r, ok := pl.hardReasons(d); ok {
			docs = append(docs, d)
			hard = append(hard, r)
		}
	}
	if len(docs) == 0 {
		return nil, []string{}
	}
	constraints := pl.softConstraints(docs)
	active := make([]bool, len(constraints))
	for i := range active {
		active[i] = true
	}
	keep := func() []int {
		var idx []int
	next:
		for i := range docs {
			for k, s := range constraints {
				if active[k] && s.sat[i] == 0 {
					continue next
				}
			}
			idx = append(idx, i)
		}
		return idx
	}
	kept := keep()
	relaxed = []string{}
	order := make([]int, len(constraints))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return constraints[order[a]].order < constraints[order[b]].order })
	for _, k := range order {
		if len(kept) >= pl.target {
			break
		}
		// The head (the thing asked for) is dropped only when no candidate names it at all:
		// fewer right products beat a page of wrong ones.
		if constraints[k].kind == "head" && anyMet(constraints[k].sat) {
			continue
		}
		active[k] = false
		relaxed = append(relaxed, constraints[k].label)
		kept = keep()
	}

	// Text ranks are normalised within each kind of candidate: a listing's document (its
	// name and its collections' titles) is short, and ts_rank, normalised by length,
	// ranks short documents higher.
	bestRank := map[bool]float64{}
	for _, d := range docs {
		bestRank[d.c.Listing] = math.Max(bestRank[d.c.Listing], d.c.TextRank)
	}
	pct := pricePercentiles(docs, kept)
	level := pl.u.PriceLevel
	var termWeight float64
	for _, s := range constraints {
		if s.kind == "term" || s.kind == "head" {
			termWeight += termW(s.kind)
		}
	}
	out = make([]scored, 0, len(kept))
	for _, i := range kept {
		d := docs[i]
		sc := scored{c: d.c, reasons: append([]string(nil), hard[i]...)}
		if best := bestRank[d.c.Listing]; best > 0 {
			sc.score += weightText * d.c.TextRank / best
		}
		sc.score += weightSimilarity * d.c.Similarity
		var terms float64
		var matchedTerms []string
		for k, s := range constraints {
			st := s.sat[i]
			if s.kind == "term" || s.kind == "head" {
				// A phrase met only by its last word ("mug" for "coffee mug") scores half.
				terms += termW(s.kind) * math.Max(st, 0.5*s.exact[i])
			}
			switch {
			case st == 0 && !active[k]:
				sc.reasons = append(sc.reasons, "relaxed: "+s.label)
				continue
			case st == 0:
				continue
			}
			switch s.kind {
			case "term", "head":
				matchedTerms = append(matchedTerms, strings.TrimPrefix(s.label, "term: "))
			case "brand":
				sc.score += weightBrand * st
				sc.reasons = append(sc.reasons, s.label)
			default:
				sc.score += weightAttribute*st + weightExact*s.exact[i]
				sc.reasons = append(sc.reasons, s.label)
			}
		}
		if termWeight > 0 {
			sc.score += weightTerms * terms / termWeight
		}
		if len(matchedTerms) > 0 {
			sc.reasons = append([]string{"matches: " + strings.Join(matchedTerms, ", ")}, sc.reasons...)
		}
		for _, b := range pl.prefs.boosts {
			if st := d.strength(b.phrases, b.strongOnly); st > 0 {
				sc.score += b.weight * st
				sc.reasons = append(sc.reasons, b.label)
			}
		}
		if p, ok := pct[i]; ok {
			sc.price = *d.c.MinPrice
			switch level {
			case "low":
				sc.score += weightPriceQuery * (1 - p)
			case "high":
				sc.score += weightPriceQuery * p
			}
			switch pl.prefs.priceLevel {
			case "low":
				sc.score += weightPriceValue * (1 - p)
				if p <= 0.5 {
					sc.reasons = append(sc.reasons, "profile: "+pl.prefs.valueSaid+" (lower price)")
				}
			case "high":
				sc.score += weightPriceValue * p
				if p >= 0.5 {
					sc.reasons = append(sc.reasons, "profile: "+pl.prefs.valueSaid+" (higher price)")
				}
			}
		}
		out = append(out, sc)
	}
	switch pl.u.Sort {
	case "price_asc", "price_desc":
		sortByPrice(out, pl.u.Sort == "price_desc")
	default:
		out = diversify(out, pl.limit)
	}
	if len(out) > pl.limit {
		out = out[:pl.limit]
	}
	for i := range out {
		out[i].score = math.Round(out[i].score*10000) / 10000
	}
	return out, relaxed
}

func anyMet(sat []float64) bool {
	for _, v := range sat {
		if v > 0 {
			return true
		}
	}
	return false
}

func termW(kind string) float64 {
	if kind == "head" {
		return 2
	}
	return 1
}

// softConstraints lists the query's soft constraints with each candidate's strength.
func (pl *plan) softConstraints(docs []*doc) []soft {
	var out []soft
	add := func(kind, label string, fn func(d *doc) (float64, float64)) {
		s := soft{kind: kind, label: label, order: relaxOrder[kind], sat: make([]float64, len(docs)), exact: make([]float64, len(docs))}
		for i, d := range docs {
			s.sat[i], s.exact[i] = fn(d)
		}
		out = append(out, s)
	}
	for _, a := range pl.u.Attributes {
		label := a.Kind + ": " + a.Said
		if a.Kind == "color" && a.Said != a.Value {
			label = "color: " + a.Said + " (" + a.Value + ")"
		}
		kind := a.Kind
		switch kind {
		case "size":
			add(kind, label, func(d *doc) (float64, float64) {
				if d.options[a.Value] {
					return 1, 0
				}
				return 0, 0
			})
		default:
			strongOnly := kind == "color" || kind == "gender" || kind == "age_group"
			add(kind, label, func(d *doc) (float64, float64) {
				st := d.strength(a.Phrases, strongOnly)
				if st == 0 {
					return 0, 0
				}
				return st, d.strength(a.Exact, strongOnly)
			})
		}
	}
	if len(pl.u.Brands) > 0 {
		var phrases [][]string
		var names []string
		for _, b := range pl.u.Brands {
			phrases = append(phrases, b.Phrases...)
			names = append(names, b.Text)
		}
		add("brand", "brand: "+strings.Join(names, " or "), func(d *doc) (float64, float64) {
			return d.strength(phrases, true), 0
		})
	}
	// Modifiers are relaxed before the head, in query order.
	n := 0
	for _, t := range pl.u.Terms {
		kind := "term"
		if t.Head {
			kind = "head"
		}
		var lasts [][]string
		for _, p := range t.Phrases {
			if len(p) > 1 {
				lasts = append(lasts, p[len(p)-1:])
			}
		}
		add(kind, "term: "+t.Text, func(d *doc) (float64, float64) {
			// The words said count fully, their synonyms 0.6; exact carries the partial
			// match of a phrase's last word, which scores but does not meet the term.
			st := math.Max(d.strength(t.Exact, false), 0.6*d.strength(t.Phrases, false))
			return st, d.strength(lasts, false)
		})
		if kind == "term" {
			out[len(out)-1].order = relaxOrder["term"]*100 + n
			n++
		} else {
			out[len(out)-1].order = relaxOrder["head"] * 100
		}
	}
	for i := range out {
		if out[i].kind != "term" && out[i].kind != "head" {
			out[i].order *= 100
		}
	}
	return out
}

// pricePercentiles gives each kept, priced candidate its price's rank among them, 0
// (cheapest) to 1 (dearest).
func pricePercentiles(docs []*doc, kept []int) map[int]float64 {
	var priced []int
	for _, i := range kept {
		if docs[i].c.MinPrice != nil {
			priced = append(priced, i)
		}
	}
	sort.SliceStable(priced, func(a, b int) bool { return *docs[priced[a]].c.MinPrice < *docs[priced[b]].c.MinPrice })
	out := make(map[int]float64, len(priced))
	for r, i := range priced {
		if len(priced) == 1 {
			out[i] = 0.5
			continue
		}
		out[i] = float64(r) / float64(len(priced)-1)
	}
	return out
}

// diversify picks greedily by score minus a penalty for each product already picked from
// the same vendor (and, less, the same brand): an MMR-like re-ranking, so one store does
// not fill the first page when others match nearly as well.
func diversify(in []scored, limit int) []scored {
	sort.SliceStable(in, func(a, b int) bool { return in[a].score > in[b].score })
	vendors, brands := map[string]int{}, map[string]int{}
	out := make([]scored, 0, min(limit, len(in)))
	used := make([]bool, len(in))
	for len(out) < limit && len(out) < len(in) {
		best, bestV := -1, math.Inf(-1)
		for i, s := range in {
			if used[i] {
				continue
			}
			v := s.score - penaltyVendor*float64(vendors[s.c.Vendor]) - penaltyBrand*float64(brands[strings.ToLower(s.c.Brand)])
			if v > bestV {
				best, bestV = i, v
			}
			// Sorted by score: nothing later can beat bestV once its score alone cannot.
			if s.score <= bestV {
				break
			}
		}
		used[best] = true
		vendors[in[best].c.Vendor]++
		brands[strings.ToLower(in[best].c.Brand)]++
		out = append(out, in[best])
	}
	return out
}

// sortByPrice orders by price (unpriced last), best score first among equal prices.
func sortByPrice(s []scored, desc bool) {
	sort.SliceStable(s, func(a, b int) bool {
		pa, pb := s[a].c.MinPrice, s[b].c.MinPrice
		switch {
		case pa == nil || pb == nil:
			return pa != nil && pb == nil
		case *pa != *pb:
			return (*pa < *pb) != desc
		}
		return s[a].score > s[b].score
	})
}
