package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/product"
)

// ExtractStore implements extract.Store.
type ExtractStore struct {
	pool *pgxpool.Pool
	// vendors caches vendor host -> id.
	vendors sync.Map
}

// NewExtractStore returns an extract.Store over pool.
func NewExtractStore(pool *pgxpool.Pool) *ExtractStore { return &ExtractStore{pool: pool} }

var _ extract.Store = (*ExtractStore)(nil)

func (s *ExtractStore) AddItems(ctx context.Context, executionID string, urls []string) error {
	return addItems(ctx, s.pool, executionID, urls)
}

// addItems records an execution's input URLs in order, all pending.
func addItems(ctx context.Context, db execer, executionID string, urls []string) error {
	positions := make([]int32, len(urls))
	for i := range urls {
		positions[i] = int32(i)
	}
	_, err := db.Exec(ctx, `INSERT INTO execution_items (execution_id, position, url)
		SELECT $1, p, u FROM unnest($2::int[], $3::text[]) AS t(p, u)
		ON CONFLICT DO NOTHING`, executionID, positions, urls)
	return classify("add extraction items", err)
}

func (s *ExtractStore) SetResult(ctx context.Context, executionID, url string, r extract.Result) error {
	var productID any
	if r.ProductID != "" {
		productID = r.ProductID
	}
	_, err := s.pool.Exec(ctx, `UPDATE execution_items SET outcome = $3, message = $4, retry = $5, final_url = nullif($6, ''), product_id = $7
		WHERE execution_id = $1 AND url = $2`,
		executionID, url, string(r.Outcome), r.Message, r.Outcome.Retry(), r.FinalURL, productID)
	return classify("record extraction result", err)
}

func (s *ExtractStore) Items(ctx context.Context, executionID string, offset, limit int) ([]extract.Item, error) {
	rows, err := s.pool.Query(ctx, `SELECT i.position, i.url, coalesce(i.outcome, ''), i.message, i.retry, coalesce(i.final_url, ''),
			p.id::text, v.host, p.updated_at, p.data
		FROM execution_items i
		LEFT JOIN products p ON p.id = i.product_id
		LEFT JOIN vendors v ON v.id = p.vendor_id
		WHERE i.execution_id = $1 ORDER BY i.position LIMIT $2 OFFSET $3`, executionID, limit, offset)
	if err != nil {
		return nil, classify("read extraction items", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (extract.Item, error) {
		var it extract.Item
		var outcome string
		var id, vendor *string
		var updated *time.Time
		var data []byte
		if err := r.Scan(&it.Position, &it.URL, &outcome, &it.Message, &it.Retry, &it.FinalURL, &id, &vendor, &updated, &data); err != nil {
			return it, err
		}
		it.Outcome = adapter.Outcome(outcome)
		if id != nil {
			p := &product.Product{}
			if err := json.Unmarshal(data, p); err != nil {
				return it, fmt.Errorf("product %s: %w", *id, err)
			}
			p.ID = *id
			it.Product = &extract.Stored{ID: *id, Vendor: *vendor, UpdatedAt: *updated, Product: p}
		}
		return it, nil
	})
}

func (s *ExtractStore) Products(ctx context.Context, ids []string) (map[string]*extract.Stored, error) {
	out := map[string]*extract.Stored{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT p.id::text, v.host, p.updated_at, p.data FROM products p
		JOIN vendors v ON v.id = p.vendor_id WHERE p.id = ANY($1::uuid[])`, ids)
	if err != nil {
		return nil, classify("read products", err)
	}
	var id, vendor string
	var updated time.Time
	var data []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &vendor, &updated, &data}, func() error {
		p := &product.Product{}
		// go-json rather than encoding/json: a search decodes its ten results here, and
		// decoding is a visible part of a mini search's CPU.
		if err := gojson.Unmarshal(data, p); err != nil {
			return fmt.Errorf("product %s: %w", id, err)
		}
		p.ID = id
		out[id] = &extract.Stored{ID: id, Vendor: vendor, UpdatedAt: updated, Product: p}
		return nil
	})
	return out, err
}

func (s *ExtractStore) Tally(ctx context.Context, executionID string) (map[adapter.Outcome]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT coalesce(outcome, ''), count(*)::int FROM execution_items WHERE execution_id = $1 GROUP BY 1`, executionID)
	if err != nil {
		return nil, classify("count extraction items", err)
	}
	tally := map[adapter.Outcome]int{}
	var outcome string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&outcome, &n}, func() error { tally[adapter.Outcome(outcome)] = n; return nil })
	return tally, err
}

