package enrich

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/product"
)

// Every attribute value must be supported by the input: for products built from random
// words (vocabulary words among them), each non-null value appears, folded, in some input
// field, directly or as a vocabulary phrase of that value.
func TestAttributesAreNeverInvented(t *testing.T) {
	pool := []string{"navy", "blue", "leather", "vegan", "not", "waterproof", "cotton", "100%",
		"women's", "men", "kids", "baby", "striped", "zip", "summer", "fall", "classic", "wedding",
		"wash", "cold", "shirt", "dog", "toy", "tumbler", "with", "free", "-", "|", "merino",
		"grün", "rouge", "boot", "lace-up", "organic", "the", "a", "soft", "and", "gift", "for",
		"travel", "breathable", "frost", "noir", "plaid", "slim", "fit", "down", "jacket"}
	rng := rand.New(rand.NewSource(1))
	phrase := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = pool[rng.Intn(len(pool))]
		}
		return strings.Join(w, " ")
	}
	for i := 0; i < 2000; i++ {
		p := &product.Product{
			Title:       sp(phrase(1 + rng.Intn(6))),
			Description: sp(phrase(rng.Intn(30)) + ". " + phrase(rng.Intn(20)) + "."),
			Tags:        []string{phrase(1), phrase(2)},
			Options:     []product.Option{{Name: "Color", Values: []string{phrase(1 + rng.Intn(2))}}},
		}
		if rng.Intn(2) == 0 {
			p.ProductType = sp(phrase(2))
		}
		corpus := fold(strings.Join([]string{*p.Title, *p.Description, strings.Join(p.Tags, " "),
			p.Options[0].Values[0], deref(p.ProductType)}, " "))
		inCorpus := func(s string) bool { return strings.Contains(corpus, fold(s)) }
		supported := func(v *vocab, value string) bool {
			if inCorpus(value) {
				return true
			}
			for _, es := range v.byFirst {
				for _, e := range es {
					if e.value == value && strings.Contains(" "+strings.Join(words(corpus), " ")+" ", " "+strings.Join(e.words, " ")+" ") {
						return true
					}
				}
			}
			return false
		}
		a := Enrich(p, Evidence{}).Attributes
		check := func(name string, ok bool, value string) {
			if !ok {
				t.Fatalf("product %d: %s %q not supported by input %q", i, name, value, corpus)
			}
		}
		if a.Summary != nil {
			check("summary", inCorpus(*a.Summary), *a.Summary)
		}
		for _, f := range a.Features {
			check("feature", inCorpus(f), f)
		}
		if a.CareInstructions != nil {
			for _, s := range sentences(*a.CareInstructions) {
				check("care", inCorpus(s), s)
			}
		}
		if a.Color != nil {
			check("color label", inCorpus(a.Color.MerchantLabel), a.Color.MerchantLabel)
			if a.Color.Family != nil && *a.Color.Family != "multicolor" {
				check("color family", supported(colorFamilies, *a.Color.Family), *a.Color.Family)
			}
		}
		if a.Material != nil {
			check("material label", inCorpus(a.Material.MerchantLabel), a.Material.MerchantLabel)
			if !strings.HasPrefix(a.Material.Primary, "faux ") {
				check("material", supported(materials, a.Material.Primary), a.Material.Primary)
			}
		}
		if a.Gender != nil && *a.Gender != "unisex" {
			check("gender", supported(genders, *a.Gender), *a.Gender)
		}
		if a.AgeGroup != nil {
			check("age", supported(ageGroups, *a.AgeGroup), *a.AgeGroup)
		}
		if a.Pattern != nil {
			check("pattern", supported(patterns, *a.Pattern), *a.Pattern)
		}
		if a.ClosureType != nil {
			check("closure", supported(closures, *a.ClosureType), *a.ClosureType)
		}
		for _, s := range a.Season {
			check("season", s == "autumn" && inCorpus("fall") || supported(seasons, s), s)
		}
		for _, s := range a.Style {
			check("style", supported(styles, s), s)
		}
		for _, s := range a.Occasion {
			check("occasion", supported(occasions, s), s)
		}
		for _, x := range a.AdditionalAttributes {
			check("claim", inCorpus(x.Value) && supported(claims, x.Name), x.Name)
		}
	}
}
