package postgres

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
)

// CatalogStore implements catalog.SessionStore.
type CatalogStore struct {
	pool *pgxpool.Pool
	// session, when set, is the connection every write takes (WriteSession); otherwise
	// each write takes one from the pool.
	session *pgxpool.Conn
}

// NewCatalogStore returns a catalog.Store over pool.
func NewCatalogStore(pool *pgxpool.Pool) *CatalogStore { return &CatalogStore{pool: pool} }

var _ catalog.SessionStore = (*CatalogStore)(nil)

// WriteSession returns a store whose writes all use one connection of the pool, held
// until release is called. Without it, each write takes whichever idle connection the
// pool hands out, and Postgres loads the catalog tables' metadata and plans the write
// statement again on every connection a crawl's writes land on. A crawl holds one
// connection while it lists. Crawls run at most jobs.workers at a time, and the
// configuration keeps database.max_conns above that (configs.Validate).
func (s *CatalogStore) WriteSession(ctx context.Context) (catalog.Store, func(), error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, nil, classify("open a catalog write session", err)
	}
	return &CatalogStore{pool: s.pool, session: conn}, conn.Release, nil
}

// writeConn returns the connection a write takes and what gives it back.
func (s *CatalogStore) writeConn(ctx context.Context) (*pgxpool.Conn, func(), error) {
	if s.session != nil {
		return s.session, func() {}, nil
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	return conn, conn.Release, nil
}

const vendorColumns = "host, coalesce(platform, ''), listings_count, collections_count, in_affiliate_network, last_updated_by_service"

func scanVendor(r pgx.CollectableRow) (catalog.Vendor, error) {
	var v catalog.Vendor
	err := r.Scan(&v.Host, &v.Platform, &v.ListingsCount, &v.CollectionsCount, &v.InAffiliateNetwork, &v.LastUpdated)
	return v, err
}

func (s *CatalogStore) Vendors(ctx context.Context, req page.Request) ([]catalog.Vendor, int, error) {
	var total int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM vendors").Scan(&total); err != nil {
		return nil, 0, classify("count vendors", err)
	}
	rows, err := s.pool.Query(ctx, "SELECT "+vendorColumns+" FROM vendors ORDER BY listings_count DESC, host LIMIT $1 OFFSET $2", req.Size, req.Offset())
	if err != nil {
		return nil, 0, classify("list vendors", err)
	}
	items, err := pgx.CollectRows(rows, scanVendor)
	return items, total, err
}

func (s *CatalogStore) AllVendors(ctx context.Context) ([]catalog.Vendor, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+vendorColumns+" FROM vendors ORDER BY listings_count DESC, host")
	if err != nil {
		return nil, classify("list vendors", err)
	}
	return pgx.CollectRows(rows, scanVendor)
}

func (s *CatalogStore) Collections(ctx context.Context, vendor string, req page.Request) ([]catalog.Collection, int, error) {
	var vendorID int64
	var total int
	err := s.pool.QueryRow(ctx, "SELECT id, collections_count FROM vendors WHERE host = $1", vendor).Scan(&vendorID, &total)
	if isNoRows(err) {
		return []catalog.Collection{}, 0, nil
	}
	if err != nil {
		return nil, 0, classify("look up vendor "+vendor, err)
	}
	rows, err := s.pool.Query(ctx, `
		SELECT id::text, url, coalesce(title, ''), products_total, first_seen_by_service, last_updated_by_service
		FROM collections WHERE vendor_id = $1
		ORDER BY products_total DESC NULLS LAST, url LIMIT $2 OFFSET $3`, vendorID, req.Size, req.Offset())
	if err != nil {
		return nil, 0, classify("list collections of "+vendor, err)
	}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (catalog.Collection, error) {
		c := catalog.Collection{Vendor: vendor}
		err := r.Scan(&c.ID, &c.URL, &c.Title, &c.ProductsTotal, &c.FirstSeen, &c.LastUpdated)
		return c, err
	})
	return items, total, err
}

const listingColumns = "l.id::text, l.url, coalesce(l.page_url, ''), coalesce(l.name, ''), l.images, l.price_currency, l.price_current::float8, l.price_compare_at::float8, l.first_seen_by_service, l.last_updated_by_service"