func (s *ExtractStore) PendingURLs(ctx context.Context, executionID string) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT url FROM execution_items WHERE execution_id = $1 AND outcome IS NULL
		GROUP BY url ORDER BY min(position)`, executionID)
	if err != nil {
		return nil, classify("read pending items", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func (s *ExtractStore) ListingRecords(ctx context.Context, vendor string, urls []string) (map[string]catalog.Record, error) {
	rows, err := s.pool.Query(ctx, `SELECT coalesce(l.page_url, l.url), r.adapter, r.record, r.listed_at
		FROM listings l JOIN listing_records r ON r.listing_id = l.id
		WHERE l.vendor_id = (SELECT id FROM vendors WHERE host = $1) AND coalesce(l.page_url, l.url) = ANY($2)`, vendor, urls)
	if err != nil {
		return nil, classify("read listing records of "+vendor, err)
	}
	out := make(map[string]catalog.Record, len(urls))
	var u string
	var r catalog.Record
	_, err = pgx.ForEachRow(rows, []any{&u, &r.Adapter, &r.Data, &r.ListedAt}, func() error {
		out[u] = r
		r.Data = nil // the next row scans into a buffer of its own
		return nil
	})
	if err != nil {
		return nil, classify("read listing records of "+vendor, err)
	}
	return out, nil
}

// SaveProduct writes a product only when it changed. Extractions re-read the same pages
// over and over, and rewriting an unchanged row is the costliest part of saving it: a new
// row version re-enters every index of products, the search document is recomputed
// (migration 00004) and the jsonb is TOASTed again. So an unchanged product, already
// linked to its listing (or without one to link), costs one indexed read, and its
// updated_at stays the time its data last changed.
func (s *ExtractStore) SaveProduct(ctx context.Context, vendor string, p *product.Product, at time.Time) (string, error) {
	stored := *p
	stored.ID = ""
	data, err := json.Marshal(&stored)
	if err != nil {
		return "", fmt.Errorf("encode product: %w", err)
	}
	vendorID, err := s.vendorID(ctx, vendor, at)
	if err != nil {
		return "", classify("save product", err)
	}
	var id string
	err = s.pool.QueryRow(ctx, `SELECT p.id::text FROM products p
		WHERE p.vendor_id = $1 AND p.url = $2 AND p.data = $3::jsonb
			AND (p.listing_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM listings l WHERE l.url = $2 AND l.vendor_id + 0 = $1))`,
		vendorID, p.URL, data).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", classify("save product", err)
	}
	err = s.pool.QueryRow(ctx, `INSERT INTO products (id, vendor_id, listing_id, url, data, created_at, updated_at)
		VALUES ($1, $2, (SELECT id FROM listings WHERE url = $3 AND vendor_id + 0 = $2), $3, $4, $5, $5)
		ON CONFLICT (vendor_id, url) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at,
			listing_id = coalesce(excluded.listing_id, products.listing_id)
		RETURNING id::text`, uuid.New(), vendorID, p.URL, data, at).Scan(&id)
	if err != nil {
		return "", classify("save product", err)
	}
	return id, nil
}

// vendorID returns the id of vendor's row, creating it on first sight. Vendor rows are
// never deleted nor renumbered, so ids are remembered for the life of the store.
func (s *ExtractStore) vendorID(ctx context.Context, vendor string, at time.Time) (int64, error) {
	if id, ok := s.vendors.Load(vendor); ok {
		return id.(int64), nil
	}
	var id int64
	if err := s.pool.QueryRow(ctx, `INSERT INTO vendors (host, first_seen_by_service, last_updated_by_service) VALUES ($1, $2, $2)
		ON CONFLICT (host) DO UPDATE SET host = excluded.host RETURNING id`, vendor, at).Scan(&id); err != nil {
		return 0, err
	}
	s.vendors.Store(vendor, id)
	return id, nil
}

// similarCandidates is how many nearest titles, per wanted similar product, the
// type and brand bonuses re-rank.
const similarCandidates = 4

// Similar finds each product's nearest titles with pg_trgm: the GiST index
// products_search_title_knn yields the nearest lower-cased titles in distance order
// (a KNN scan reads only those rows), and the score (see extract.Similar) re-ranks them
// with the product type and brand bonuses. Titles less than 0.3 similar (pg_trgm's own
// default threshold) are not similar at all. One query serves a whole page of results.
func (s *ExtractStore) Similar(ctx context.Context, ids []string, limit int) (map[string][]extract.Similar, error) {
	out := map[string][]extract.Similar{}
	if len(ids) == 0 || limit <= 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT q.id::text, n.id::text, n.url, n.title, n.brand, n.score::float8
		FROM products q
		CROSS JOIN LATERAL (
			SELECT c.id, c.url, c.data->>'title' AS title, c.data->>'brand' AS brand,
				round((0.8 * similarity(c.search_title, q.search_title)
					+ 0.1 * coalesce(lower(c.data->>'product_type') = lower(q.data->>'product_type'), false)::int
					+ 0.1 * coalesce(lower(c.data->>'brand') = lower(q.data->>'brand'), false)::int)::numeric, 4) AS score
			FROM (SELECT * FROM products k WHERE k.id <> q.id
				ORDER BY k.search_title <-> q.search_title LIMIT $3) c
			WHERE similarity(c.search_title, q.search_title) >= 0.3
			ORDER BY score DESC, c.id
			LIMIT $2
		) n
		WHERE q.id = ANY($1::uuid[])
		ORDER BY q.id, n.score DESC, n.id`, ids, limit, limit*similarCandidates)
	if err != nil {
		return nil, classify("find similar products", err)
	}
	var id string
	var sim extract.Similar
	_, err = pgx.ForEachRow(rows, []any{&id, &sim.ID, &sim.URL, &sim.Title, &sim.Brand, &sim.Similarity}, func() error {
		out[id] = append(out[id], sim)
		return nil
	})
	if err != nil {
		return nil, classify("find similar products", err)
	}
	return out, nil
}
