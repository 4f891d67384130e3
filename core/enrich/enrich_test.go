package enrich

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/product"
)

func sp(s string) *string { return &s }

func TestPlainProductWithoutEvidenceHasNoAttributes(t *testing.T) {
	p := &product.Product{Title: sp("Zorblax 3000")}
	r := Enrich(p, Evidence{})
	want := emptyAttributes()
	if !reflect.DeepEqual(r.Attributes, want) {
		t.Fatalf("attributes = %+v, want all null/empty", r.Attributes)
	}
	if r.ProductType != nil || r.CategoryID != nil || r.CategoryPath != nil {
		t.Fatalf("product type/category = %v %v %v, want nil", r.ProductType, r.CategoryID, r.CategoryPath)
	}
	b, _ := json.Marshal(r.Attributes)
	for _, k := range []string{"summary", "features", "gender", "age_group", "color", "material", "pattern",
		"closure_type", "care_instructions", "season", "style", "occasion", "additional_attributes"} {
		if !strings.Contains(string(b), `"`+k+`":`) {
			t.Errorf("json lacks key %q: %s", k, b)
		}
	}
}

func TestAttributes(t *testing.T) {
	cases := []struct {
		name  string
		p     product.Product
		props []Property
		check func(t *testing.T, a Attributes)
	}{
		{
			name: "womens merino sweater",
			p: product.Product{
				Title:           sp("Women's Merino Crewneck Sweater - Heather Grey"),
				DescriptionHTML: sp("<p>A soft everyday layer knitted from 100% merino wool. Relaxed fit.</p><ul><li>Ribbed cuffs and hem</li><li>Naturally breathable</li></ul><p>Machine wash cold, lay flat to dry. Do not bleach.</p>"),
				Tags:            []string{"Fall", "Knitwear"},
			},
			check: func(t *testing.T, a Attributes) {
				eq(t, "gender", a.Gender, "female")
				eq(t, "age_group", a.AgeGroup, "adult")
				if a.Color == nil || a.Color.MerchantLabel != "Heather Grey" || a.Color.Family == nil || *a.Color.Family != "grey" {
					t.Errorf("color = %+v, want Heather Grey / grey", a.Color)
				}
				if a.Material == nil || a.Material.Primary != "merino wool" || a.Material.MerchantLabel != "100% merino wool" {
					t.Errorf("material = %+v", a.Material)
				}
				if !reflect.DeepEqual(a.Features, []string{"Ribbed cuffs and hem", "Naturally breathable"}) {
					t.Errorf("features = %q", a.Features)
				}
				eq(t, "care", a.CareInstructions, "Machine wash cold, lay flat to dry. Do not bleach.")
				eq(t, "summary", a.Summary, "A soft everyday layer knitted from 100% merino wool. Relaxed fit.")
				has(t, "season", a.Season, "autumn")
				has(t, "style", a.Style, "relaxed fit")
				has(t, "occasion", a.Occasion, "everyday")
			},
		},
		{
			name: "vegan leather is not leather",
			p: product.Product{
				Title:       sp("Vegan Leather Tote Bag"),
				Description: sp("Made from vegan leather with a magnetic closure. Leather-free and cruelty-free."),
			},
			check: func(t *testing.T, a Attributes) {
				if a.Material == nil || a.Material.Primary != "faux leather" {
					t.Errorf("material = %+v, want faux leather", a.Material)
				}
				eq(t, "closure", a.ClosureType, "magnetic")
			},
		},
		{
			name: "leather-free says nothing about leather",
			p:    product.Product{Title: sp("Canvas Sneaker"), Description: sp("Completely leather-free. Not made of leather.")},
			check: func(t *testing.T, a Attributes) {
				if a.Material == nil || a.Material.Primary != "canvas" {
					t.Errorf("material = %+v, want canvas", a.Material)
				}
			},
		},
		{
			name: "womens is not mens",
			p:    product.Product{Title: sp("Womens Running Tights"), Tags: []string{"women"}},
			check: func(t *testing.T, a Attributes) {
				eq(t, "gender", a.Gender, "female")
			},
		},
		{
			name: "men and women tags make unisex",
			p:    product.Product{Title: sp("Beanie"), Tags: []string{"Men", "Women"}},
			check: func(t *testing.T, a Attributes) {
				eq(t, "gender", a.Gender, "unisex")
			},
		},
		{
			name: "not waterproof is no claim",
			p:    product.Product{Title: sp("Trail Jacket"), Description: sp("Water-resistant but not waterproof. Windproof shell.")},
			check: func(t *testing.T, a Attributes) {
				names := map[string]bool{}
				for _, x := range a.AdditionalAttributes {
					names[x.Name] = true
				}
				if names["waterproof"] {
					t.Errorf("claims %v include waterproof", a.AdditionalAttributes)
				}
				if !names["water-resistant"] || !names["windproof"] {
					t.Errorf("claims %v lack water-resistant/windproof", a.AdditionalAttributes)
				}
			},
		},
		{
			name: "several colors give no single color",
			p:    product.Product{Title: sp("Tee"), Options: []product.Option{{Name: "Color", Values: []string{"Black", "Navy"}}}},
			check: func(t *testing.T, a Attributes) {
				if a.Color != nil {
					t.Errorf("color = %+v, want nil", a.Color)
				}
			},
		},
		{
			name: "unknown color word keeps the label without family",
			p:    product.Product{Title: sp("Tumbler"), Options: []product.Option{{Name: "Color", Values: []string{"Frost"}}}},
			check: func(t *testing.T, a Attributes) {
				if a.Color == nil || a.Color.MerchantLabel != "Frost" || a.Color.Family != nil {
					t.Errorf("color = %+v, want Frost without family", a.Color)
				}
			},
		},
		{
			name: "french and german color words",
			p:    product.Product{Title: sp("Pull marin - Bleu Foncé")},
			check: func(t *testing.T, a Attributes) {
				if a.Color == nil || a.Color.Family == nil || *a.Color.Family != "blue" {
					t.Errorf("color = %+v, want blue", a.Color)
				}
			},
		},
		{
			name: "baby blue is a color, not an age",
			p:    product.Product{Title: sp("Cotton Hoodie - Baby Blue")},
			check: func(t *testing.T, a Attributes) {
				if a.AgeGroup != nil {
					t.Errorf("age_group = %q, want nil", *a.AgeGroup)
				}
			},
		},
		{
			name: "snap on a kettle is not a closure",
			p:    product.Product{Title: sp("Insulated Tumbler"), Description: sp("Just flip up to drink, then snap shut.")},
			check: func(t *testing.T, a Attributes) {
				if a.ClosureType != nil {
					t.Errorf("closure = %q, want nil", *a.ClosureType)
				}
			},
		},
		{
			name: "cast iron is not an ironing instruction",
			p:    product.Product{Title: sp("Cast Iron Skillet"), Description: sp("Pre-seasoned cast iron skillet. Hand wash and dry immediately.")},
			check: func(t *testing.T, a Attributes) {
				eq(t, "care", a.CareInstructions, "Hand wash and dry immediately.")
				if a.Material == nil || a.Material.Primary != "cast iron" {
					t.Errorf("material = %+v", a.Material)
				}
			},
		},
		{
			name:  "json-ld properties win and the rest are kept",
			p:     product.Product{Title: sp("Trail Runner")},
			props: []Property{{Name: "color", Value: "Olive"}, {Name: "material", Value: "Recycled polyester mesh"}, {Name: "Drop", Value: "8 mm"}},
			check: func(t *testing.T, a Attributes) {
				if a.Color == nil || *a.Color.Family != "green" {
					t.Errorf("color = %+v", a.Color)
				}
				if a.Material == nil || a.Material.Primary != "polyester" || a.Material.MerchantLabel != "Recycled polyester mesh" {
					t.Errorf("material = %+v", a.Material)
				}
				if len(a.AdditionalAttributes) == 0 || a.AdditionalAttributes[0] != (AdditionalAttribute{"Drop", "8 mm"}) {
					t.Errorf("additional = %+v", a.AdditionalAttributes)
				}
			},
		},
		{
			name: "fall protection is not a season",
			p:    product.Product{Title: sp("Fall Protection Harness"), Tags: []string{"Fall Protection"}},
			check: func(t *testing.T, a Attributes) {
				if len(a.Season) != 0 {
					t.Errorf("season = %q, want none", a.Season)
				}
			},
		},
		{
			name: "long first sentence is cut at a word boundary",
			p:    product.Product{Description: sp(strings.Repeat("word ", 60) + "end.")},
			check: func(t *testing.T, a Attributes) {
				if a.Summary == nil || len(*a.Summary) > 200 || strings.HasSuffix(*a.Summary, " ") || strings.HasSuffix(*a.Summary, "wor") {
					t.Errorf("summary = %q", deref(a.Summary))
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Enrich(&c.p, Evidence{Properties: c.props})
			c.check(t, r.Attributes)
		})
	}
}

func TestProductTypeAndCategory(t *testing.T) {
	cases := []struct {
		name             string
		p                product.Product
		wantType, wantID string
	}{
		{"store product type wins", product.Product{ProductType: sp("Hoodies"), Title: sp("Logo Hoodie")}, "Hoodies", "212"},
		{"placeholder type falls to breadcrumb", product.Product{ProductType: sp("normal"), Title: sp("Flip Straw Tumbler | 20 OZ"),
			Breadcrumbs: []product.Breadcrumb{{Name: "Home"}, {Name: "Drinkware"}, {Name: "Flip Straw Tumbler | 20 OZ"}}}, "Drinkware", "2951"},
		{"category leaf when nothing else", product.Product{Title: sp("Merino Hiking Socks")}, "Socks", "209"},
		{"head noun before with", product.Product{Title: sp("Backpack with Laptop Sleeve")}, "Backpacks", "100"},
		{"head noun is rightmost", product.Product{Title: sp("Top Grain Leather Wallet")}, "Wallets & Money Clips", "2668"},
		{"dog toy is not a toy", product.Product{Title: sp("Squeaky Dog Toy")}, "Dog Toys", "5010"},
		{"tags refine within the anchor", product.Product{ProductType: sp("Drinkware"), Title: sp("Adventure Quencher"), Tags: []string{"Tumblers", "Camping"}}, "Drinkware", "2951"},
		{"tags do not move across branches", product.Product{ProductType: sp("Dresses"), Tags: []string{"Dog Toys"}}, "Dresses", "2271"},
		{"no keyword no category", product.Product{Title: sp("Zorblax 3000")}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Enrich(&c.p, Evidence{})
			if got := deref(r.ProductType); got != c.wantType {
				t.Errorf("product_type = %q, want %q", got, c.wantType)
			}
			if got := deref(r.CategoryID); got != c.wantID {
				t.Errorf("category = %q (%s), want %q", got, deref(r.CategoryPath), c.wantID)
			}
		})
	}
}