// Listings pages by ordinal ranges where it can: with no collection filter or a single one,
// page N costs the same as page 1 (see the migration's note on ordinals), and the count and
// the page come back in one round trip.
//
// The page size is written into the statement, not passed as a parameter. With LIMIT as
// a parameter, Postgres cannot estimate a generic plan's cost and plans every execution
// anew. A literal LIMIT lets the cached generic plan take over after five executions;
// there is one cached statement per page size (at most 100).
func (s *CatalogStore) Listings(ctx context.Context, q catalog.ListingQuery) ([]catalog.Listing, int, error) {
	var (
		rows pgx.Rows
		err  error
	)
	if q.Page.Size < 1 || q.Page.Size > 1000 {
		return nil, 0, fmt.Errorf("list listings of %s: page size %d out of range", q.Vendor, q.Page.Size)
	}
	limit := " LIMIT " + strconv.Itoa(q.Page.Size)
	switch len(q.CollectionURLs) {
	case 0:
		rows, err = s.pool.Query(ctx, `SELECT v.listings_count, `+listingColumns+` FROM vendors v
			LEFT JOIN LATERAL (SELECT * FROM listings l WHERE l.vendor_id = v.id AND l.ordinal > $2 ORDER BY l.ordinal`+limit+`) l ON true
			WHERE v.host = $1`, q.Vendor, q.Page.Offset())
	case 1:
		rows, err = s.pool.Query(ctx, `SELECT c.listings_count, `+listingColumns+` FROM vendors v
			JOIN collections c ON c.vendor_id = v.id AND c.url = $2
			LEFT JOIN LATERAL (
				SELECT l.* FROM collection_listings cl JOIN listings l ON l.id = cl.listing_id
				WHERE cl.collection_id = c.id AND cl.ordinal > $3 ORDER BY cl.ordinal`+limit+`) l ON true
			WHERE v.host = $1`, q.Vendor, q.CollectionURLs[0], q.Page.Offset())
	default:
		// The count reads only the collections and their links, not the listings; the page
		// walks the vendor's listings in order and stops once it is full. The count is joined
		// beside the vendor so that it runs once. As a subquery in the select list it would
		// run again for every listing of the page.
		rows, err = s.pool.Query(ctx, `SELECT n.total, `+listingColumns+` FROM vendors v
			CROSS JOIN LATERAL (
				SELECT count(DISTINCT cl.listing_id)::int AS total FROM collections c JOIN collection_listings cl ON cl.collection_id = c.id
				WHERE c.vendor_id = v.id AND c.url = ANY($2)) n
			LEFT JOIN LATERAL (
				SELECT * FROM listings l WHERE l.vendor_id = v.id AND EXISTS (
					SELECT 1 FROM collection_listings cl JOIN collections c ON c.id = cl.collection_id
					WHERE cl.listing_id = l.id AND c.vendor_id = v.id AND c.url = ANY($2))
				ORDER BY l.ordinal`+limit+` OFFSET $3) l ON true
			WHERE v.host = $1`,
			q.Vendor, q.CollectionURLs, q.Page.Offset())
	}
	if err != nil {
		return nil, 0, classify("list listings of "+q.Vendor, err)
	}
	defer rows.Close()
	row := newListingRow()
	items := make([]catalog.Listing, 0, q.Page.Size)
	for rows.Next() {
		l, present, err := row.scan(rows, q.Vendor)
		if err != nil {
			return nil, 0, fmt.Errorf("read listings of %s: %w", q.Vendor, err)
		}
		if present {
			items = append(items, l)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, classify("list listings of "+q.Vendor, err)
	}
	return items, row.total, nil
}

// listingRow receives one row of a listings query: a count and an optional listing (absent
// when the page is empty). One listingRow is reused for every row of a page, with pgtype
// fields rather than pointers, and the images stay JSON. A page of listings is the API's
// busiest read, and allocating for each row and decoding the pictures was a large part of
// its cost.
type listingRow struct {
	total                  int
	id, url, pageURL, name pgtype.Text
	images                 []byte
	currency               pgtype.Text
	current, compareAt     pgtype.Float8
	firstSeen, lastUpdated pgtype.Timestamptz
	dest                   []any
}

func newListingRow() *listingRow {
	r := &listingRow{}
	r.dest = []any{&r.total, &r.id, &r.url, &r.pageURL, &r.name, &r.images, &r.currency, &r.current, &r.compareAt, &r.firstSeen, &r.lastUpdated}
	return r
}

// scan reads the current row; present is false for the empty page's placeholder row.
func (r *listingRow) scan(rows pgx.Rows, vendor string) (l catalog.Listing, present bool, err error) {
	if err := rows.Scan(r.dest...); err != nil {
		return l, false, err
	}
	if !r.id.Valid {
		return l, false, nil
	}
	l = catalog.Listing{ID: r.id.String, Vendor: vendor, URL: r.url.String, PageURL: r.pageURL.String, Name: r.name.String,
		FirstSeen: r.firstSeen.Time, LastUpdated: r.lastUpdated.Time}
	// pgx copies each value out of the row, so the bytes are this listing's own.
	l.Images = r.images
	if r.current.Valid {
		l.Price = &catalog.Price{Current: r.current.Float64, Currency: r.currency.String}
		if r.compareAt.Valid {
			compareAt := r.compareAt.Float64
			l.Price.CompareAt = &compareAt
		}
	}
	return l, true, nil
}

func (s *CatalogStore) UpsertVendor(ctx context.Context, host, platform string, at time.Time) error {
	conn, release, err := s.writeConn(ctx)
	if err != nil {
		return classify("upsert vendor "+host, err)
	}
	defer release()
	_, err = conn.Exec(ctx, `
		INSERT INTO vendors (host, platform, first_seen_by_service, last_updated_by_service) VALUES ($1, nullif($2, ''), $3, $3)
		ON CONFLICT (host) DO UPDATE SET platform = coalesce(nullif($2, ''), vendors.platform), last_updated_by_service = $3`,
		host, platform, at)
	if err != nil {
		return fmt.Errorf("upsert vendor %s: %w", host, err)
	}
	return nil
}

// lockVendor returns the vendor's id with its row locked, creating the vendor if needed, so
// that ordinals are handed out by one writer at a time.
func lockVendor(ctx context.Context, tx pgx.Tx, host string, at time.Time) (int64, error) {
	var id int64
	if err := tx.QueryRow(ctx, lockVendorSQL, host, at).Scan(&id); err != nil {
		return 0, fmt.Errorf("lock vendor %s: %w", host, err)
	}
	return id, nil
}

// planWriteSQL sets, for the write's transaction, how writeListingsSQL is planned (see
// UpsertListings).
const planWriteSQL = `SELECT set_config('plan_cache_mode', 'force_generic_plan', true),
	set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`

const lockVendorSQL = `
	INSERT INTO vendors (host, first_seen_by_service, last_updated_by_service) VALUES ($1, $2, $2)
	ON CONFLICT (host) DO UPDATE SET last_updated_by_service = $2
	RETURNING id`

func (s *CatalogStore) UpsertCollections(ctx context.Context, vendor string, collections []catalog.CollectionInput, at time.Time) error {
	conn, release, err := s.writeConn(ctx)
	if err != nil {
		return classify("upsert collections of "+vendor, err)
	}
	defer release()
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		vendorID, err := lockVendor(ctx, tx, vendor, at)
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		for _, c := range collections {
			batch.Queue(`
				INSERT INTO collections (id, vendor_id, url, handle, title, products_total, first_seen_by_service, last_updated_by_service)
				VALUES ($1, $2, $3, nullif($4, ''), nullif($5, ''), $6, $7, $7)
				ON CONFLICT (vendor_id, url) DO UPDATE SET
					handle = coalesce(excluded.handle, collections.handle),
					title = coalesce(excluded.title, collections.title),
					products_total = coalesce(excluded.products_total, collections.products_total),
					last_updated_by_service = excluded.last_updated_by_service`,
				uuid.New(), vendorID, c.URL, c.Handle, c.Title, c.ProductsTotal, at)
		}
		batch.Queue("UPDATE vendors SET collections_count = (SELECT count(*) FROM collections WHERE vendor_id = $1) WHERE id = $1", vendorID)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return fmt.Errorf("upsert collections of %s: %w", vendor, err)
		}
		return nil
	})
}

