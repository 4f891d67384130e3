package evaluation

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/product"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/postgres"
)

// The fixed test catalog: the demo store's generated products (seed DemoSeed), under the
// vendor DemoHost, plus the real captures of CorpusDir when they are there.
const (
	DemoSeed     = 7
	DemoProducts = 3000
	DemoHost     = "demo-store.example"
)

// CrawledExtractEvery is the share of the mostly crawled catalog that is extracted: one
// product in this many, the rest only listed (Catalog.LoadCrawled).
const CrawledExtractEvery = 10

// CorpusDir holds real Shopify captures (read at run time, never copied into the repo).
var CorpusDir = filepath.Join("..", "..", "shared", "corpus", "shopify")

// Corpora are the real catalogs the set has queries for, by vendor host.
var Corpora = map[string]string{
	"stanley1913.example":  "stanley1913-products.json",
	"kiidskingdom.example": "kiidskingdom-products.json",
	"mylubie.example":      "mylubie-products.json",
}

// Entry is a catalog product with the facts the judgement rules read.
type Entry struct {
	Vendor  string
	Source  demostore.Product
	Product *product.Product
	// Collections are the store's collections the product is in, "All products" first,
	// as a crawl finds them (their Products are not kept).
	Collections []demostore.Collection
}

// Catalog is the test catalog, by stored product id, and by listing id once loaded as
// crawled.
type Catalog struct {
	Entries []Entry
	ByID    map[string]*Entry
	// Listings holds the ids of ByID that are listings no product replaces.
	Listings map[string]bool
	// Vendors present (real corpora are skipped when absent).
	Vendors map[string]bool
}

// BuildCatalog generates the demo products and reads the corpora found under dir.
func BuildCatalog(n int, dir string) (*Catalog, error) {
	c := &Catalog{ByID: map[string]*Entry{}, Listings: map[string]bool{}, Vendors: map[string]bool{DemoHost: true}}
	c.add(DemoHost, demostore.Generate(DemoSeed, n))
	for host, file := range Corpora {
		path := filepath.Join(dir, file)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		cat, err := demostore.LoadShopify(path)
		if err != nil {
			return nil, err
		}
		c.Vendors[host] = true
		c.add(host, cat)
	}
	return c, nil
}

// add adds the products of a store's catalog, with the collections each is in.
func (c *Catalog) add(host string, cat *demostore.Catalog) {
	memberOf := collectionsOf(cat)
	for i := range cat.Len() {
		sp := cat.Product(i)
		c.Entries = append(c.Entries, Entry{Vendor: host, Source: sp, Product: Convert(host, sp), Collections: memberOf[i]})
	}
}

// collectionsOf lists the collections each product of cat is in, "All products" first
// (without their Products).
func collectionsOf(cat *demostore.Catalog) [][]demostore.Collection {
	all, _ := cat.Collection("all")
	memberOf := make([][]demostore.Collection, cat.Len())
	for i := range memberOf {
		memberOf[i] = []demostore.Collection{all}
	}
	for _, col := range cat.Collections() {
		members := col.Products
		col.Products = nil
		for _, i := range members {
			memberOf[i] = append(memberOf[i], col)
		}
	}
	return memberOf
}

// Convert turns a storefront product into the product an extraction would store.
func Convert(host string, sp demostore.Product) *product.Product {
	title, body, vendor := sp.Title, sp.BodyHTML, sp.Vendor
	text := stripMarkup(body)
	p := &product.Product{
		URL: "https://" + host + "/products/" + sp.Handle, Handle: sp.Handle, Title: &title,
		DescriptionHTML: &body, Description: &text, Tags: sp.Tags,
	}
	if vendor != "" {
		p.Vendor, p.Brand = &vendor, &vendor
	}
	if sp.ProductType != "" {
		typ := sp.ProductType
		p.ProductType = &typ
	}
	for _, o := range sp.Options {
		p.Options = append(p.Options, product.Option{Name: o.Name, Values: o.Values})
	}
	available := sp.Available()
	p.IsAvailable = &available
	for _, v := range sp.Variants {
		vt, avail := v.Title, v.Available
		p.Variants = append(p.Variants, product.Variant{Title: &vt, IsAvailable: &avail,
			Price: &product.Price{Current: float64(v.Price) / 100, Currency: "USD"}})
	}
	if lead := sp.LeadVariant(); len(sp.Variants) > 0 {
		p.Price = &product.Price{Current: float64(lead.Price) / 100, Currency: "USD"}
	}
	return p
}

