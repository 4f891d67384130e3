package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func price(f float64) *float64 { return &f }

// cand builds a candidate; text rank decreases with the index so ties are broken.
func cand(id, title string, p float64, opts ...func(*Candidate)) Candidate {
	c := Candidate{ID: id, Vendor: "shop.example", Title: title, MinPrice: price(p), MaxPrice: price(p), Available: true, TextRank: 0.5}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func desc(s string) func(*Candidate)      { return func(c *Candidate) { c.Description = s } }
func tags(t ...string) func(*Candidate)   { return func(c *Candidate) { c.Tags = t } }
func colors(v ...string) func(*Candidate) { return func(c *Candidate) { c.Options = v } }
func soldOut(c *Candidate)                { c.Available = false }
func vendor(v string) func(*Candidate)    { return func(c *Candidate) { c.Vendor = v } }
func brand(b string) func(*Candidate)     { return func(c *Candidate) { c.Brand = b } }

func ranked(t *testing.T, query string, profile map[string]any, cands []Candidate, limit int) ([]scored, []string) {
	t.Helper()
	p := newParser(testVocabulary)
	pl := plan{u: p.parse(query), prefs: p.readProfile(profile), limit: limit, target: min(limit, 10)}
	return rank(cands, pl)
}

func ids(s []scored) string {
	var out []string
	for _, x := range s {
		out = append(out, x.c.ID)
	}
	return strings.Join(out, ",")
}

// Each profile field moves the product that has its evidence to the top; without the
// profile, the plain text order (a before b) holds.
func TestEachProfileFieldHasItsEffect(t *testing.T) {
	for _, tc := range []struct {
		field   string
		profile map[string]any
		a, b    Candidate // b is the one the profile favours
		reason  string
	}{
		{"style.color", map[string]any{"style": map[string]any{"color": "navy"}},
			cand("a", "Hoodie", 50, colors("Black")), cand("b", "Hoodie", 50, colors("Navy")), "profile: color navy"},
		{"style.aesthetic", map[string]any{"style": map[string]any{"aesthetic": []any{"minimal"}}},
			cand("a", "Classic Hoodie", 50), cand("b", "Minimalist Hoodie", 50), "profile: minimal aesthetic"},
		{"style.silhouette", map[string]any{"style": map[string]any{"silhouette": []any{"oversized"}}},
			cand("a", "Slim Hoodie", 50), cand("b", "Oversized Hoodie", 50), "profile: oversized silhouette"},
		{"style.fit", map[string]any{"style": map[string]any{"fit": "relaxed"}},
			cand("a", "Hoodie", 50), cand("b", "Hoodie", 50, desc("A relaxed fit.")), "profile: relaxed fit"},
		{"preferences.comfort_priority", map[string]any{"preferences": map[string]any{"comfort_priority": true}},
			cand("a", "Hoodie", 50), cand("b", "Hoodie", 50, tags("cushioned")), "profile: comfort"},
		{"usage_context.durability_priority", map[string]any{"usage_context": map[string]any{"durability_priority": true}},
			cand("a", "Hoodie", 50), cand("b", "Hoodie", 50, desc("Reinforced double-stitched seams.")), "profile: durability"},
		{"usage_context.activities", map[string]any{"usage_context": map[string]any{"activities": []any{"hiking"}}},
			cand("a", "Hoodie", 50), cand("b", "Hoodie", 50, desc("Made for long hikes.")), "profile: for hiking"},
		{"usage_context.environment", map[string]any{"usage_context": map[string]any{"environment": "rainy"}},
			cand("a", "Hoodie", 50), cand("b", "Hoodie", 50, tags("waterproof")), "profile: rainy environment"},
		{"usage_context.travel_friendly", map[string]any{"usage_context": map[string]any{"travel_friendly": true}},
			cand("a", "Hoodie", 50), cand("b", "Packable Hoodie", 50), "profile: travel-friendly"},
		{"purchase_behavior.value budget", map[string]any{"purchase_behavior": map[string]any{"value": "budget"}},
			cand("a", "Hoodie", 80), cand("b", "Hoodie", 30), "profile: budget (lower price)"},
		{"purchase_behavior.value premium", map[string]any{"purchase_behavior": map[string]any{"value": "premium"}},
			cand("a", "Hoodie", 30), cand("b", "Hoodie", 80), "profile: premium (higher price)"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			tc.a.TextRank = 0.55 // a leads on text alone
			without, _ := ranked(t, "hoodie", nil, []Candidate{tc.a, tc.b}, 10)
			if ids(without) != "a,b" {
				t.Fatalf("without the profile: %s, want a,b", ids(without))
			}
			with, _ := ranked(t, "hoodie", tc.profile, []Candidate{tc.a, tc.b}, 10)
			if ids(with) != "b,a" {
				t.Fatalf("with %s: %s, want b,a", tc.field, ids(with))
			}
			if !hasReason(with[0].reasons, tc.reason) {
				t.Errorf("reasons %q lack %q", with[0].reasons, tc.reason)
			}
		})
	}
}

