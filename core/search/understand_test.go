package search

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// testVocabulary is a small catalog's vocabulary: enough for brands, product types and
// spelling.
var testVocabulary = Vocabulary{
	Words: map[string]int{"hoodie": 40, "sneaker": 30, "boot": 25, "hiking": 10, "jacket": 20, "shirt": 15,
		"blanket": 8, "sweater": 12, "backpack": 9, "tent": 5, "leather": 7, "heel": 3, "dress": 6, "mug": 4},
	Brands:       []string{"northwind", "kestrel & co", "ridgeback", "stridewell"},
	ProductTypes: []string{"hoodie", "sneaker", "hiking boot", "sleeping bag", "throw blanket", "rain shell", "t-shirt"},
}

// summary writes an Understood compactly for table comparisons.
func summary(u Understood) string {
	var parts []string
	var terms []string
	for _, t := range u.Terms {
		s := t.Text
		if t.Head {
			s += "*"
		}
		terms = append(terms, s)
	}
	if len(terms) > 0 {
		parts = append(parts, "terms="+strings.Join(terms, ","))
	}
	var attrs []string
	for _, a := range u.Attributes {
		attrs = append(attrs, a.Kind+":"+a.Value)
	}
	sort.Strings(attrs)
	if len(attrs) > 0 {
		parts = append(parts, "attrs="+strings.Join(attrs, ","))
	}
	for _, b := range u.Brands {
		parts = append(parts, "brand="+b.Text)
	}
	if u.MinPrice != nil {
		parts = append(parts, fmt.Sprintf("min=%g", *u.MinPrice))
	}
	if u.MaxPrice != nil {
		parts = append(parts, fmt.Sprintf("max=%g", *u.MaxPrice))
	}
	if u.PriceLevel != "" {
		parts = append(parts, "level="+u.PriceLevel)
	}
	if u.InStock {
		parts = append(parts, "in_stock")
	}
	var ex []string
	for _, e := range u.Exclude {
		ex = append(ex, e.Kind+":"+e.Text)
	}
	if len(ex) > 0 {
		parts = append(parts, "not="+strings.Join(ex, ","))
	}
	if u.Sort != "" {
		parts = append(parts, "sort="+u.Sort)
	}
	var fixes []string
	for k, v := range u.Corrections {
		fixes = append(fixes, k+">"+v)
	}
	sort.Strings(fixes)
	if len(fixes) > 0 {
		parts = append(parts, "fix="+strings.Join(fixes, ","))
	}
	return strings.Join(parts, " ")
}