func stripMarkup(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
			b.WriteByte(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// Load saves the catalog through the product store, as extractions do, and indexes it by
// the stored ids.
func (c *Catalog) Load(ctx context.Context, pool *pgxpool.Pool) error {
	store := postgres.NewExtractStore(pool)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range c.Entries {
		e := &c.Entries[i]
		id, err := store.SaveProduct(ctx, e.Vendor, e.Product, at)
		if err != nil {
			return fmt.Errorf("save %s: %w", e.Product.URL, err)
		}
		c.ByID[id] = e
	}
	return nil
}

// LoadCrawled saves the catalog as a crawl followed by some extractions leaves it: every
// product as a listing of its vendor (its name, its first variant's price and its first
// image, as the Shopify adapter lists a product, and its collections), and one product in
// extractEvery, the first of each run, saved whole through the product store, as
// extractions do. It indexes the catalog by listing id (the listings no product
// replaces) and by product id.
func (c *Catalog) LoadCrawled(ctx context.Context, pool *pgxpool.Pool, extractEvery int) error {
	catalogs := postgres.NewCatalogStore(pool)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	byVendor := map[string][]*Entry{}
	var vendors []string
	for i := range c.Entries {
		e := &c.Entries[i]
		if byVendor[e.Vendor] == nil {
			vendors = append(vendors, e.Vendor)
		}
		byVendor[e.Vendor] = append(byVendor[e.Vendor], e)
	}
	for _, vendor := range vendors {
		if err := catalogs.UpsertVendor(ctx, vendor, "shopify", at); err != nil {
			return err
		}
		entries := byVendor[vendor]
		seen := map[string]bool{}
		var collections []catalog.CollectionInput
		for _, e := range entries {
			for _, col := range e.Collections {
				if u := collectionURL(vendor, col); !seen[u] {
					seen[u] = true
					collections = append(collections, catalog.CollectionInput{URL: u, Title: col.Title, Handle: col.Handle})
				}
			}
		}
		if err := catalogs.UpsertCollections(ctx, vendor, collections, at); err != nil {
			return err
		}
		for start := 0; start < len(entries); start += 500 {
			var listings []catalog.ListingInput
			for _, e := range entries[start:min(start+500, len(entries))] {
				listings = append(listings, listingOf(e))
			}
			if err := catalogs.UpsertListings(ctx, vendor, listings, at); err != nil {
				return err
			}
		}
	}
	store := postgres.NewExtractStore(pool)
	byURL := map[string]*Entry{}
	for i := range c.Entries {
		e := &c.Entries[i]
		if i%extractEvery != 0 {
			byURL[e.Product.URL] = e
			continue
		}
		id, err := store.SaveProduct(ctx, e.Vendor, e.Product, at)
		if err != nil {
			return fmt.Errorf("save %s: %w", e.Product.URL, err)
		}
		c.ByID[id] = e
	}
	rows, err := pool.Query(ctx, `SELECT l.id::text, l.url FROM listings l WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.listing_id = l.id)`)
	if err != nil {
		return err
	}
	var id, url string
	_, err = pgx.ForEachRow(rows, []any{&id, &url}, func() error {
		e := byURL[url]
		if e == nil {
			return fmt.Errorf("listing %s is no catalog product", url)
		}
		c.ByID[id], c.Listings[id] = e, true
		return nil
	})
	return err
}

func collectionURL(host string, col demostore.Collection) string {
	return "https://" + host + "/collections/" + col.Handle
}

// listingOf is the listing a crawl of the Shopify storefront records for e.
func listingOf(e *Entry) catalog.ListingInput {
	sp := e.Source
	l := catalog.ListingInput{URL: e.Product.URL, Name: sp.Title}
	if len(sp.Variants) > 0 {
		v := sp.Variants[0]
		l.Price = &catalog.Price{Currency: "USD", Current: float64(v.Price) / 100}
		if v.CompareAtPrice > 0 {
			compareAt := float64(v.CompareAtPrice) / 100
			l.Price.CompareAt = &compareAt
		}
	}
	if len(sp.Images) > 0 {
		img := sp.Images[0]
		l.Images = []catalog.Image{{ID: fmt.Sprint(img.ID), URL: img.Src, Position: 1}}
	}
	for _, col := range e.Collections {
		l.CollectionURLs = append(l.CollectionURLs, collectionURL(e.Vendor, col))
	}
	return l
}

// CopyDemo bulk-loads n generated products with COPY, for benchmarks: seconds for 100,000
// rows where SaveProduct would take minutes. The search columns are generated by Postgres
// all the same.
func CopyDemo(ctx context.Context, pool *pgxpool.Pool, n int) error {
	vendorID, err := demoVendor(ctx, pool)
	if err != nil {
		return err
	}
	demo := demostore.Generate(DemoSeed, n)
	now := time.Now()
	i := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		if i >= n {
			return nil, nil
		}
		p := Convert(DemoHost, demo.Product(i))
		i++
		return []any{newUUID(i), vendorID, p.URL, p, now, now}, nil
	})
	_, err = pool.CopyFrom(ctx, pgx.Identifier{"products"}, []string{"id", "vendor_id", "url", "data", "created_at", "updated_at"}, src)
	return err
}