func TestTaxonomyIsWellFormed(t *testing.T) {
	ids := map[string]bool{}
	paths := map[string]bool{}
	for _, n := range tax.nodes {
		if ids[n.ID] {
			t.Errorf("duplicate id %s", n.ID)
		}
		ids[n.ID] = true
		paths[n.Path] = true
	}
	if len(tax.nodes) < 300 {
		t.Errorf("%d nodes, want a few hundred", len(tax.nodes))
	}
	for _, top := range []string{"Apparel & Accessories", "Animals & Pet Supplies", "Baby & Toddler", "Electronics",
		"Food, Beverages & Tobacco", "Furniture", "Health & Beauty", "Home & Garden", "Luggage & Bags",
		"Sporting Goods", "Toys & Games"} {
		if !paths[top] {
			t.Errorf("taxonomy lacks %q", top)
		}
	}
}

func TestEnrichIsDeterministic(t *testing.T) {
	p := &product.Product{
		Title:       sp("Men's Leather Chelsea Boot - Dark Brown"),
		Description: sp("Classic pull-on boot in full-grain leather. Waterproof. Wipe clean with a damp cloth."),
		Tags:        []string{"Boots", "Winter", "Men", "Casual"},
		Options:     []product.Option{{Name: "Size", Values: []string{"8", "9", "10"}}},
	}
	first, _ := json.Marshal(Enrich(p, Evidence{}))
	for i := 0; i < 50; i++ {
		again, _ := json.Marshal(Enrich(p, Evidence{}))
		if string(again) != string(first) {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, again)
		}
	}
}

func eq(t *testing.T, name string, got *string, want string) {
	t.Helper()
	if got == nil || *got != want {
		t.Errorf("%s = %q, want %q", name, deref(got), want)
	}
}

func has(t *testing.T, name string, got []string, want string) {
	t.Helper()
	if !contains(got, want) {
		t.Errorf("%s = %q, want it to contain %q", name, got, want)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