func hasReason(rs []string, want string) bool {
	for _, r := range rs {
		if strings.HasPrefix(r, want) {
			return true
		}
	}
	return false
}

func TestProfileAvoidancesAndInStockOnlyExcludeProducts(t *testing.T) {
	cands := []Candidate{cand("leather", "Leather Boot", 90), cand("canvas", "Canvas Boot", 90), cand("gone", "Canvas Boot", 90, soldOut)}
	got, _ := ranked(t, "boot", map[string]any{"style": map[string]any{"avoid": []any{"leather"}}, "preferences": map[string]any{"in_stock_only": true}}, cands, 10)
	if ids(got) != "canvas" {
		t.Fatalf("avoid leather, in stock only: %s, want canvas", ids(got))
	}
	if !hasReason(got[0].reasons, "profile: avoids leather") || !hasReason(got[0].reasons, "profile: in stock only") {
		t.Errorf("reasons %q", got[0].reasons)
	}
}

// Soft constraints are dropped in the documented order, one at a time, until enough
// products match: style before material before color before brand before secondary words
// before the head.
func TestRelaxationFollowsTheDocumentedOrder(t *testing.T) {
	cands := []Candidate{
		cand("1", "Northwind Minimalist Black Leather Chunky Boot", 100),
		cand("2", "Northwind Black Leather Chunky Boot", 100),
		cand("3", "Northwind Black Chunky Boot", 100),
		cand("4", "Northwind Chunky Boot", 100),
		cand("5", "Chunky Boot", 100),
		cand("6", "Boot", 100),
		cand("7", "Sock", 100),
	}
	q := "minimalist black leather northwind chunky boots"
	for _, tc := range []struct {
		limit   int
		relaxed string
		kept    string
	}{
		{1, "", "1"},
		{2, "style: minimalist", "1,2"},
		{3, "style: minimalist|material: leather", "1,2,3"},
		{4, "style: minimalist|material: leather|color: black", "1,2,3,4"},
		{5, "style: minimalist|material: leather|color: black|brand: northwind", "1,2,3,4,5"},
		{6, "style: minimalist|material: leather|color: black|brand: northwind|term: chunky", "1,2,3,4,5,6"},
	} {
		got, relaxed := ranked(t, q, nil, cands, tc.limit)
		if strings.Join(relaxed, "|") != tc.relaxed {
			t.Errorf("limit %d: relaxed %q, want %q", tc.limit, relaxed, tc.relaxed)
		}
		if ids(got) != tc.kept {
			t.Errorf("limit %d: kept %s, want %s", tc.limit, ids(got), tc.kept)
		}
		if tc.relaxed != "" && !hasReason(got[len(got)-1].reasons, "relaxed: ") {
			t.Errorf("limit %d: the last hit's reasons %q do not say what was relaxed", tc.limit, got[len(got)-1].reasons)
		}
	}
}

func TestResultsAreDiverseAcrossVendors(t *testing.T) {
	var cands []Candidate
	for i := range 6 {
		cands = append(cands, cand(fmt.Sprintf("a%d", i), "Hoodie", 50, vendor("a.example"), func(c *Candidate) { c.TextRank = 0.6 }))
	}
	cands = append(cands, cand("b0", "Hoodie", 50, vendor("b.example")))
	got, _ := ranked(t, "hoodie", nil, cands, 3)
	if !strings.Contains(ids(got), "b0") {
		t.Errorf("top 3 %s: one vendor fills the page although another matches nearly as well", ids(got))
	}
}