func (s *CatalogStore) UpsertListings(ctx context.Context, vendor string, listings []catalog.ListingInput, at time.Time) error {
	listings = mergeListings(listings)
	if len(listings) == 0 {
		return nil
	}
	rows, err := newListingRows(listings)
	if err != nil {
		return fmt.Errorf("upsert listings of %s: %w", vendor, err)
	}
	links := newLinks(listings)
	// One set-based statement writes the listings and their links, whatever the number of
	// listings: a crawl writes pages of listings at a time, and one statement (and one
	// round trip) per listing made the vendor's lock, held for the transaction, the
	// crawl's bottleneck. The transaction is opened in the same batch and closed by a
	// second round trip, once the answer says whether every collection exists.
	conn, release, err := s.writeConn(ctx)
	if err != nil {
		return classify("upsert listings of "+vendor, err)
	}
	defer release()
	var problems []writeProblem
	batch := &pgx.Batch{}
	batch.Queue("BEGIN")
	// Plan the statement once per connection, not once per write. Planning its ten parts
	// is a noticeable share of a write, and Postgres plans a prepared statement anew for
	// its first five runs on each connection, which is every write of most crawls. The
	// generic plan also refreshes existing listings by probing the primary key, where a
	// custom plan read and hashed the whole listings table.
	//
	// A plan made at a fresh database's first write, without table statistics, read the
	// whole listings table and probed each listing's links with a bitmap scan, and the
	// connection kept that plan until the tables were next analyzed. Every table this
	// statement reads is read by key, so its transaction prices sequential and bitmap
	// scans out of the planner's choices. storage/postgres/RATIONALE.md has the figures.
	batch.Queue(planWriteSQL)
	batch.Queue(lockVendorSQL, vendor, at)
	batch.Queue(writeListingsSQL, vendor, rows.ids, rows.urls, rows.names, rows.images,
		rows.currencies, rows.currents, rows.compareAts, rows.unchanged, at, links.listings, links.collections, links.urls,
		rows.pageURLs,
	).Query(func(r pgx.Rows) (err error) {
		problems, err = pgx.CollectRows(r, pgx.RowToStructByPos[writeProblem])
		return err
	})
	if records := newRecordRows(listings); len(records.urls) > 0 {
		batch.Queue(writeRecordsSQL, vendor, records.urls, records.adapters, records.data, at)
	}
	err = conn.SendBatch(ctx, batch).Close()
	if err == nil && len(problems) > 0 {
		err = problems[0].err()
	}
	if err != nil {
		// A connection left mid-transaction is closed by the pool, not reused.
		_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		return fmt.Errorf("upsert listings of %s: %w", vendor, err)
	}
	if _, err := conn.Exec(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("upsert listings of %s: commit: %w", vendor, err)
	}
	return nil
}

