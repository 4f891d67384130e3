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

// Saving a product again writes it only when something changed: an unchanged product
// keeps its id and updated_at, a changed one gets the new data and time, and a listing
// that appeared since is linked either way.
func TestSavingAnUnchangedProductWritesNothing(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store := postgres.NewExtractStore(pool)
	title := "Canvas Tote"
	p := &product.Product{URL: "https://shop.example/tote", Title: &title}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	id, err := store.SaveProduct(ctx, "shop.example", p, t0)
	if err != nil {
		t.Fatal(err)
	}
	read := func() (updated time.Time, listing *string, xmin uint32) {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT updated_at, listing_id::text, xmin::text::bigint FROM products WHERE id = $1`, id).Scan(&updated, &listing, &xmin); err != nil {
			t.Fatal(err)
		}
		return
	}
	_, _, version := read()

	again, err := store.SaveProduct(ctx, "shop.example", p, t0.Add(time.Hour))
	if err != nil || again != id {
		t.Fatalf("same product saved again: %q %v, want %q", again, err, id)
	}
	if updated, _, v := read(); !updated.Equal(t0) || v != version {
		t.Errorf("unchanged product rewritten: updated_at %v (want %v), row version %d (was %d)", updated, t0, v, version)
	}

	// A listing of the same URL appears (a crawl ran): the unchanged product is linked.
	var vendorID int64
	if err := pool.QueryRow(ctx, `SELECT id FROM vendors WHERE host = 'shop.example'`).Scan(&vendorID); err != nil {
		t.Fatal(err)
	}
	var listingID string
	if err := pool.QueryRow(ctx, `INSERT INTO listings (id, vendor_id, ordinal, url) VALUES (gen_random_uuid(), $1, 1, $2) RETURNING id::text`,
		vendorID, p.URL).Scan(&listingID); err != nil {
		t.Fatal(err)
	}
	if _, err := store.SaveProduct(ctx, "shop.example", p, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, listing, _ := read(); listing == nil || *listing != listingID {
		t.Errorf("listing_id %v, want %s", listing, listingID)
	}

	changed := "Canvas Tote Bag"
	p.Title = &changed
	t3 := t0.Add(3 * time.Hour)
	if again, err := store.SaveProduct(ctx, "shop.example", p, t3); err != nil || again != id {
		t.Fatalf("changed product: %q %v, want the same id %q", again, err, id)
	}
	updated, listing, _ := read()
	var stored string
	if err := pool.QueryRow(ctx, `SELECT data->>'title' FROM products WHERE id = $1`, id).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if !updated.Equal(t3) || stored != changed || listing == nil {
		t.Errorf("changed product: updated_at %v title %q listing %v, want %v %q and still linked", updated, stored, listing, t3, changed)
	}
}