func TestSortIntentOrdersByPrice(t *testing.T) {
	cands := []Candidate{cand("mid", "Sneaker", 60), cand("low", "Sneaker", 20), cand("high", "Sneaker", 90)}
	if got, _ := ranked(t, "cheapest sneakers", nil, cands, 10); ids(got) != "low,mid,high" {
		t.Errorf("cheapest: %s", ids(got))
	}
	if got, _ := ranked(t, "most expensive sneakers", nil, cands, 10); ids(got) != "high,mid,low" {
		t.Errorf("most expensive: %s", ids(got))
	}
}

// Property: over random catalogs and random queries built from price bounds, negations,
// availability and avoid lists, no result ever breaks a hard constraint, however much is
// relaxed. The check here is independent of the ranking code: plain substring tests.
func TestHardConstraintsAreNeverBroken(t *testing.T) {
	nouns := []string{"boot", "sneaker", "hoodie", "jacket", "mug", "tent"}
	colorsList := []string{"Black", "White", "Navy", "Olive", "Red"}
	materials := []string{"Leather", "Canvas", "Wool", "Cotton", "Nylon"}
	r := rand.New(rand.NewPCG(1, 2))
	p := newParser(testVocabulary)
	total := 0
	for round := range 300 {
		var cands []Candidate
		for i := range 40 {
			title := materials[r.IntN(len(materials))] + " " + nouns[r.IntN(len(nouns))]
			c := cand(fmt.Sprint(i), title, float64(5+r.IntN(300)), colors(colorsList[r.IntN(len(colorsList))]),
				desc("Made in "+strings.ToLower(materials[r.IntN(len(materials))])+"."))
			c.TextRank = r.Float64()
			c.Available = r.IntN(4) != 0
			if r.IntN(10) == 0 {
				c.MinPrice, c.MaxPrice = nil, nil
			}
			cands = append(cands, c)
		}
		noun := nouns[r.IntN(len(nouns))]
		notColor := strings.ToLower(colorsList[r.IntN(len(colorsList))])
		notMaterial := strings.ToLower(materials[r.IntN(len(materials))])
		maxPrice := float64(20 + r.IntN(250))
		query := fmt.Sprintf("%s %s under $%.0f, not %s, without %s", colorsList[r.IntN(len(colorsList))], noun, maxPrice, notColor, notMaterial)
		inStock := r.IntN(2) == 0
		if inStock {
			query += ", in stock"
		}
		avoid := strings.ToLower(materials[r.IntN(len(materials))])
		profile := map[string]any{"style": map[string]any{"avoid": []any{avoid}}}
		pl := plan{u: p.parse(query), prefs: p.readProfile(profile), limit: 10, target: 10}
		got, _ := rank(cands, pl)
		total += len(got)
		for _, s := range got {
			c := s.c
			text := strings.ToLower(c.Title + " " + c.Description + " " + strings.Join(c.Options, " "))
			switch {
			case c.MaxPrice == nil || *c.MaxPrice > maxPrice:
				t.Fatalf("round %d %q: %s costs %v", round, query, c.Title, c.MaxPrice)
			case inStock && !c.Available:
				t.Fatalf("round %d %q: %s is sold out", round, query, c.Title)
			case strings.Contains(text, notColor), strings.Contains(text, notMaterial), strings.Contains(text, avoid):
				t.Fatalf("round %d %q (avoid %s): %s / %s / %v breaks a negation", round, query, avoid, c.Title, c.Description, c.Options)
			}
		}
	}
	if total < 300 {
		t.Fatalf("only %d results over all rounds: the property was hardly exercised", total)
	}
}

func TestClientFiltersAreHard(t *testing.T) {
	cands := []Candidate{
		cand("a", "Hoodie", 50, brand("Northwind"), tags("sale", "cotton")),
		cand("b", "Hoodie", 50, brand("Marlow"), tags("sale")),
		cand("c", "Hoodie", 50, brand("Northwind"), tags("new")),
	}
	p := newParser(testVocabulary)
	pl := plan{u: p.parse("hoodie"), filters: Filters{Brand: "northwind", Tags: []string{"Sale"}}, limit: 10, target: 10}
	got, _ := rank(cands, pl)
	if ids(got) != "a" {
		t.Errorf("brand northwind, tag sale: %s, want a", ids(got))
	}
}
