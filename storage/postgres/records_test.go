package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/storage/postgres"
)

// TestListingRecordsAreKeptWithTheirListings writes listings with records, then again
// with a newer record, one unchanged and one without: each listing's record is the last
// one written with it, found by the URL the site links it at, dated by its write.
func TestListingRecordsAreKeptWithTheirListings(t *testing.T) {
	ctx := context.Background()
	pool := migrated(t)
	listings, extracts := postgres.NewCatalogStore(pool), postgres.NewExtractStore(pool)
	shoes := "https://shop.example/collections/shoes"
	if err := listings.UpsertCollections(ctx, vendor, []catalog.CollectionInput{{URL: shoes}}, t0); err != nil {
		t.Fatal(err)
	}
	boot, clog, sock := "https://shop.example/products/boot", "https://shop.example/products/clog", "https://shop.example/products/sock"
	clogPage := "https://www.shop.example/products/clog/"
	record := func(data string) *catalog.Record { return &catalog.Record{Adapter: "shopify", Data: []byte(data)} }
	write := func(at time.Time, in ...catalog.ListingInput) {
		t.Helper()
		for i := range in {
			in[i].CollectionURLs = []string{shoes}
		}
		if err := listings.UpsertListings(ctx, vendor, in, at); err != nil {
			t.Fatal(err)
		}
	}
	write(t0,
		catalog.ListingInput{URL: boot, Name: "Boot", Record: record(`{"handle":"boot","price":"1.00"}`)},
		catalog.ListingInput{URL: clog, PageURL: clogPage, Name: "Clog", Record: record(`{"handle":"clog"}`)},
		catalog.ListingInput{URL: sock, Name: "Sock"},
	)
	later := t0.Add(time.Hour)
	write(later,
		catalog.ListingInput{URL: boot, Name: "Boot", Record: record(`{"handle":"boot","price":"2.00"}`)},
		catalog.ListingInput{URL: clog, Unchanged: true, Record: record(`{"handle":"not written"}`)},
		catalog.ListingInput{URL: sock, Name: "Sock"},
	)

	got, err := extracts.ListingRecords(ctx, vendor, []string{boot, clogPage, sock, clog})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		data string
		at   time.Time
	}{
		boot:     {`{"handle":"boot","price":"2.00"}`, later},
		clogPage: {`{"handle":"clog"}`, t0},
	}
	if len(got) != len(want) {
		t.Errorf("records of %d listings, want %d: %v", len(got), len(want), got)
	}
	for u, w := range want {
		r, ok := got[u]
		if !ok || r.Adapter != "shopify" || !r.ListedAt.Equal(w.at) || !json.Valid(r.Data) || string(r.Data) != w.data {
			t.Errorf("%s: %+v (%s), want %s listed at %s", u, r, r.Data, w.data, w.at)
		}
	}
}