// writeProblem is a row of writeListingsSQL's answer: a collection, or a listing said to
// be unchanged, that is not in the catalog.
type writeProblem struct {
	Kind, URL string
}

func (p writeProblem) err() error {
	if p.Kind == "listing" {
		return fmt.Errorf("listing %s is not in the catalog, but was said to be unchanged", p.URL)
	}
	return fmt.Errorf("collection %s is not in the catalog", p.URL)
}

// writeListingsSQL refreshes the listings that exist and adds the others, which take the
// next ordinals of their vendor in input order; then links them to collections, and
// answers the collections that are not in the catalog and the listings said to be
// unchanged that are not either (any makes the caller roll back): an unchanged listing
// comes with its URL only. Input URLs are distinct. $1 is the vendor's host; its row is
// locked by the transaction, so no other writer hands out its ordinals meanwhile. Images and prices
// cross as text and float8 arrays, which pgx encodes without quoting each JSON document
// or going through math/big for each numeric. The links ($11, $12) name their listing by
// its row in the input, whose id is known here, whether found or new; the collections
// are locked while their ordinals are handed out. A link names its collection by its row in
// $13, the write's distinct collection URLs, rather than carrying the URL: a write's links
// share a few collections. $14 are the listings' page URLs, "" (stored as NULL) where a
// listing's page URL is its URL.
//
// Each input row finds its listing with a subquery of its own, an index probe by URL
// (migration 00012: vendor_id + 0 keeps the vendor's ordinal key out of it); an existing
// listing's links are read by listing alone, from the links' primary key, for the same
// reason: asked for one (collection, listing) pair, a planner seeing a near-empty table
// may as well take the collection's ordinal key and read all its links. Written as a
// join, it was planned as a hash of every listing of the vendor, twice per page: while a
// crawl grows a vendor, the statistics still say it has a few dozen, and each page then
// cost in proportion to the catalog.
//
// No foreign key checks the listings' vendor or the links' ends (migration 00010): this
// statement takes each of those ids from a row it has locked, found or inserted, and
// nothing deletes catalog rows. Whoever adds another writer of these tables, or a delete,
// keeps that true.
const writeListingsSQL = `
	WITH vendor AS (
		SELECT id, listings_count FROM vendors WHERE host = $1
	), input AS (
		SELECT i.*, (SELECT l.id FROM listings l WHERE l.url = i.url AND l.vendor_id + 0 = (SELECT id FROM vendor)) AS existing
		FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[], $9::bool[], $14::text[])
			WITH ORDINALITY AS i (id, url, name, images, currency, current, compare_at, unchanged, page_url, n)
	), updated AS (
		UPDATE listings l SET name = coalesce(nullif(i.name, ''), l.name), images = i.images::json,
			price_currency = i.currency, price_current = i.current, price_compare_at = i.compare_at,
			page_url = nullif(i.page_url, ''), last_updated_by_service = $10
		FROM input i WHERE i.existing IS NOT NULL AND NOT i.unchanged AND l.id = i.existing
	), inserted AS (
		INSERT INTO listings (id, vendor_id, ordinal, url, name, images, price_currency, price_current, price_compare_at,
			page_url, first_seen_by_service, last_updated_by_service)
		SELECT f.id, v.id, v.listings_count + row_number() OVER (ORDER BY f.n), f.url, nullif(f.name, ''), f.images::json,
			f.currency, f.current, f.compare_at, nullif(f.page_url, ''), $10, $10
		FROM input f, vendor v WHERE f.existing IS NULL AND NOT f.unchanged
		RETURNING 1
	), vendor_counted AS (
		UPDATE vendors SET listings_count = listings_count + (SELECT count(*) FROM inserted) WHERE id = (SELECT id FROM vendor)
	), pairs AS (
		SELECT p.listing, ($13::text[])[p.collection] AS collection_url, p.k
		FROM unnest($11::int[], $12::int[]) WITH ORDINALITY AS p (listing, collection, k)
	), cols AS (
		SELECT c.id, c.url, c.listings_count FROM collections c
		WHERE c.vendor_id = (SELECT id FROM vendor) AND c.url IN (SELECT collection_url FROM pairs)
		ORDER BY c.id
		FOR UPDATE
	), wanted AS (
		SELECT cols.id AS collection_id, coalesce(i.existing, i.id) AS listing_id, cols.listings_count, p.k
		FROM pairs p JOIN input i ON i.n = p.listing JOIN cols ON cols.url = p.collection_url
		WHERE i.existing IS NULL AND NOT i.unchanged
			OR i.existing IS NOT NULL AND cols.id <> ALL (ARRAY(SELECT cl.collection_id FROM collection_listings cl WHERE cl.listing_id = i.existing))
	), linked AS (
		INSERT INTO collection_listings (collection_id, listing_id, ordinal)
		SELECT collection_id, listing_id, listings_count + row_number() OVER (PARTITION BY collection_id ORDER BY k) FROM wanted
		RETURNING collection_id
	), collections_counted AS (
		UPDATE collections c SET listings_count = c.listings_count + x.added
		FROM (SELECT collection_id, count(*) AS added FROM linked GROUP BY collection_id) x
		WHERE c.id = x.collection_id
	)
	SELECT DISTINCT 'collection', collection_url FROM pairs WHERE collection_url NOT IN (SELECT url FROM cols)
	UNION ALL
	SELECT 'listing', url FROM input WHERE existing IS NULL AND unchanged`

