package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/storage/postgres"
)

func TestSimilarProductsAreTheNearestTitlesNeverTheProductItself(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store := postgres.NewExtractStore(pool)
	str := func(s string) *string { return &s }
	save := func(vendor, path, title, brand, typ string) string {
		t.Helper()
		p := &product.Product{URL: "https://" + vendor + path, Title: str(title)}
		if brand != "" {
			p.Brand = str(brand)
		}
		if typ != "" {
			p.ProductType = str(typ)
		}
		id, err := store.SaveProduct(ctx, vendor, p, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	boots := save("a.example", "/boots", "Waterproof Leather Hiking Boots", "Trailhead", "Boots")
	sameBrand := save("a.example", "/boots-2", "Waterproof Leather Hiking Boots", "trailhead", "Boots")
	otherBrand := save("b.example", "/hiking-boots", "Waterproof leather hiking boots", "Summit", "Boots")
	otherType := save("b.example", "/boot-laces", "Leather Hiking Boot Laces", "Summit", "Laces")
	save("c.example", "/mug", "Ceramic Coffee Mug", "Kiln", "Mugs")
	untitled, err := store.SaveProduct(ctx, "c.example", &product.Product{URL: "https://c.example/x"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var many []string
	for _, path := range []string{"/1", "/2", "/3", "/4", "/5", "/6"} {
		many = append(many, save("d.example", path, "Waterproof Leather Hiking Boots", "", ""))
	}

	got, err := store.Similar(ctx, []string{boots, untitled}, 3)
	if err != nil {
		t.Fatal(err)
	}
	near := got[boots]
	if len(near) != 3 {
		t.Fatalf("%d similar products, want the limit 3: %+v", len(near), near)
	}
	for i, s := range near {
		if s.ID == boots {
			t.Errorf("the product is similar to itself: %+v", s)
		}
		if i > 0 && s.Similarity > near[i-1].Similarity {
			t.Errorf("not most similar first: %+v", near)
		}
		if s.Similarity <= 0 || s.Similarity > 1 {
			t.Errorf("similarity %v out of (0, 1]", s.Similarity)
		}
	}
	// The same title (in any case) with the same brand and type, then with the same type,
	// then with neither.
	if near[0].ID != sameBrand || *near[0].Brand != "trailhead" || near[0].URL != "https://a.example/boots-2" || near[0].Similarity != 1 {
		t.Errorf("nearest = %+v, want the same brand's boots at 1", near[0])
	}
	if near[1].ID != otherBrand || near[1].Similarity != 0.9 {
		t.Errorf("second = %+v, want the same type under another brand at 0.9", near[1])
	}
	if near[2].Brand != nil || near[2].Similarity != 0.8 {
		t.Errorf("third = %+v, want unbranded boots at 0.8", near[2])
	}
	if len(got[untitled]) != 0 {
		t.Errorf("a product without a title has similar products: %+v", got[untitled])
	}

	// Without a limit that bites: every boot but the product itself, the laces below
	// them, never the mug.
	all, err := store.Similar(ctx, []string{many[0]}, 100)
	if err != nil {
		t.Fatal(err)
	}
	list := all[many[0]]
	ids := map[string]bool{}
	for _, s := range list {
		ids[s.ID] = true
	}
	if ids[many[0]] || !ids[boots] || !ids[sameBrand] || !ids[otherBrand] || !ids[many[5]] || !ids[otherType] || len(list) != 9 {
		t.Errorf("similar to unbranded boots: %d products %+v, want the 8 other boots and the laces", len(list), list)
	} else if list[8].ID != otherType || list[8].Similarity >= 0.8 {
		t.Errorf("the laces rank %+v, want last", list[8])
	}
}
