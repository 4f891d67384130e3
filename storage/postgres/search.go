package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/search"
)

// SearchStore implements search.Store over the products table's search columns
// (migration 00004).
type SearchStore struct{ pool *pgxpool.Pool }

// NewSearchStore returns a search.Store over pool.
func NewSearchStore(pool *pgxpool.Pool) *SearchStore { return &SearchStore{pool: pool} }

var _ search.Store = (*SearchStore)(nil)

// Candidates implements search.Store. The text conditions are websearch_to_tsquery
// expressions against the weighted document; ts_rank's default weights (A 1.0, B 0.4,
// C 0.2) with length normalisation 1 order the matches.
func (s *SearchStore) Candidates(ctx context.Context, q search.CandidateQuery) ([]search.Candidate, error) {
	var where []string
	args := []any{}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	rankQ := q.Rank
	if rankQ == "" {
		rankQ = q.Match
	}
	rankExpr, simExpr, order := "0::float8", "0::float8", "p.updated_at DESC, p.id"
	if rankQ != "" {
		rankExpr = "ts_rank(p.search_doc, websearch_to_tsquery('english', " + arg(rankQ) + "), 1)::float8"
		order = "rank DESC, p.id"
	}
	switch {
	case q.Match != "" && q.Fuzzy != "":
		f := arg(q.Fuzzy)
		where = append(where, "(p.search_doc @@ websearch_to_tsquery('english', "+arg(q.Match)+") OR "+f+" <% p.search_title)")
		simExpr = "word_similarity(" + f + ", p.search_title)::float8"
		order = "(" + rankExpr + " + " + simExpr + ") DESC, p.id"
	case q.Match != "":
		where = append(where, "p.search_doc @@ websearch_to_tsquery('english', "+arg(q.Match)+")")
	}
	if q.Exclude != "" {
		where = append(where, "NOT (p.search_doc @@ websearch_to_tsquery('english', "+arg(q.Exclude)+"))")
	}
	if len(q.NotIDs) > 0 {
		where = append(where, "p.id <> ALL("+arg(q.NotIDs)+"::uuid[])")
	}
	if q.MinPrice != nil {
		where = append(where, "p.search_min_price >= "+arg(*q.MinPrice))
	}
	if q.MaxPrice != nil {
		where = append(where, "p.search_max_price <= "+arg(*q.MaxPrice))
	}
	if q.InStock {
		where = append(where, "p.search_available")
	}
	if q.Vendor != "" {
		a := arg(q.Vendor)
		where = append(where, "(v.host = "+a+" OR p.search_brand = "+a+")")
	}
	if q.Brand != "" {
		where = append(where, "p.search_brand = "+arg(q.Brand))
	}
	if q.ProductType != "" {
		where = append(where, "lower(p.data ->> 'product_type') = "+arg(q.ProductType))
	}
	for _, t := range q.Tags {
		where = append(where, "EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.data -> 'tags') t WHERE lower(t) = lower("+arg(strings.TrimSpace(t))+"))")
	}
	if len(where) == 0 {
		where = append(where, "true")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	// The ranking picks the ids first: the product fields are read for the LIMIT rows
	// only, not for every match (that is most of a query's cost otherwise).
	sql := `WITH top AS (
			SELECT p.id, ` + rankExpr + ` AS rank, ` + simExpr + ` AS sim
			FROM products p JOIN vendors v ON v.id = p.vendor_id
			WHERE ` + strings.Join(where, " AND ") + `
			ORDER BY ` + order + ` LIMIT ` + arg(limit) + `)
		SELECT p.id::text, v.host, p.url, coalesce(p.data ->> 'title', ''), coalesce(p.data ->> 'brand', p.data ->> 'vendor', ''),
			coalesce(p.data ->> 'product_type', ''),
			left(coalesce(p.data ->> 'description', p.data ->> 'description_html', ''), 1000),
			coalesce(p.data -> 'tags', '[]'), jsonb_path_query_array(p.data, '$.options[*].values[*]'),
			p.search_min_price::float8, p.search_max_price::float8, p.search_available, p.updated_at, top.rank, top.sim
		FROM top JOIN products p ON p.id = top.id JOIN vendors v ON v.id = p.vendor_id
		ORDER BY top.rank + top.sim DESC, p.updated_at DESC, p.id`
	// Planned with the actual values (an unnamed statement), so that the tsquery is built
	// once at planning rather than for every row, as a cached generic plan would.
	rows, err := s.pool.Query(ctx, sql, append([]any{pgx.QueryExecModeExec}, args...)...)
	if err != nil {
		return nil, classify("search candidates", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Candidate, error) {
		var c search.Candidate
		var tags, options []byte
		if err := r.Scan(&c.ID, &c.Vendor, &c.URL, &c.Title, &c.Brand, &c.ProductType, &c.Description, &tags, &options,
			&c.MinPrice, &c.MaxPrice, &c.Available, &c.UpdatedAt, &c.TextRank, &c.Similarity); err != nil {
			return c, err
		}
		c.Description = stripTags(c.Description)
		c.Tags = jsonStrings(tags)
		c.Options = jsonStrings(options)
		return c, nil
	})
	return out, classify("search candidates", err)
}

// jsonStrings reads the strings of a JSON array; other values are skipped.
func jsonStrings(raw []byte) []string {
	var xs []any
	if json.Unmarshal(raw, &xs) != nil {
		return nil
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// stripTags turns description markup into text: tags become spaces (ranking reads words,
// not layout; the stored product keeps its markup).
func stripTags(s string) string {
	if !strings.ContainsRune(s, '<') {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
			b.WriteString(" . ")
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Vocabulary implements search.Store: the words of titles, product types and tags with
// their document counts, the brands and the product types, most common first.
func (s *SearchStore) Vocabulary(ctx context.Context) (search.Vocabulary, error) {
	v := search.Vocabulary{Words: map[string]int{}}
	rows, err := s.pool.Query(ctx, `SELECT word, ndoc FROM ts_stat($$SELECT to_tsvector('simple', search_title || ' '
		|| coalesce(data ->> 'product_type', '') || ' ' || coalesce(data ->> 'tags', '')) FROM products$$) WHERE length(word) >= 3`)
	if err != nil {
		return v, classify("read search vocabulary", err)
	}
	var word string
	var n int
	if _, err := pgx.ForEachRow(rows, []any{&word, &n}, func() error { v.Words[word] = n; return nil }); err != nil {
		return v, classify("read search vocabulary", err)
	}
	rows, err = s.pool.Query(ctx, `SELECT search_brand FROM products WHERE search_brand <> ''
		GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 5000`)
	if err != nil {
		return v, classify("read search brands", err)
	}
	if v.Brands, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return v, classify("read search brands", err)
	}
	rows, err = s.pool.Query(ctx, `SELECT lower(data ->> 'product_type') FROM products WHERE coalesce(data ->> 'product_type', '') <> ''
		GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2000`)
	if err != nil {
		return v, classify("read search product types", err)
	}
	v.ProductTypes, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return v, classify("read search product types", err)
}

// SaveHits implements search.Store; a resumed search overwrites what it saved before.
func (s *SearchStore) SaveHits(ctx context.Context, executionID string, hits []search.StoredHit) error {
	positions := make([]int32, len(hits))
	ids := make([]string, len(hits))
	scores := make([]float64, len(hits))
	reasons := make([]string, len(hits))
	for i, h := range hits {
		positions[i], ids[i], scores[i] = int32(i), h.ProductID, h.Score
		r := h.Reasons
		if r == nil {
			r = []string{}
		}
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		reasons[i] = string(raw)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM search_hits WHERE execution_id = $1`, executionID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO search_hits (execution_id, position, product_id, score, reasons)
			SELECT $1, p, i::uuid, s, r::jsonb FROM unnest($2::int[], $3::text[], $4::float8[], $5::text[]) AS t(p, i, s, r)`,
			executionID, positions, ids, scores, reasons)
		return err
	})
	return classify("save search hits", err)
}

// Hits implements search.Store.
func (s *SearchStore) Hits(ctx context.Context, executionID string, offset, limit int) ([]search.StoredHit, int, error) {
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM search_hits WHERE execution_id = $1`, executionID).Scan(&total); err != nil {
		return nil, 0, classify("count search hits", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT product_id::text, score, reasons FROM search_hits
		WHERE execution_id = $1 ORDER BY position LIMIT $2 OFFSET $3`, executionID, limit, offset)
	if err != nil {
		return nil, 0, classify("read search hits", err)
	}
	hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.StoredHit, error) {
		var h search.StoredHit
		var raw []byte
		if err := r.Scan(&h.ProductID, &h.Score, &raw); err != nil {
			return h, err
		}
		return h, json.Unmarshal(raw, &h.Reasons)
	})
	return hits, total, classify("read search hits", err)
}