// CopyCrawledDemo bulk-loads n generated products with COPY as LoadCrawled leaves them,
// for benchmarks: every product a listing of DemoHost in its collections, and one in
// extractEvery also saved as a product.
func CopyCrawledDemo(ctx context.Context, pool *pgxpool.Pool, n, extractEvery int) error {
	vendorID, err := demoVendor(ctx, pool)
	if err != nil {
		return err
	}
	demo := demostore.Generate(DemoSeed, n)
	memberOf := collectionsOf(demo)
	now := time.Now()
	collectionIDs := map[string]string{}
	all, _ := demo.Collection("all")
	for k, col := range append([]demostore.Collection{all}, demo.Collections()...) {
		id, url := fmt.Sprintf("00000000-0000-4000-9000-%012d", k+1), collectionURL(DemoHost, col)
		collectionIDs[url] = id
		if _, err := pool.Exec(ctx, `INSERT INTO collections (id, vendor_id, url, handle, title) VALUES ($1, $2, $3, $4, $5)`,
			id, vendorID, url, col.Handle, col.Title); err != nil {
			return err
		}
	}
	var links, products [][]any
	ordinals := map[string]int{}
	i := 0
	listings := pgx.CopyFromFunc(func() ([]any, error) {
		if i >= n {
			return nil, nil
		}
		e := Entry{Vendor: DemoHost, Source: demo.Product(i), Collections: memberOf[i]}
		e.Product = Convert(DemoHost, e.Source)
		i++
		l := listingOf(&e)
		id := fmt.Sprintf("00000000-0000-4000-a000-%012d", i)
		images, err := json.Marshal(l.Images)
		if err != nil {
			return nil, err
		}
		for _, u := range l.CollectionURLs {
			ordinals[u]++
			links = append(links, []any{collectionIDs[u], id, ordinals[u]})
		}
		if (i-1)%extractEvery == 0 {
			products = append(products, []any{newUUID(i), vendorID, id, e.Product.URL, e.Product, now, now})
		}
		row := []any{id, vendorID, i, l.URL, l.Name, images, nil, nil, nil, now, now}
		if l.Price != nil {
			row[6], row[7], row[8] = l.Price.Currency, l.Price.Current, l.Price.CompareAt
		}
		return row, nil
	})
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"listings"}, []string{"id", "vendor_id", "ordinal", "url", "name", "images",
		"price_currency", "price_current", "price_compare_at", "first_seen_by_service", "last_updated_by_service"}, listings); err != nil {
		return err
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"collection_listings"}, []string{"collection_id", "listing_id", "ordinal"}, pgx.CopyFromRows(links)); err != nil {
		return err
	}
	_, err = pool.CopyFrom(ctx, pgx.Identifier{"products"}, []string{"id", "vendor_id", "listing_id", "url", "data", "created_at", "updated_at"}, pgx.CopyFromRows(products))
	return err
}

func demoVendor(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	var id int64
	err := pool.QueryRow(ctx, `INSERT INTO vendors (host) VALUES ($1) ON CONFLICT (host) DO UPDATE SET host = excluded.host RETURNING id`,
		DemoHost).Scan(&id)
	return id, err
}

// newUUID is a deterministic id for the i-th bulk product.
func newUUID(i int) string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
}
