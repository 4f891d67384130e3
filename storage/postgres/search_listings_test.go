package postgres_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/storage/postgres"
)

// listItems records items as a crawl of their stores would: each item a listing of its vendor
// (its title, its first price, the collection of its product type), and returns the
// listing ids by item title.
func listItems(t *testing.T, pool *pgxpool.Pool, items ...item) map[string]string {
	t.Helper()
	ctx := context.Background()
	store := postgres.NewCatalogStore(pool)
	byVendor := map[string][]item{}
	for _, it := range items {
		byVendor[it.vendor] = append(byVendor[it.vendor], it)
	}
	for vendor, its := range byVendor {
		collections := map[string]catalog.CollectionInput{}
		var listings []catalog.ListingInput
		for _, it := range its {
			col := catalog.CollectionInput{URL: "https://" + vendor + "/collections/" + strings.ToLower(it.typ), Title: it.typ + "s"}
			collections[col.URL] = col
			l := catalog.ListingInput{URL: it.product().URL, Name: it.title, CollectionURLs: []string{col.URL},
				Images: []catalog.Image{{ID: "1", URL: "https://" + vendor + "/cdn/" + strings.ToLower(it.typ) + ".jpg", Position: 1}}}
			if len(it.prices) > 0 {
				l.Price = &catalog.Price{Currency: "USD", Current: it.prices[0]}
			}
			listings = append(listings, l)
		}
		if err := store.UpsertCollections(ctx, vendor, slices.Collect(maps.Values(collections)), time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := store.UpsertListings(ctx, vendor, listings, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := pool.Query(ctx, `SELECT l.id::text, l.name FROM listings l`)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	var id, name string
	if _, err := pgx.ForEachRow(rows, []any{&id, &name}, func() error { ids[name] = id; return nil }); err != nil {
		t.Fatal(err)
	}
	return ids
}

// meetsHardConstraints judges an item on its whole truth (all its variants, its
// availability, every word of it), whatever the search could see of it.
func (it item) meetsHardConstraints(maxPrice *float64, inStock bool, vendor string, refused []string) string {
	if maxPrice != nil {
		if len(it.prices) == 0 {
			return "unpriced under a price ceiling"
		}
		for _, p := range it.prices {
			if p > *maxPrice {
				return fmt.Sprintf("a variant at $%v over $%v", p, *maxPrice)
			}
		}
	}
	if inStock && !it.available {
		return "sold out"
	}
	if vendor != "" && it.vendor != vendor {
		return "of vendor " + it.vendor
	}
	text := strings.ToLower(it.title + " " + it.desc + " " + strings.Join(it.colors, " ") + " " + strings.Join(it.tags, " "))
	for _, w := range refused {
		if strings.Contains(text, w) {
			return "mentions " + w
		}
	}
	return ""
}

// Property: over random catalogs that a crawl listed and extractions then partly
// replaced, (1) no result breaks a hard constraint of its query, judged on the item's
// whole truth (for a listing, the product the listing does not show); (2) a listing that
// no extraction replaced is found by a query naming it, as a listing; (3) an extracted
// item is only ever a product result, never also its listing.
func TestSearchOverListingsKeepsHardConstraintsAndFindsListings(t *testing.T) {
	nouns := []string{"Boot", "Sneaker", "Hoodie", "Jacket", "Mug", "Tent", "Backpack"}
	colorNames := []string{"Black", "White", "Navy", "Olive", "Red", "Sand"}
	materials := []string{"Leather", "Canvas", "Wool", "Cotton", "Nylon", "Suede"}
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("catalog ", seed), func(t *testing.T) {
			pool := migrated(t)
			ctx := context.Background()
			r := rand.New(rand.NewPCG(seed, 40))
			var items []item
			byTitle := map[string]item{}
			for i := range 120 {
				noun := nouns[r.IntN(len(nouns))]
				var prices []float64
				for range 1 + r.IntN(3) {
					prices = append(prices, float64(5+r.IntN(300)))
				}
				it := item{
					vendor: fmt.Sprintf("shop%d.example", r.IntN(2)),
					// Each title carries a made-up word of its own, for a query to name it.
					title: fmt.Sprintf("%s %s %s", materials[r.IntN(len(materials))], noun, madeUpWord(i)),
					brand: fmt.Sprintf("Brand%d", r.IntN(4)), typ: noun,
					desc:   "Made in " + strings.ToLower(materials[r.IntN(len(materials))]) + ".",
					colors: []string{colorNames[r.IntN(len(colorNames))]}, prices: prices, available: r.IntN(4) != 0,
				}
				items = append(items, it)
				byTitle[it.title] = it
			}
			listingIDs := listItems(t, pool, items...)
			share := 0.1 + 0.5*r.Float64()
			var extracted []item
			for _, it := range items {
				if r.Float64() < share {
					extracted = append(extracted, it)
				}
			}
			productIDs := saveItems(t, pool, extracted...)
			itemOf := map[string]item{} // by the id a hit names
			for title, id := range listingIDs {
				if _, ok := productIDs[title]; !ok {
					itemOf[id] = byTitle[title]
				}
			}
			for title, id := range productIDs {
				itemOf[id] = byTitle[title]
			}
			executions := postgres.NewExecutionStore(pool)
			p := search.NewPipeline(postgres.NewSearchStore(pool), postgres.NewExtractStore(pool), executions,
				execution.NewRunner(executions, execution.RunnerOptions{}), search.PipelineOptions{})

			fromListings := 0
			for round := range 80 {
				var (
					maxPrice *float64
					inStock  bool
					refused  []string
					filters  search.Filters
				)
				target := items[r.IntN(len(items))]
				q := strings.ToLower(target.typ)
				if round%2 == 0 {
					// Name one item, with no constraint a listing cannot show.
					q += " " + strings.ToLower(strings.Fields(target.title)[2])
				} else {
					q = strings.ToLower(colorNames[r.IntN(len(colorNames))]) + " " + q
					if r.IntN(2) == 0 {
						ceiling := float64(20 + r.IntN(250))
						maxPrice = &ceiling
						q += fmt.Sprintf(" under $%.0f", ceiling)
					}
					if r.IntN(3) == 0 {
						c := strings.ToLower(colorNames[r.IntN(len(colorNames))])
						refused = append(refused, c)
						q += ", not " + c
					}
					if r.IntN(3) == 0 {
						inStock = true
						q += ", in stock"
					}
				}
				if r.IntN(4) == 0 {
					filters.Vendor = target.vendor
				}
				out, err := p.Search(ctx, search.Query{Request: search.Request{Query: q, Limit: 20}, Filters: filters})
				if err != nil {
					t.Fatal(err)
				}
				seen := map[string]bool{}
				found := false
				for _, h := range out.Hits {
					it, ok := itemOf[h.ID()]
					switch {
					case !ok && h.ListingID != "":
						t.Fatalf("round %d %q: listing %s of an extracted item, or of none", round, q, h.ListingID)
					case !ok:
						t.Fatalf("round %d %q: unknown product %s", round, q, h.ProductID)
					case seen[it.title]:
						t.Fatalf("round %d %q: %q twice", round, q, it.title)
					}
					seen[it.title] = true
					if why := it.meetsHardConstraints(maxPrice, inStock, filters.Vendor, refused); why != "" {
						t.Fatalf("round %d %q (vendor %q): %q (listing: %v) breaks a hard constraint: %s", round, q, filters.Vendor, it.title, h.ListingID != "", why)
					}
					if h.ListingID != "" {
						fromListings++
					}
					found = found || it.title == target.title
				}
				if round%2 == 0 && !found {
					_, wasExtracted := productIDs[target.title]
					t.Fatalf("round %d %q: %q (extracted: %v) is not found", round, q, target.title, wasExtracted)
				}
			}
			if fromListings == 0 {
				t.Fatal("no listing among the results: the property was hardly exercised")
			}
		})
	}
}

// madeUpWord is a word of no language, different for each i, that Postgres' English
// stemmer leaves whole.
func madeUpWord(i int) string {
	consonants, vowels := "bdfgklmnprtvz", "aeiou"
	w := []byte{'q'}
	for n := i + 1; n > 0; n /= len(consonants) * len(vowels) {
		k := n % (len(consonants) * len(vowels))
		w = append(w, consonants[k%len(consonants)], vowels[k/len(consonants)])
	}
	return string(append(w, 'x'))
}

// An extraction saved after a search replaces its listing hits: the stored hit is served as
// the product, and a product and its listing are never both results.
func TestExtractionReplacesAListingHit(t *testing.T) {
	rig := newSearchRig(t, nil, 100)
	ctx := context.Background()
	boot := item{vendor: "shop.example", title: "Ridge Boot", typ: "Boot", prices: []float64{80, 95}, available: true, desc: "Waxed canvas."}
	listed := item{vendor: "shop.example", title: "Harbor Boot", typ: "Boot", prices: []float64{70}, available: true}
	listItems(t, rig.pool, boot, listed)
	started, err := rig.svc.Start(ctx, rig.org, search.Request{Query: "boots"})
	if err != nil {
		t.Fatal(err)
	}
	if err := rig.pipeline.Run(ctx, started.ExecutionID); err != nil {
		t.Fatal(err)
	}
	sources := func() map[string]search.Source {
		t.Helper()
		res, err := rig.svc.Results(ctx, started.ExecutionID, page.Request{Number: 1, Size: 10})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]search.Source{}
		for _, h := range res.Items {
			title := *h.Product.Product.Title
			if _, dup := out[title]; dup {
				t.Fatalf("%q twice", title)
			}
			out[title] = h.Source
		}
		return out
	}
	if got := sources(); got["Ridge Boot"] != search.SourceListing || got["Harbor Boot"] != search.SourceListing {
		t.Fatalf("before any extraction, results %v, want both boots from their listings", got)
	}
	res, _ := rig.svc.Results(ctx, started.ExecutionID, page.Request{Number: 1, Size: 10})
	for _, h := range res.Items {
		p := h.Product.Product
		if p.Price == nil || p.Price.Currency != "USD" || len(p.Images) != 1 || p.Description != nil || p.Variants != nil || p.IsAvailable != nil {
			t.Errorf("the product built from listing %q = %+v: want its price and image, nothing it does not show", *p.Title, p)
		}
	}

	ids := saveItems(t, rig.pool, boot)
	got := sources()
	if got["Ridge Boot"] != search.SourceExtraction || got["Harbor Boot"] != search.SourceListing {
		t.Fatalf("after extracting the Ridge Boot, results %v, want it extracted and the other listed", got)
	}
	res, _ = rig.svc.Results(ctx, started.ExecutionID, page.Request{Number: 1, Size: 10})
	for _, h := range res.Items {
		if *h.Product.Product.Title == "Ridge Boot" && (h.Product.ID != ids["Ridge Boot"] || h.Product.Product.Description == nil) {
			t.Errorf("the Ridge Boot is served as %+v, want the extracted product %s", h.Product, ids["Ridge Boot"])
		}
	}

	// A new search finds the extracted boot once, as a product.
	ans, _, err := rig.svc.Search(ctx, rig.org, search.Request{Query: "boots"})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, h := range ans.Hits {
		count[*h.Product.Product.Title]++
		if *h.Product.Product.Title == "Ridge Boot" && h.Source != search.SourceExtraction {
			t.Errorf("the extracted boot comes from its %s", h.Source)
		}
	}
	if count["Ridge Boot"] != 1 || count["Harbor Boot"] != 1 {
		t.Errorf("results %v, want each boot once", count)
	}
}