// listingRows are listings as the columns writeListingsSQL unnests.
type listingRows struct {
	// ids are pgtype.UUID values, which pgx encodes in binary. As strings, pgx's binary
	// encoding of uuid[] refused them, and pgx then encoded the array again as text after
	// building an error message that quoted every id (BenchmarkEncodeListingIDs measures
	// the difference). The columns of pgtype values are FlatArrays, which pgx encodes
	// directly; as plain slices of values or pointers, pgx reached each element through
	// reflection.
	ids                  pgtype.FlatArray[pgtype.UUID]
	urls, names, images  []string
	pageURLs             []string // "" when the same as the URL
	currencies           pgtype.FlatArray[pgtype.Text]
	currents, compareAts pgtype.FlatArray[pgtype.Float8]
	unchanged            []bool
}

func newListingRows(listings []catalog.ListingInput) (listingRows, error) {
	n := len(listings)
	r := listingRows{ids: make([]pgtype.UUID, n), urls: make([]string, n), pageURLs: make([]string, n), names: make([]string, n), images: make([]string, n),
		currencies: make([]pgtype.Text, n), currents: make([]pgtype.Float8, n), compareAts: make([]pgtype.Float8, n), unchanged: make([]bool, n)}
	for i, l := range listings {
		r.urls[i], r.unchanged[i] = l.URL, l.Unchanged
		if l.Unchanged {
			// Only its URL and links are read (see writeListingsSQL). Its other fields, and
			// an id in case it were new, would be made, encoded, sent and unpacked for
			// nothing. A crawl meets most of a store's listings in more than one
			// collection, so this saves a large part of a write's bytes.
			continue
		}
		// The id is used only by a listing that turns out to be new. Time-ordered (v7), so
		// that a crawl's new listings and links append to their indexes' right edge
		// instead of landing on random pages.
		r.ids[i] = pgtype.UUID{Bytes: uuid.Must(uuid.NewV7()), Valid: true}
		images, err := gojson.Marshal(nonNilImages(l.Images))
		if err != nil {
			return listingRows{}, err
		}
		r.names[i], r.images[i] = l.Name, string(images)
		r.pageURLs[i] = l.PageURL
		if p := l.Price; p != nil {
			r.currencies[i] = pgtype.Text{String: p.Currency, Valid: p.Currency != ""}
			r.currents[i] = pgtype.Float8{Float64: p.Current, Valid: true}
			if p.CompareAt != nil {
				r.compareAts[i] = pgtype.Float8{Float64: *p.CompareAt, Valid: true}
			}
		}
	}
	return r, nil
}

