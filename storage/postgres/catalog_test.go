package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// TestUpsertListingsKeepsOrdinalsCountsAndLinks pins down what a crawl relies on when it
// writes pages of listings: new listings are numbered in the order they came, a listing
// written again is refreshed in place (first seen kept), a listing repeated within one
// write is one listing linked to each of its collections, and the counts follow.
func TestUpsertListingsKeepsOrdinalsCountsAndLinks(t *testing.T) {
	ctx := context.Background()
	store, shoes, sale := shoesAndSale(t)
	listing := func(handle string, price float64, collections ...string) catalog.ListingInput {
		width := 640
		return catalog.ListingInput{URL: "https://shop.example/products/" + handle, Name: strings.ToUpper(handle),
			Price:          &catalog.Price{Currency: "EUR", Current: price},
			Images:         []catalog.Image{{URL: "https://cdn.example/" + handle + ".jpg", Width: &width, Position: 1}},
			CollectionURLs: collections}
	}
	first := []catalog.ListingInput{
		listing("boot", 89.9, shoes),
		listing("clog", 19.99, shoes),
		listing("boot", 79.9, sale), // the same product found again in another collection
	}
	if err := store.UpsertListings(ctx, vendor, first, t0); err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(time.Hour)
	second := []catalog.ListingInput{
		listing("clog", 17.5, shoes, sale),
		listing("sandal", 25, sale),
		listing("sandal", 25, sale),
	}
	if err := store.UpsertListings(ctx, vendor, second, t1); err != nil {
		t.Fatal(err)
	}

	all, total, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, Page: page.Request{Number: 1, Size: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if got := describe(all); total != 3 || got != "BOOT 79.9 EUR first 0h updated 0h, CLOG 17.5 EUR first 0h updated 1h, SANDAL 25 EUR first 1h updated 1h" {
		t.Errorf("vendor listings (%d): %s", total, got)
	}
	if len(all) > 0 {
		var images []catalog.Image
		if err := json.Unmarshal(all[0].Images, &images); err != nil || len(images) != 1 || *images[0].Width != 640 {
			t.Errorf("images not kept: %s (%v)", all[0].Images, err)
		}
	}
	for _, c := range []struct {
		url  string
		want string
	}{
		{shoes, "BOOT, CLOG"},
		{sale, "BOOT, CLOG, SANDAL"},
	} {
		got, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, CollectionURLs: []string{c.url}, Page: page.Request{Number: 1, Size: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if names := names(got); names != c.want || n != strings.Count(c.want, ",")+1 {
			t.Errorf("%s: %s (count %d), want %s", c.url, names, n, c.want)
		}
	}
	vendors, _, err := store.Vendors(ctx, page.Request{Number: 1, Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(vendors) != 1 || vendors[0].ListingsCount != 3 || vendors[0].CollectionsCount != 2 {
		t.Errorf("vendor counts: %+v", vendors)
	}
}

// An unchanged listing is linked to its new collection and otherwise left as stored: its
// fields and last update stay those of the write that stored them.
func TestUpsertListingsLinksAnUnchangedListingOnly(t *testing.T) {
	ctx := context.Background()
	store, shoes, sale := shoesAndSale(t)
	boot := catalog.ListingInput{URL: "https://shop.example/products/boot", Name: "BOOT",
		Price: &catalog.Price{Currency: "EUR", Current: 89.9}, CollectionURLs: []string{shoes}}
	if err := store.UpsertListings(ctx, vendor, []catalog.ListingInput{boot}, t0); err != nil {
		t.Fatal(err)
	}
	again := boot
	again.Name, again.CollectionURLs, again.Unchanged = "IGNORED", []string{sale}, true
	if err := store.UpsertListings(ctx, vendor, []catalog.ListingInput{again}, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{shoes, sale} {
		got, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, CollectionURLs: []string{c}, Page: page.Request{Number: 1, Size: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if d := describe(got); n != 1 || d != "BOOT 89.9 EUR first 0h updated 0h" {
			t.Errorf("%s: %s (count %d), want the boot as first written", c, d, n)
		}
	}
}

// An unchanged listing that is not in the catalog cannot be written (its fields are not
// read): the write is refused whole, naming it.
func TestUpsertListingsOfAnUnchangedListingNotInTheCatalogWritesNothing(t *testing.T) {
	ctx := context.Background()
	store, shoes, _ := shoesAndSale(t)
	boot := catalog.ListingInput{URL: "https://shop.example/products/boot", Name: "BOOT", CollectionURLs: []string{shoes}}
	clog := catalog.ListingInput{URL: "https://shop.example/products/clog", Name: "CLOG", CollectionURLs: []string{shoes}, Unchanged: true}
	err := store.UpsertListings(ctx, vendor, []catalog.ListingInput{boot, clog}, t0)
	if err == nil || !strings.Contains(err.Error(), "products/clog is not in the catalog") {
		t.Fatalf("err = %v, want the unchanged listing named", err)
	}
	if got, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, Page: page.Request{Number: 1, Size: 10}}); err != nil || n != 0 {
		t.Errorf("%d listings written (%s, %v), want none", n, names(got), err)
	}
	if got, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, CollectionURLs: []string{shoes}, Page: page.Request{Number: 1, Size: 10}}); err != nil || n != 0 {
		t.Errorf("%d listings linked to shoes (%s, %v), want none", n, names(got), err)
	}
}

// A listing naming one collection twice is linked to it once.
func TestUpsertListingsLinksOncePerCollection(t *testing.T) {
	ctx := context.Background()
	store, shoes, _ := shoesAndSale(t)
	boot := catalog.ListingInput{URL: "https://shop.example/products/boot", Name: "BOOT", CollectionURLs: []string{shoes, shoes}}
	if err := store.UpsertListings(ctx, vendor, []catalog.ListingInput{boot, boot}, t0); err != nil {
		t.Fatal(err)
	}
	if got, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, CollectionURLs: []string{shoes}, Page: page.Request{Number: 1, Size: 10}}); err != nil || n != 1 || names(got) != "BOOT" {
		t.Errorf("shoes: %s (count %d, %v), want the boot once", names(got), n, err)
	}
}

