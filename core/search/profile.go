package search

import (
	"fmt"
	"strings"

	"github.com/stockroom/stockroom/core/enrich"
)

// boost is a profile point: products with evidence of one of its phrases score weight more
// (half as much when the evidence is only in the description).
type boost struct {
	label   string
	phrases [][]string
	weight  float64
	// strongOnly boosts ignore the description (a color named in running text is not the
	// product's color).
	strongOnly bool
}

// preferences is what a customer profile means to the ranking.
type preferences struct {
	boosts []boost
	// avoid are hard exclusions (style.avoid).
	avoid []Phrase
	// inStockOnly is a hard constraint (preferences.in_stock_only).
	inStockOnly bool
	// priceLevel is "low" or "high" (purchase_behavior.value), or "".
	priceLevel string
	valueSaid  string
}

// Evidence words for the profile's priorities; RULES.md lists them.
var (
	comfortWords    = []string{"comfortable", "comfort", "comfy", "cushioned", "cushioning", "cushion", "soft", "relaxed", "breathable", "stretch", "cozy", "padded", "plush", "lightweight"}
	durabilityWords = []string{"durable", "durability", "reinforced", "rugged", "heavyweight", "sturdy", "lifetime warranty", "warranty", "resoleable", "long lasting", "built to last", "double stitched", "vibram", "waxed canvas", "stainless steel", "expedition"}
	travelWords     = []string{"packable", "lightweight", "compact", "ultralight", "travel", "foldable", "portable", "stuff sack", "wrinkle resistant", "travel friendly"}
	environments    = map[string][]string{
		"rain":     {"waterproof", "water resistant", "water repellent", "rain", "weatherproof"},
		"wet":      {"waterproof", "water resistant", "water repellent", "weatherproof"},
		"cold":     {"insulated", "wool", "merino", "warm", "fleece", "down", "winter"},
		"snow":     {"insulated", "waterproof", "warm", "winter"},
		"winter":   {"insulated", "wool", "warm", "fleece", "winter"},
		"hot":      {"breathable", "linen", "lightweight", "moisture wicking", "summer"},
		"summer":   {"breathable", "linen", "lightweight", "summer"},
		"tropical": {"breathable", "linen", "lightweight", "quick dry"},
		"humid":    {"breathable", "moisture wicking", "quick dry"},
		"outdoor":  {"all terrain", "trail", "rugged", "weatherproof", "outdoor"},
		"mountain": {"all terrain", "trail", "rugged", "expedition"},
		"trail":    {"all terrain", "trail", "vibram"},
		"urban":    {"classic", "minimalist", "everyday", "city"},
		"city":     {"classic", "minimalist", "everyday", "city"},
		"office":   {"classic", "work", "formal", "polo", "chino"},
		"beach":    {"linen", "sandal", "quick dry", "beach"},
	}
	lowValues  = []string{"budget", "value", "bargain", "deal", "cheap", "frugal", "saver", "economical", "affordable", "price conscious", "price sensitive", "discount"}
	highValues = []string{"premium", "luxury", "quality", "high end", "investment", "splurge", "designer", "best"}
	// Generic words dropped from an avoid entry ("neon colors" avoids "neon").
	avoidNoise = map[string]bool{"color": true, "colour": true, "tone": true, "style": true, "look": true, "fabric": true,
		"material": true, "print": true, "pattern": true, "anything": true, "item": true, "product": true}
)