// writeRecordsSQL keeps the records of listings just written (migration 00016), each in
// place of its listing's earlier one. $1 is the vendor's host; $2, $3 and $4 the listings'
// URLs, their records' adapters and their records.
const writeRecordsSQL = `
	INSERT INTO listing_records (listing_id, adapter, record, listed_at)
	SELECT l.id, r.adapter, r.record, $5
	FROM unnest($2::text[], $3::text[], $4::bytea[]) AS r(url, adapter, record)
	JOIN listings l ON l.vendor_id = (SELECT id FROM vendors WHERE host = $1) AND l.url = r.url
	ON CONFLICT (listing_id) DO UPDATE SET adapter = excluded.adapter, record = excluded.record, listed_at = excluded.listed_at`

// recordRows are the records writeRecordsSQL keeps, as its arrays: those of the listings
// written anew. An unchanged listing's record was written moments ago with it.
type recordRows struct {
	urls, adapters []string
	data           [][]byte
}

func newRecordRows(listings []catalog.ListingInput) recordRows {
	var r recordRows
	for _, l := range listings {
		if l.Record == nil || l.Unchanged {
			continue
		}
		r.urls = append(r.urls, l.URL)
		r.adapters = append(r.adapters, l.Record.Adapter)
		r.data = append(r.data, l.Record.Data)
	}
	return r
}

// mergeListings returns listings with one entry per URL, at its first position: the last
// entry's fields (the freshest), every entry's collections, and unchanged only when every
// entry is.
func mergeListings(listings []catalog.ListingInput) []catalog.ListingInput {
	at := make(map[string]int, len(listings))
	out := make([]catalog.ListingInput, 0, len(listings))
	for _, l := range listings {
		i, ok := at[l.URL]
		if !ok {
			at[l.URL] = len(out)
			out = append(out, l)
			continue
		}
		collections := out[i].CollectionURLs
		for _, c := range l.CollectionURLs {
			if !slices.Contains(collections, c) {
				collections = append(slices.Clip(collections), c)
			}
		}
		unchanged := out[i].Unchanged && l.Unchanged
		out[i] = l
		out[i].CollectionURLs, out[i].Unchanged = collections, unchanged
	}
	return out
}

// links are the distinct (listing, collection) pairs writeListingsSQL links, in input
// order: a listing by its row in the input, a collection by its row in urls (both from 1).
type links struct {
	listings, collections []int32
	urls                  []string
}

func newLinks(listings []catalog.ListingInput) links {
	var p links
	for i, l := range listings {
		for j, c := range l.CollectionURLs {
			if slices.Contains(l.CollectionURLs[:j], c) {
				continue
			}
			// A write's collections are few: a scan finds one sooner than a map is built.
			k := slices.Index(p.urls, c)
			if k < 0 {
				k = len(p.urls)
				p.urls = append(p.urls, c)
			}
			p.listings = append(p.listings, int32(i+1))
			p.collections = append(p.collections, int32(k+1))
		}
	}
	return p
}

func nonNilImages(images []catalog.Image) []catalog.Image {
	if images == nil {
		return []catalog.Image{}
	}
	return images
}