// TestUpsertListingsIntoAnUnknownCollectionWritesNothing: the write is refused whole.
func TestUpsertListingsIntoAnUnknownCollectionWritesNothing(t *testing.T) {
	ctx := context.Background()
	store := postgres.NewCatalogStore(migrated(t))
	const vendor = "shop.example"
	known := "https://shop.example/collections/known"
	if err := store.UpsertCollections(ctx, vendor, []catalog.CollectionInput{{URL: known}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	err := store.UpsertListings(ctx, vendor, []catalog.ListingInput{
		{URL: "https://shop.example/products/a", CollectionURLs: []string{known}},
		{URL: "https://shop.example/products/b", CollectionURLs: []string{"https://shop.example/collections/unknown"}},
	}, time.Now())
	if err == nil || !strings.Contains(err.Error(), "collections/unknown is not in the catalog") {
		t.Fatalf("err = %v, want the unknown collection named", err)
	}
	if _, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, Page: page.Request{Number: 1, Size: 10}}); err != nil || n != 0 {
		t.Errorf("%d listings written (%v), want none", n, err)
	}
}

// TestUpsertListingsLinksRowsOfTheirOwnVendor checks what no foreign key checks any more
// (migration 00010): after writes of two vendors, new and repeated listings, each in one
// collection or two, every listing belongs to an existing vendor and every link joins a
// listing and a collection of one same vendor.
func TestUpsertListingsLinksRowsOfTheirOwnVendor(t *testing.T) {
	ctx := context.Background()
	pool := migrated(t)
	store := postgres.NewCatalogStore(pool)
	for round := range 2 {
		for _, host := range []string{"a.example", "b.example"} {
			collections := []catalog.CollectionInput{{URL: "https://" + host + "/collections/x"}, {URL: "https://" + host + "/collections/y"}}
			if err := store.UpsertCollections(ctx, host, collections, t0); err != nil {
				t.Fatal(err)
			}
			var listings []catalog.ListingInput
			for i := range 5 {
				in := []string{collections[i%2].URL}
				if i%3 == round {
					in = append(in, collections[(i+1)%2].URL)
				}
				listings = append(listings, catalog.ListingInput{URL: fmt.Sprintf("https://%s/products/p%d", host, i+round*3), CollectionURLs: in})
			}
			if err := store.UpsertListings(ctx, host, listings, t0); err != nil {
				t.Fatal(err)
			}
		}
	}
	var listings, links, strays int
	err := pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM listings),
			(SELECT count(*) FROM collection_listings),
			(SELECT count(*) FROM listings l WHERE NOT EXISTS (SELECT 1 FROM vendors v WHERE v.id = l.vendor_id))
			+ (SELECT count(*) FROM collection_listings cl WHERE NOT EXISTS (
				SELECT 1 FROM listings l JOIN collections c ON c.vendor_id = l.vendor_id
				WHERE l.id = cl.listing_id AND c.id = cl.collection_id))`).Scan(&listings, &links, &strays)
	if err != nil {
		t.Fatal(err)
	}
	// Per vendor: products p0..p7 (p3 and p4 written in both rounds) in 12 distinct
	// (listing, collection) pairs.
	if listings != 2*8 || links != 2*12 || strays != 0 {
		t.Errorf("%d listings, %d links, %d stray rows; want 16, 24, 0", listings, links, strays)
	}
}

const vendor = "shop.example"

// t0 is when shoesAndSale's collections were found.
var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestUpsertListingsKeepsPrices writes each shape a listing's price takes (with a former
// price, without a currency, none at all) and reads them back as they were.
func TestUpsertListingsKeepsPrices(t *testing.T) {
	ctx := context.Background()
	store, shoes, _ := shoesAndSale(t)
	was := 120.0
	in := []catalog.ListingInput{
		{URL: "https://shop.example/products/marked-down", Price: &catalog.Price{Currency: "EUR", Current: 89.5, CompareAt: &was}},
		{URL: "https://shop.example/products/no-currency", Price: &catalog.Price{Current: 12}},
		{URL: "https://shop.example/products/unpriced"},
	}
	for i := range in {
		in[i].CollectionURLs = []string{shoes}
	}
	if err := store.UpsertListings(ctx, vendor, in, t0); err != nil {
		t.Fatal(err)
	}
	got, _, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, Page: page.Request{Number: 1, Size: 10}})
	if err != nil {
		t.Fatal(err)
	}
	price := func(p *catalog.Price) string {
		switch {
		case p == nil:
			return "none"
		case p.CompareAt == nil:
			return fmt.Sprintf("%q %v", p.Currency, p.Current)
		}
		return fmt.Sprintf("%q %v was %v", p.Currency, p.Current, *p.CompareAt)
	}
	var prices []string
	for _, l := range got {
		prices = append(prices, price(l.Price))
	}
	if want := []string{`"EUR" 89.5 was 120`, `"" 12`, "none"}; !slices.Equal(prices, want) {
		t.Errorf("prices %q, want %q", prices, want)
	}
}

// TestUpsertListingsKeepsPageURLs writes listings with and without a page URL of their own
// (the site's form of the URL), refreshes one to lose it and one to gain it, and reads back
// what was last written, in both the vendor's pages and a collection's.
func TestUpsertListingsKeepsPageURLs(t *testing.T) {
	ctx := context.Background()
	store, shoes, _ := shoesAndSale(t)
	write := func(at time.Time, boot, clog string) {
		t.Helper()
		in := []catalog.ListingInput{
			{URL: "https://shop.example/products/boot", PageURL: boot, CollectionURLs: []string{shoes}},
			{URL: "https://shop.example/products/clog", PageURL: clog, CollectionURLs: []string{shoes}},
		}
		if err := store.UpsertListings(ctx, vendor, in, at); err != nil {
			t.Fatal(err)
		}
	}
	read := func() (vendorPages, collectionPages []string) {
		t.Helper()
		for _, q := range []catalog.ListingQuery{{Vendor: vendor}, {Vendor: vendor, CollectionURLs: []string{shoes}}} {
			q.Page = page.Request{Number: 1, Size: 10}
			got, _, err := store.Listings(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var pages []string
			for _, l := range got {
				pages = append(pages, l.PageURL)
			}
			if q.CollectionURLs == nil {
				vendorPages = pages
			} else {
				collectionPages = pages
			}
		}
		return vendorPages, collectionPages
	}
	write(t0, "https://www.shop.example/products/boot/", "")
	want := []string{"https://www.shop.example/products/boot/", ""}
	if v, c := read(); !slices.Equal(v, want) || !slices.Equal(c, want) {
		t.Errorf("page URLs %q and %q, want %q", v, c, want)
	}
	write(t0.Add(time.Hour), "", "https://www.shop.example/products/clog/")
	want = []string{"", "https://www.shop.example/products/clog/"}
	if v, c := read(); !slices.Equal(v, want) || !slices.Equal(c, want) {
		t.Errorf("after a refresh: page URLs %q and %q, want %q", v, c, want)
	}
}

// TestUpsertListingsLooksListingsUpByURL writes two pages of new listings to a fresh
// catalog on one connection, which plans the write once, while the listings table is
// empty: the second write's lookups of its listings go by URL, never through the vendor's
// other listings (a plan that took the ordinal key read 500 listings for each of 500).
func TestUpsertListingsLooksListingsUpByURL(t *testing.T) {
	shoes := "https://shop.example/collections/shoes"
	pool, store := oneConnectionCatalog(t, shoes)
	writeNumbered(t, store, 0, shoes)
	before := readsBesides(t, pool, "listings", "listings_url_vendor_id_key")
	writeNumbered(t, store, 500, shoes)
	if read := readsBesides(t, pool, "listings", "listings_url_vendor_id_key") - before; read > 0 {
		t.Errorf("writing 500 listings beside 500 read %d listings through other keys than the URL's, want none", read)
	}
}

// oneConnectionCatalog is a fresh catalog holding vendor's collections, on a pool of one
// connection: the statistics a write leaves are flushed by the backend that made them, and
// the write's plan is the one that connection made first (see tableStat).
func oneConnectionCatalog(t *testing.T, collections ...string) (*pgxpool.Pool, *postgres.CatalogStore) {
	t.Helper()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{MaxConns: 1})
	store := postgres.NewCatalogStore(pool)
	inputs := make([]catalog.CollectionInput, len(collections))
	for i, c := range collections {
		inputs[i] = catalog.CollectionInput{URL: c}
	}
	if err := store.UpsertCollections(context.Background(), vendor, inputs, t0); err != nil {
		t.Fatal(err)
	}
	return pool, store
}

// writeNumbered writes listings p{from} to p{from+499} of vendor, in collection.
func writeNumbered(t *testing.T, store *postgres.CatalogStore, from int, collection string) {
	t.Helper()
	listings := make([]catalog.ListingInput, 500)
	for i := range listings {
		listings[i] = catalog.ListingInput{URL: fmt.Sprintf("https://shop.example/products/p%d", from+i), CollectionURLs: []string{collection}}
	}
	if err := store.UpsertListings(context.Background(), vendor, listings, t0); err != nil {
		t.Fatal(err)
	}
}

// readsBesides is how many entries of table's indexes other than key have been read, as of
// now (see tableStat).
func readsBesides(t *testing.T, pool *pgxpool.Pool, table, key string) int64 {
	t.Helper()
	return tableStat(t, pool, fmt.Sprintf(`SELECT coalesce(sum(idx_tup_read), 0)::bigint FROM pg_stat_user_indexes
		WHERE relname = '%s' AND indexrelname <> '%s'`, table, key))
}

// tableStat answers query, a count from the statistics views, as of now: the one
// connection's pending statistics flushed and its snapshot dropped first. The pool must
// have one connection, the backend that made the statistics.
func tableStat(t *testing.T, pool *pgxpool.Pool, query string) int64 {
	t.Helper()
	ctx := context.Background()
	for _, sql := range []string{"SELECT pg_stat_force_next_flush()", "SELECT pg_stat_clear_snapshot()"} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	var n int64
	if err := pool.QueryRow(ctx, query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestUpsertListingsLooksLinksUpByListing writes 500 listings to each of two collections
// of a fresh catalog, then the second's to the first too, on one connection, which plans
// the write once: the last write finds each listing's links by listing, never through the
// first collection's 500 links.
func TestUpsertListingsLooksLinksUpByListing(t *testing.T) {
	ctx := context.Background()
	shoes, sale := "https://shop.example/collections/shoes", "https://shop.example/collections/sale"
	pool, store := oneConnectionCatalog(t, shoes, sale)
	writeNumbered(t, store, 0, sale)
	writeNumbered(t, store, 500, shoes)
	before := readsBesides(t, pool, "collection_listings", "collection_listings_pkey")
	writeNumbered(t, store, 500, sale)
	if read := readsBesides(t, pool, "collection_listings", "collection_listings_pkey") - before; read > 0 {
		t.Errorf("linking 500 listings to a collection of 500 read %d links through the collections' key, want none", read)
	}
	for c, want := range map[string]int{shoes: 500, sale: 1000} {
		if _, n, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, CollectionURLs: []string{c}, Page: page.Request{Number: 1, Size: 1}}); err != nil || n != want {
			t.Errorf("%s: %d listings (%v), want %d", c, n, err, want)
		}
	}
}

// shoesAndSale returns a catalog holding the collections shoes and sale of vendor.
func shoesAndSale(t *testing.T) (store *postgres.CatalogStore, shoes, sale string) {
	store = postgres.NewCatalogStore(migrated(t))
	shoes, sale = "https://shop.example/collections/shoes", "https://shop.example/collections/sale"
	if err := store.UpsertCollections(context.Background(), vendor, []catalog.CollectionInput{{URL: shoes}, {URL: sale}}, t0); err != nil {
		t.Fatal(err)
	}
	return store, shoes, sale
}

func names(ls []catalog.Listing) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Name
	}
	return strings.Join(out, ", ")
}

func describe(ls []catalog.Listing) string {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%s %v %s first %.0fh updated %.0fh", l.Name, l.Price.Current, l.Price.Currency,
			l.FirstSeen.Sub(t0).Hours(), l.LastUpdated.Sub(t0).Hours())
	}
	return strings.Join(out, ", ")
}

// BenchmarkUpsertListings writes a crawl's worth of pages: 250 new listings a page, each
// linked to its collection, and every fifth also to a second one. µs/listing is the wall
// time, Postgres's work included; cpu-µs/listing is this process's CPU, the server's side
// of a write (encoding the parameters, pgx, garbage collection).
func BenchmarkUpsertListings(b *testing.B) {
	ctx := context.Background()
	store := postgres.NewCatalogStore(migrated(b))
	const vendor = "shop.example"
	collections := make([]catalog.CollectionInput, 10)
	for i := range collections {
		collections[i].URL = fmt.Sprintf("https://shop.example/collections/c%d", i)
	}
	if err := store.UpsertCollections(ctx, vendor, collections, time.Now()); err != nil {
		b.Fatal(err)
	}
	const perPage = 250
	write := func(i int) []catalog.ListingInput {
		p := make([]catalog.ListingInput, perPage)
		for k := range p {
			n := i*perPage + k
			p[k] = catalog.ListingInput{URL: fmt.Sprintf("https://shop.example/products/p%d", n), Name: fmt.Sprintf("Product %d", n),
				Price:          &catalog.Price{Currency: "USD", Current: float64(n%500) + 0.99},
				Images:         []catalog.Image{{URL: fmt.Sprintf("https://cdn.example/p%d.jpg", n), Position: 1}},
				CollectionURLs: []string{collections[i%10].URL}}
			if k%5 == 0 {
				p[k].CollectionURLs = append(p[k].CollectionURLs, collections[(i+1)%10].URL)
			}
		}
		return p
	}
	pages := make([][]catalog.ListingInput, b.N)
	for i := range pages {
		pages[i] = write(i)
	}
	cpu0 := storagetest.ProcessCPU()
	b.ResetTimer()
	for i := range b.N {
		if err := store.UpsertListings(ctx, vendor, pages[i], time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	listings := float64(b.N * perPage)
	b.ReportMetric(float64(b.Elapsed().Microseconds())/listings, "µs/listing")
	b.ReportMetric(float64((storagetest.ProcessCPU()-cpu0).Microseconds())/listings, "cpu-µs/listing")
}

// BenchmarkListingsOfCollections reads a page of 100 listings of two collections (the v1
// collection_urls filter) from a vendor of 20,000 listings in ten collections, every fifth
// listing in two.
func BenchmarkListingsOfCollections(b *testing.B) {
	ctx := context.Background()
	store := postgres.NewCatalogStore(migrated(b))
	collections := make([]catalog.CollectionInput, 10)
	for i := range collections {
		collections[i].URL = fmt.Sprintf("https://shop.example/collections/c%d", i)
	}
	if err := store.UpsertCollections(ctx, vendor, collections, t0); err != nil {
		b.Fatal(err)
	}
	const listings, perWrite = 20_000, 1_000
	read := []string{collections[1].URL, collections[2].URL}
	want := 0 // the listings in either
	for w := 0; w < listings/perWrite; w++ {
		write := make([]catalog.ListingInput, perWrite)
		for k := range write {
			n := w*perWrite + k
			write[k] = catalog.ListingInput{URL: fmt.Sprintf("https://shop.example/products/p%d", n), Name: fmt.Sprintf("Product %d", n),
				CollectionURLs: []string{collections[n%10].URL}}
			if n%5 == 0 {
				write[k].CollectionURLs = append(write[k].CollectionURLs, collections[(n+1)%10].URL)
			}
			if slices.ContainsFunc(write[k].CollectionURLs, func(c string) bool { return slices.Contains(read, c) }) {
				want++
			}
		}
		if err := store.UpsertListings(ctx, vendor, write, t0); err != nil {
			b.Fatal(err)
		}
	}
	query := catalog.ListingQuery{Vendor: vendor, CollectionURLs: read, Page: page.Request{Number: 1, Size: 100}}
	for b.Loop() {
		got, total, err := store.Listings(ctx, query)
		if err != nil {
			b.Fatal(err)
		}
		if total != want || len(got) != 100 {
			b.Fatalf("%d listings of %d, want 100 of %d", len(got), total, want)
		}
	}
}

// BenchmarkEncodeListingIDs encodes a write's 1,000 new listing ids as pgx sends the
// uuid[] parameter: as a flat array of pgtype.UUID (binary) and, beside it, as the
// strings they were, which pgx's binary encoding refuses before it encodes them again as
// text.
func BenchmarkEncodeListingIDs(b *testing.B) {
	m := pgtype.NewMap()
	ids := make(pgtype.FlatArray[pgtype.UUID], 1000)
	texts := make([]string, len(ids))
	for i := range ids {
		ids[i] = pgtype.UUID{Bytes: uuid.Must(uuid.NewV7()), Valid: true}
		texts[i] = uuid.UUID(ids[i].Bytes).String()
	}
	for _, c := range []struct {
		name string
		ids  any
	}{{"binary", ids}, {"strings", texts}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, 0, 64<<10)
			for b.Loop() {
				// pgx's order: the array's preferred format, binary, then the other.
				if _, err := m.Encode(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, c.ids, buf[:0]); err != nil {
					if _, err := m.Encode(pgtype.UUIDArrayOID, pgtype.TextFormatCode, c.ids, buf[:0]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestUpsertListingsRefreshesByKey: a recrawl's write finds the listings it refreshes by
// their primary key, whatever the statistics said when the write was planned. The custom
// plans Postgres makes for a prepared statement's first runs on a connection read and
// hashed the whole listings table instead, every vendor's listings, at every write; so did
// the generic plan when it was made while the tables were empty (a fresh database's first
// crawl), and kept doing so for the connection's life or until the tables were analyzed.
func TestUpsertListingsRefreshesByKey(t *testing.T) {
	for _, analyzed := range []bool{true, false} {
		t.Run(map[bool]string{true: "analyzed", false: "planned on empty tables"}[analyzed], func(t *testing.T) {
			ctx := context.Background()
			shoes := "https://shop.example/collections/shoes"
			pool, store := oneConnectionCatalog(t, shoes)
			crawl := func(price float64, at time.Time) {
				t.Helper()
				listings := make([]catalog.ListingInput, 2000)
				for i := range listings {
					listings[i] = catalog.ListingInput{URL: fmt.Sprintf("https://shop.example/products/p%d", i), Name: fmt.Sprintf("P%d", i),
						Price: &catalog.Price{Currency: "EUR", Current: price}, CollectionURLs: []string{shoes}}
				}
				if err := store.UpsertListings(ctx, vendor, listings, at); err != nil {
					t.Fatal(err)
				}
			}
			crawl(10, t0)
			if analyzed {
				if _, err := pool.Exec(ctx, "ANALYZE listings"); err != nil {
					t.Fatal(err)
				}
			}
			seqScans := func() int64 {
				t.Helper()
				return tableStat(t, pool, "SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'listings'")
			}
			before := seqScans()
			crawl(12, t0.Add(time.Hour))
			if after := seqScans(); after != before {
				t.Errorf("refreshing 2,000 listings scanned the listings table %d times, want none", after-before)
			}
			got, _, err := store.Listings(ctx, catalog.ListingQuery{Vendor: vendor, Page: page.Request{Number: 1, Size: 1}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Price == nil || got[0].Price.Current != 12 {
				t.Errorf("after the refresh: %+v, want the first listing at 12 EUR", got)
			}
		})
	}
}

// TestWriteSessionWritesOnItsOwnConnection holds a write session while every other
// connection of the pool is taken: its writes go on, on the connection it holds, a write
// that fails leaves that connection ready for the next, and release gives it back.
func TestWriteSessionWritesOnItsOwnConnection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{MaxConns: 2})
	session, release, err := postgres.NewCatalogStore(pool).WriteSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	released := false
	defer func() {
		if !released {
			release() // the pool closes only once every connection is back
		}
	}()
	other, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()

	// The pool has no connection left: a write that asked it for one would wait until ctx ends.
	writeCtx, cancelWrites := context.WithTimeout(ctx, 2*time.Second)
	defer cancelWrites()
	shoes := "https://shop.example/collections/shoes"
	if err := session.UpsertCollections(writeCtx, vendor, []catalog.CollectionInput{{URL: shoes}}, t0); err != nil {
		t.Fatal(err)
	}
	err = session.UpsertListings(writeCtx, vendor, []catalog.ListingInput{
		{URL: "https://shop.example/products/a", CollectionURLs: []string{"https://shop.example/collections/unknown"}}}, t0)
	if err == nil {
		t.Fatal("a write into an unknown collection succeeded")
	}
	if err := session.UpsertListings(writeCtx, vendor, []catalog.ListingInput{
		{URL: "https://shop.example/products/b", Name: "Boot", CollectionURLs: []string{shoes}}}, t0); err != nil {
		t.Fatalf("the write after a failed one: %v", err)
	}

	release()
	released = true
	if n := pool.Stat().AcquiredConns(); n != 1 {
		t.Errorf("%d connections taken after release, want 1 (the other)", n)
	}
	got, _, err := postgres.NewCatalogStore(pool).Listings(ctx, catalog.ListingQuery{Vendor: vendor, Page: page.Request{Number: 1, Size: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if names(got) != "Boot" {
		t.Errorf("listings = %s, want Boot alone", names(got))
	}
}