func TestParserReadsPhrasings(t *testing.T) {
	p := newParser(testVocabulary)
	for _, tc := range []struct{ query, want string }{
		// Product terms, the head being the thing asked for.
		{"hoodie", "terms=hoodie*"},
		{"cozy throw blanket", "terms=cozy,throw blanket*"},
		{"sleeping bag for camping", "terms=sleeping bag* attrs=occasion:camping"},
		// Prices.
		{"sneakers under $50", "terms=sneakers* max=50"},
		{"sneakers under 50 dollars", "terms=sneakers* max=50"},
		{"sneakers under $50 in stock", "terms=sneakers* max=50 in_stock"},
		{"sneakers under 50 in stock", "terms=sneakers* max=50 in_stock"},
		{"sneakers under 12 in", "terms=sneakers*"},
		{"boots less than 120", "terms=boots* max=120"},
		{"tent over $200", "terms=tent* min=200"},
		{"jacket between 20 and 40", "terms=jacket* min=20 max=40"},
		{"jacket between $40 and $20", "terms=jacket* min=20 max=40"},
		{"backpack $20-$40", "terms=backpack* min=20 max=40"},
		{"backpack 20-40 dollars", "terms=backpack* min=20 max=40"},
		{"mug from $10 to $15", "terms=mug* min=10 max=15"},
		{"hoodie at most $35.50", "terms=hoodie* max=35.5"},
		{"sweater around $100", "terms=sweater* min=80 max=120"},
		{"water bottle under 500 ml", "terms=water bottle*"},
		{"cheap hoodie", "terms=hoodie* level=low"},
		{"affordable backpack", "terms=backpack* level=low"},
		{"luxury sweater", "terms=sweater* level=high"},
		// Sort intent.
		{"cheapest sneakers", "terms=sneakers* level=low sort=price_asc"},
		{"most expensive jacket", "terms=jacket* level=high sort=price_desc"},
		// Attributes from the enrichment vocabularies.
		{"navy hoodie", "terms=hoodie* attrs=color:blue"},
		{"black leather boots", "terms=boots* attrs=color:black,material:leather"},
		{"waterproof hiking boots", "terms=hiking boots* attrs=claim:waterproof"},
		{"organic cotton t-shirt", "terms=t shirt* attrs=material:cotton"},
		{"striped linen shirt", "terms=shirt* attrs=material:linen,pattern:striped"},
		{"minimalist sneakers", "terms=sneakers* attrs=style:minimalist"},
		{"women's running shoes", "terms=running shoes* attrs=age_group:adult,gender:female"},
		{"kids rain jacket", "terms=rain jacket* attrs=age_group:kids"},
		{"hoodie size xl", "terms=hoodie* attrs=size:xl"},
		{"winter boots", "terms=boots* attrs=season:winter"},
		// Brands.
		{"northwind hoodie", "terms=hoodie* brand=northwind"},
		{"kestrel & co sweater", "terms=sweater* brand=kestrel co"},
		// Availability.
		{"hoodie in stock", "terms=hoodie* in_stock"},
		{"available sneakers", "terms=sneakers* in_stock"},
		// Negations: hard exclusions.
		{"waterproof hiking boots under $150, not black", "terms=hiking boots* attrs=claim:waterproof max=150 not=color:black"},
		{"sneakers without leather", "terms=sneakers* not=material:leather"},
		{"dress no heels", "terms=dress* not=word:heels"},
		{"boots not from ridgeback", "terms=boots* not=brand:ridgeback"},
		{"shirt not black or white", "terms=shirt* not=color:black,color:white"},
		{"jacket without leather and waterproof", "terms=jacket* attrs=claim:waterproof not=material:leather"},
		{"no leather sneakers", "terms=sneakers* not=material:leather"},
		// Synonyms and slips.
		{"trainers", "terms=trainers*"},
		{"hoodei", "terms=hoodie* fix=hoodei>hoodie"},
		{"sneakrs under $80", "terms=sneaker* max=80 fix=sneakrs>sneaker"},
		{"blakc hoodie", "terms=hoodie* attrs=color:black fix=blakc>black"},
		// Nothing but filters.
		{"something under $20", "max=20"},
		{"", ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			if got := summary(p.parse(tc.query)); got != tc.want {
				t.Errorf("parse(%q)\n got  %s\n want %s", tc.query, got, tc.want)
			}
		})
	}
}

func TestSynonymsSearchForEachOther(t *testing.T) {
	p := newParser(testVocabulary)
	for _, tc := range []struct{ query, finds string }{
		{"trainers", "sneaker"},
		{"sneakers", "trainer"},
		{"tee", "t shirt"},
		{"t-shirt", "tee"},
		{"hoody", "hoodie"},
		{"couch", "sofa"},
		{"rucksack", "backpack"},
	} {
		u := p.parse(tc.query)
		if len(u.Terms) != 1 || !hasPhrase(u.Terms[0].Phrases, phraseStems(tc.finds)) {
			t.Errorf("%q does not search for %q: %+v", tc.query, tc.finds, u.Terms)
		}
	}
}

func hasPhrase(phrases [][]string, p []string) bool {
	for _, ph := range phrases {
		if strings.Join(ph, " ") == strings.Join(p, " ") {
			return true
		}
	}
	return false
}

func TestEditDistanceCountsTranspositionsAsOneSlip(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"hoodei", "hoodie", 1}, {"sneakrs", "sneakers", 1}, {"boot", "boot", 0}, {"jackte", "jacket", 1}, {"abc", "xyz", 3}, {"tent", "tents", 1}} {
		if got := editDistance(tc.a, tc.b, 5); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if got := editDistance("tent", "blanket", 2); got != 3 {
		t.Errorf("a distance over the limit reports limit+1, got %d", got)
	}
}
