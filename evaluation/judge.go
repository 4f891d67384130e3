package evaluation

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
)

// Case is one labelled query. Its grades come from the judgement rule (Want, Prefer,
// Hard) applied to the generator's ground truth, never from the engine. README.md explains
// the rule.
type Case struct {
	ID      string         `json:"id"`
	Query   string         `json:"query"`
	Profile map[string]any `json:"profile,omitempty"`
	// Vendor limits the case to a catalog: it is skipped when that catalog is absent.
	Vendor string `json:"vendor,omitempty"`
	Want   Rule   `json:"want"`
	Prefer []Rule `json:"prefer,omitempty"`
	Hard   Hard   `json:"hard"`
}

// Rule is a condition on a product's ground truth; every field set must hold.
type Rule struct {
	// Type: the product type is one of these (case-insensitive).
	Type []string `json:"type,omitempty"`
	// Category: the demo category handle (apparel, shoes, outdoor, home...).
	Category string `json:"category,omitempty"`
	// TitleAny: the title holds one of these words or phrases.
	TitleAny []string `json:"title_any,omitempty"`
	// Title: the title holds this word or phrase.
	Title string `json:"title,omitempty"`
	// Tag: the product carries this tag (the generator's materials and features).
	Tag string `json:"tag,omitempty"`
	// Color: an option value is this color.
	Color string `json:"color,omitempty"`
	// Brand: the vendor (brand) is this.
	Brand string `json:"brand,omitempty"`
	// CheapUnder / PriceOver: the lowest price is under / the highest over this.
	CheapUnder float64 `json:"cheap_under,omitempty"`
	PriceOver  float64 `json:"price_over,omitempty"`
	// Available: the product can be bought.
	Available bool `json:"available,omitempty"`
}

// Hard are the constraints a result must never break.
type Hard struct {
	MaxPrice *float64 `json:"max_price,omitempty"`
	MinPrice *float64 `json:"min_price,omitempty"`
	InStock  bool     `json:"in_stock,omitempty"`
	// NotWords must not appear in the title, description, tags, option values, product
	// type or brand (whole words, plural tolerated).
	NotWords []string `json:"not_words,omitempty"`
}

// labelledSet is queries.json, for benchmarks outside this folder that ask its queries.
//
//go:embed queries.json
var labelledSet []byte

// LoadCases reads the labelled set.
func LoadCases(path string) ([]Case, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeCases(path, raw)
}

// Cases returns the labelled set of this folder's queries.json.
func Cases() ([]Case, error) { return decodeCases("queries.json", labelledSet) }

func decodeCases(path string, raw []byte) ([]Case, error) {
	var cases []Case
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return cases, nil
}

// Grade is the relevance of e to c: 0 when it breaks a hard constraint or is not what was
// asked for; else 1 plus up to 2 for the share of preferences met (all met: 3).
func (c *Case) Grade(e *Entry) int {
	if c.Violates(e) != "" || !c.Want.holds(e) {
		return 0
	}
	if len(c.Prefer) == 0 {
		return 3
	}
	met := 0
	for _, r := range c.Prefer {
		if r.holds(e) {
			met++
		}
	}
	switch {
	case met == len(c.Prefer):
		return 3
	case 2*met >= len(c.Prefer):
		return 2
	}
	return 1
}

// Violates names the hard constraint e breaks, or "".
func (c *Case) Violates(e *Entry) string {
	lo, hi := priceRange(e)
	h := c.Hard
	if h.MaxPrice != nil && (hi < 0 || hi > *h.MaxPrice+1e-9) {
		return fmt.Sprintf("price %.2f over %.2f", hi, *h.MaxPrice)
	}
	if h.MinPrice != nil && (lo < 0 || lo < *h.MinPrice-1e-9) {
		return fmt.Sprintf("price %.2f under %.2f", lo, *h.MinPrice)
	}
	if h.InStock && !e.Source.Available() {
		return "sold out"
	}
	text := allText(e)
	for _, w := range h.NotWords {
		if wordIn(text, w) {
			return "mentions " + w
		}
	}
	return ""
}

func (r Rule) holds(e *Entry) bool {
	sp := e.Source
	if len(r.Type) > 0 {
		ok := false
		for _, t := range r.Type {
			ok = ok || strings.EqualFold(sp.ProductType, t)
		}
		if !ok {
			return false
		}
	}
	if r.Category != "" && sp.Category != r.Category {
		return false
	}
	if len(r.TitleAny) > 0 {
		ok := false
		for _, w := range r.TitleAny {
			ok = ok || wordIn(sp.Title, w)
		}
		if !ok {
			return false
		}
	}
	if r.Title != "" && !wordIn(sp.Title, r.Title) {
		return false
	}
	if r.Tag != "" {
		ok := false
		for _, t := range sp.Tags {
			ok = ok || strings.EqualFold(t, r.Tag)
		}
		if !ok {
			return false
		}
	}
	if r.Color != "" {
		ok := false
		for _, o := range sp.Options {
			for _, v := range o.Values {
				ok = ok || strings.EqualFold(v, r.Color)
			}
		}
		if !ok {
			return false
		}
	}
	if r.Brand != "" && !strings.EqualFold(sp.Vendor, r.Brand) {
		return false
	}
	lo, hi := priceRange(e)
	if r.CheapUnder > 0 && (lo < 0 || lo >= r.CheapUnder) {
		return false
	}
	if r.PriceOver > 0 && hi <= r.PriceOver {
		return false
	}
	if r.Available && !sp.Available() {
		return false
	}
	return true
}

// priceRange is the lowest and highest variant price in currency units, -1 when unpriced.
func priceRange(e *Entry) (lo, hi float64) {
	if len(e.Source.Variants) == 0 {
		return -1, -1
	}
	l, h := e.Source.PriceRange()
	return float64(l) / 100, float64(h) / 100
}

func allText(e *Entry) string {
	sp := e.Source
	parts := []string{sp.Title, stripMarkup(sp.BodyHTML), sp.ProductType, sp.Vendor, strings.Join(sp.Tags, " ")}
	for _, o := range sp.Options {
		parts = append(parts, strings.Join(o.Values, " "))
	}
	return strings.Join(parts, " \n ")
}

// wordPatterns caches compiled word patterns; safe for concurrent use.
var wordPatterns sync.Map

// wordIn reports whether w occurs in text as whole words (case-insensitive), a plural s
// or es tolerated on its last word.
func wordIn(text, w string) bool {
	var re *regexp.Regexp
	if v, ok := wordPatterns.Load(w); ok {
		re = v.(*regexp.Regexp)
	} else {
		parts := strings.Fields(strings.ToLower(w))
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		re = regexp.MustCompile(`(?i)(^|[^\pL\pN])` + strings.Join(parts, `[^\pL\pN]+`) + `(s|es)?($|[^\pL\pN])`)
		wordPatterns.Store(w, re)
	}
	return re.MatchString(text)
}