// readProfile turns the free-form customer profile into preferences; unknown keys and
// values of the wrong type are ignored (the profile is free-form by contract).
func (p *parser) readProfile(m map[string]any) preferences {
	var pr preferences
	if len(m) == 0 {
		return pr
	}
	if c := str(m, "style", "color"); c != "" {
		pr.boosts = append(pr.boosts, p.colorBoost(c))
	}
	if f := str(m, "style", "fit"); f != "" {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: "+f+" fit", []string{f}, enrich.LexiconStyle, 0.3))
	}
	for _, a := range list(m, "style", "aesthetic") {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: "+a+" aesthetic", []string{a}, enrich.LexiconStyle, 0.35))
	}
	for _, s := range list(m, "style", "silhouette") {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: "+s+" silhouette", []string{s}, enrich.LexiconStyle, 0.3))
	}
	for _, a := range list(m, "style", "avoid") {
		if ph, ok := p.avoidPhrase(a); ok {
			pr.avoid = appendPhrase(pr.avoid, ph)
		}
	}
	pr.inStockOnly = boolean(m, "preferences", "in_stock_only")
	if boolean(m, "preferences", "comfort_priority") {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: comfort", comfortWords, "", 0.3))
	}
	if boolean(m, "usage_context", "durability_priority") || boolean(m, "preferences", "durability_priority") {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: durability", durabilityWords, "", 0.3))
	}
	for _, a := range list(m, "usage_context", "activities") {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: for "+a, []string{a}, enrich.LexiconOccasion, 0.35))
	}
	if env := str(m, "usage_context", "environment"); env != "" {
		ws := []string{env}
		for _, w := range words(env) {
			// "rainy" and "snowy" mean what "rain" and "snow" do.
			if _, ok := environments[w]; !ok && strings.HasSuffix(w, "y") {
				w = strings.TrimSuffix(w, "y")
			}
			ws = append(ws, environments[w]...)
		}
		pr.boosts = append(pr.boosts, p.wordBoost("profile: "+env+" environment", ws, "", 0.3))
	}
	if boolean(m, "usage_context", "travel_friendly") {
		pr.boosts = append(pr.boosts, p.wordBoost("profile: travel-friendly", travelWords, "", 0.3))
	}
	if v := str(m, "purchase_behavior", "value"); v != "" {
		pr.valueSaid = v
		folded := " " + strings.Join(words(v), " ") + " "
		for _, w := range lowValues {
			if strings.Contains(folded, " "+w+" ") {
				pr.priceLevel = "low"
			}
		}
		for _, w := range highValues {
			if pr.priceLevel == "" && strings.Contains(folded, " "+w+" ") {
				pr.priceLevel = "high"
			}
		}
	}
	return pr
}

// colorBoost boosts the color said and, less, its family.
func (p *parser) colorBoost(c string) boost {
	b := boost{label: "profile: color " + c, weight: 0.4, strongOnly: true, phrases: [][]string{phraseStems(c)}}
	for _, w := range words(c) {
		for _, e := range p.byFirst[stem(w)] {
			if e.kind == enrich.LexiconColor {
				b.phrases = append(b.phrases, p.attrPhrases[enrich.LexiconColor][e.value]...)
				break
			}
		}
	}
	return b
}

// wordBoost boosts the given words and, for a vocabulary kind, every phrase of the values
// they name ("minimal" also finds "minimalist").
func (p *parser) wordBoost(label string, ws []string, kind string, weight float64) boost {
	b := boost{label: label, weight: weight}
	for _, w := range ws {
		st := phraseStems(w)
		if len(st) == 0 {
			continue
		}
		b.phrases = append(b.phrases, st)
		if kind == "" {
			continue
		}
		for _, e := range p.byFirst[st[0]] {
			if e.kind == kind && len(e.words) == len(st) {
				b.phrases = append(b.phrases, p.attrPhrases[kind][e.value]...)
				break
			}
		}
	}
	return b
}

// avoidPhrase reads one style.avoid entry: a color or material means its whole family,
// anything else its own words.
func (p *parser) avoidPhrase(a string) (Phrase, bool) {
	var st []string
	for _, w := range stems(a) {
		if !avoidNoise[w] && !p.stops[w] {
			st = append(st, w)
		}
	}
	if len(st) == 0 {
		return Phrase{}, false
	}
	for _, e := range p.byFirst[st[0]] {
		if (e.kind == enrich.LexiconColor || e.kind == enrich.LexiconMaterial) && len(e.words) == len(st) && containsPhrase(st, e.words) {
			return Phrase{Kind: "avoid", Text: a, Phrases: p.attrPhrases[e.kind][e.value]}, true
		}
	}
	return Phrase{Kind: "avoid", Text: a, Phrases: p.synonymPhrases(strings.Join(st, " "))}, true
}

func lookup(m map[string]any, path ...string) any {
	var cur any = m
	for _, k := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

func str(m map[string]any, path ...string) string {
	switch v := lookup(m, path...).(type) {
	case string:
		return strings.TrimSpace(v)
	case []any:
		if len(v) > 0 {
			return strings.TrimSpace(fmt.Sprint(v[0]))
		}
	}
	return ""
}

func list(m map[string]any, path ...string) []string {
	var out []string
	switch v := lookup(m, path...).(type) {
	case string:
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
	}
	return out
}

func boolean(m map[string]any, path ...string) bool {
	switch v := lookup(m, path...).(type) {
	case bool:
		return v
	case string:
		s := strings.ToLower(strings.TrimSpace(v))
		return s == "true" || s == "yes" || s == "high"
	}
	return false
}
