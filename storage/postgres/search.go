package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	gojson "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/search"
)

// SearchStore implements search.Store over the products table's search columns
// (migrations 00004 and 00006).
type SearchStore struct{ pool *pgxpool.Pool }

// NewSearchStore returns a search.Store over pool.
func NewSearchStore(pool *pgxpool.Pool) *SearchStore { return &SearchStore{pool: pool} }

var _ search.Store = (*SearchStore)(nil)

// Candidates implements search.Store. The text conditions are websearch_to_tsquery
// expressions against the weighted document; ts_rank's default weights (A 1.0, B 0.4,
// C 0.2) with length normalisation 1 order the matches, within q.Window of them.
func (s *SearchStore) Candidates(ctx context.Context, q search.CandidateQuery) ([]search.Candidate, error) {
	if q.Listings {
		return s.listingCandidates(ctx, q)
	}
	var args sqlArgs
	arg := args.add
	filters, needsVendor := candidateFilters(q, arg)
	from := "products p"
	if needsVendor {
		from += " JOIN vendors v ON v.id = p.vendor_id"
	}
	and := func(conds ...string) string { return strings.Join(append(conds, filters...), " AND ") }
	rankQ, n := rankAndLimit(q)
	limit := arg(n)

	// top holds the chosen ids with their text rank.
	var top string
	switch {
	case q.Match == "":
		rank := "0::float8"
		order := "p.updated_at DESC, p.id"
		if rankQ != "" {
			rank = "ts_rank(p.search_doc, websearch_to_tsquery('english', " + arg(rankQ) + "), 1)::float8"
			order = "rank DESC, p.id"
		}
		top = `SELECT p.id, ` + rank + ` AS rank FROM ` + from + ` WHERE ` + and("true") + ` ORDER BY ` + order + ` LIMIT ` + limit
	default:
		match := "p.search_doc @@ websearch_to_tsquery('english', " + arg(q.Match) + ")"
		pool := `SELECT p.id, p.search_doc FROM ` + from + ` WHERE ` + and(match)
		if q.Window > 0 {
			// The window: rows the index yields, title and label matches first. A LIMIT
			// under each tier lets Postgres stop reading matches once it is full.
			w := arg(q.Window)
			labels := "p.search_labels @@ websearch_to_tsquery('english', " + arg(q.Match) + ")"
			pool = `SELECT * FROM ((SELECT p.id, p.search_doc FROM ` + from + ` WHERE ` + and(labels) + ` LIMIT ` + w + `)
				UNION ALL (` + pool + ` AND NOT ` + labels + ` LIMIT ` + w + `)) tiers LIMIT ` + w
		}
		top = `SELECT id, ts_rank(search_doc, websearch_to_tsquery('english', ` + arg(rankQ) + `), 1)::float8 AS rank
			FROM (` + pool + `) pool ORDER BY rank DESC, id LIMIT ` + limit
	}
	similar := q.Similar
	if q.Fuzzy != "" {
		if similar == "" {
			similar = q.Fuzzy
		}
		f := arg(q.Fuzzy)
		top = `SELECT id, max(rank) AS rank FROM ((` + top + `) UNION ALL (SELECT p.id, 0::float8 FROM ` + from + `
			WHERE ` + and(f+" <% p.search_title") + ` ORDER BY word_similarity(` + f + `, p.search_title) DESC, p.id LIMIT ` + limit + `)) found GROUP BY id`
	}
	sim := "0::float8"
	if similar != "" {
		sim = "word_similarity(" + arg(similar) + ", p.search_title)::float8"
	}
	// The product fields are read for the chosen rows only, not for every match, and in
	// one pass over each document: every p.data ->> 'field' would decompress the whole
	// document again.
	sql := `WITH top AS (` + top + `)
		SELECT p.id::text, v.host, p.url, coalesce(d.title, ''), coalesce(d.brand, d.vendor, ''), coalesce(d.product_type, ''),
			left(coalesce(d.description, d.description_html, ''), 1000),
			coalesce(d.tags, '[]'), coalesce(jsonb_path_query_array(d.options, '$[*].values[*]'), '[]'),
			p.search_min_price::float8, p.search_max_price::float8, p.search_available, p.updated_at, top.rank, ` + sim + ` AS sim
		FROM top JOIN products p ON p.id = top.id JOIN vendors v ON v.id = p.vendor_id,
			LATERAL jsonb_to_record(p.data) AS d(title text, brand text, vendor text, product_type text,
				description text, description_html text, tags jsonb, options jsonb)
		ORDER BY top.rank + ` + sim + ` DESC, p.updated_at DESC, p.id LIMIT ` + limit
	out, err := s.queryCandidates(ctx, sql, args.values, scanCandidate)
	return out, classify("search candidates", err)
}

// sqlArgs collects the arguments of a statement being written.
type sqlArgs struct{ values []any }

// add adds an argument and returns its placeholder.
func (a *sqlArgs) add(v any) string {
	a.values = append(a.values, v)
	return fmt.Sprintf("$%d", len(a.values))
}

// rankAndLimit are the text query q's matches are ranked by (Match when Rank is empty) and
// how many candidates it asks for (100 when it does not say).
func rankAndLimit(q search.CandidateQuery) (rank string, limit int) {
	rank, limit = q.Rank, q.Limit
	if rank == "" {
		rank = q.Match
	}
	if limit <= 0 {
		limit = 100
	}
	return rank, limit
}

// queryCandidates runs a candidate query.
func (s *SearchStore) queryCandidates(ctx context.Context, sql string, args []any, scan pgx.RowToFunc[search.Candidate]) ([]search.Candidate, error) {
	var out []search.Candidate
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Every condition here has an index. Without this setting, a LIMIT over matches
		// the planner believes plentiful (it cannot see that a price ceiling or an
		// exclusion leaves few) tempts it to read the whole table in order, hoping to stop
		// early, which is far slower than using the indexes.
		if _, err := tx.Exec(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
			return err
		}
		// Planned with the actual values (an unnamed statement), so that the tsquery is
		// built once at planning rather than for every row, as a cached generic plan would.
		rows, err := tx.Query(ctx, sql, append([]any{pgx.QueryExecModeExec}, args...)...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, scan)
		return err
	})
	return out, err
}

// listingCandidates implements Candidates for q.Listings: the listings no product has
// replaced (none has the listing's URL; an extraction links the product it saves to the
// listing of that URL), matched by name first, then by the titles of their collections,
// within q.Window; ranked by ts_rank over the name (search_name, migration 00015). The
// titles of the chosen listings' collections are read for the chosen rows only.
func (s *SearchStore) listingCandidates(ctx context.Context, q search.CandidateQuery) ([]search.Candidate, error) {
	switch {
	case q.MinPrice != nil || q.MaxPrice != nil || q.InStock || q.Exclude != "" || q.Brand != "" || q.ProductType != "" || len(q.Tags) > 0:
		return nil, nil // a listing cannot show that it meets these
	case q.Match == "" && q.Vendor == "":
		// Without words, listings are taken most recently found first, which only a
		// vendor's own listings are indexed for.
		return nil, nil
	}
	var args sqlArgs
	arg := args.add
	filters := []string{"NOT EXISTS (SELECT 1 FROM products p WHERE p.url = l.url AND p.vendor_id = l.vendor_id)"}
	if len(q.NotIDs) > 0 {
		filters = append(filters, "l.id <> ALL("+arg(q.NotIDs)+"::uuid[])")
	}
	if q.Vendor != "" {
		filters = append(filters, "l.vendor_id = (SELECT id FROM vendors WHERE host = "+arg(q.Vendor)+")")
	}
	and := func(conds ...string) string { return strings.Join(append(conds, filters...), " AND ") }
	rankQ, n := rankAndLimit(q)
	limit := arg(n)

	// top holds the chosen ids with their text rank.
	var top string
	switch {
	case q.Match == "":
		top = `SELECT l.id, 0::float8 AS rank FROM listings l WHERE ` + and("true") + ` ORDER BY l.ordinal DESC LIMIT ` + limit
	default:
		match := "websearch_to_tsquery('english', " + arg(q.Match) + ")"
		window := ""
		if q.Window > 0 {
			window = " LIMIT " + arg(q.Window)
		}
		// A matching collection's links are read in the collection's order, at most a
		// window of them: left to itself, the planner reads every listing, or every link of
		// the collection, to find a few. A listing in several matching collections comes
		// once per collection: the window counts links, and DISTINCT reads only what the
		// window let through.
		links := `SELECT cl.listing_id FROM collection_listings cl WHERE cl.collection_id = c.id ORDER BY cl.ordinal` + window
		pool := `SELECT DISTINCT id, search_name FROM ((SELECT l.id, l.search_name FROM listings l WHERE ` + and("l.search_name @@ "+match) + window + `)
			UNION ALL (SELECT l.id, l.search_name FROM collections c CROSS JOIN LATERAL (` + links + `) cl JOIN listings l ON l.id = cl.listing_id
				WHERE ` + and("to_tsvector('english'::regconfig, coalesce(c.title, '')) @@ "+match, "NOT l.search_name @@ "+match) + window + `)` + window + `) tiers`
		top = `SELECT id, ts_rank(search_name, websearch_to_tsquery('english', ` + arg(rankQ) + `), 1)::float8 AS rank
			FROM (` + pool + `) pool ORDER BY rank DESC, id LIMIT ` + limit
	}
	sim := "0::float8"
	if q.Similar != "" {
		sim = "word_similarity(" + arg(q.Similar) + ", lower(coalesce(l.name, '')))::float8"
	}
	sql := `WITH top AS (` + top + `)
		SELECT l.id::text, v.host, l.url, coalesce(l.name, ''), cols.titles, l.price_current::float8, l.last_updated_by_service,
			top.rank, ` + sim + ` AS sim
		FROM top JOIN listings l ON l.id = top.id JOIN vendors v ON v.id = l.vendor_id
			CROSS JOIN LATERAL (SELECT coalesce(array_agg(c.title ORDER BY c.title) FILTER (WHERE c.title <> ''), '{}') AS titles
				FROM collection_listings cl JOIN collections c ON c.id = cl.collection_id WHERE cl.listing_id = l.id) cols
		ORDER BY top.rank + ` + sim + ` DESC, l.last_updated_by_service DESC, l.id LIMIT ` + limit
	out, err := s.queryCandidates(ctx, sql, args.values, scanListingCandidate)
	return out, classify("search listing candidates", err)
}

func scanListingCandidate(r pgx.CollectableRow) (search.Candidate, error) {
	c := search.Candidate{Listing: true}
	var price *float64
	if err := r.Scan(&c.ID, &c.Vendor, &c.URL, &c.Title, &c.Collections, &price, &c.UpdatedAt, &c.TextRank, &c.Similarity); err != nil {
		return c, err
	}
	// A listing shows one price: it stands for both ends of the range ranking reads.
	c.MinPrice, c.MaxPrice = price, price
	return c, nil
}

func scanCandidate(r pgx.CollectableRow) (search.Candidate, error) {
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
}

// candidateFilters writes q's conditions other than its text match, and reports whether
// they read the vendors table.
func candidateFilters(q search.CandidateQuery, arg func(any) string) (where []string, needsVendor bool) {
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
		needsVendor = true
	}
	if q.Brand != "" {
		where = append(where, "p.search_brand = "+arg(q.Brand))
	}
	if q.ProductType != "" {
		where = append(where, "p.search_type = "+arg(q.ProductType))
	}
	for _, t := range q.Tags {
		where = append(where, "EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.data -> 'tags') t WHERE lower(t) = lower("+arg(strings.TrimSpace(t))+"))")
	}
	return where, needsVendor
}

// jsonStrings reads the strings of a JSON array; other values are skipped. go-json, because
// every search decodes the tags and option values of each of its candidates.
func jsonStrings(raw []byte) []string {
	var strs []string
	if gojson.Unmarshal(raw, &strs) == nil {
		return strs
	}
	var xs []any
	if gojson.Unmarshal(raw, &xs) != nil {
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

// Vocabulary implements search.Store: the words of product titles, product types and tags,
// of listing names and of collection titles, with their document counts; the brands and
// the product types, most common first.
func (s *SearchStore) Vocabulary(ctx context.Context) (search.Vocabulary, error) {
	v := search.Vocabulary{Words: map[string]int{}}
	rows, err := s.pool.Query(ctx, `SELECT word, sum(ndoc)::int FROM (
			SELECT word, ndoc FROM ts_stat('SELECT search_words FROM products')
			UNION ALL SELECT word, ndoc FROM ts_stat('SELECT to_tsvector(''simple'', lower(coalesce(name, ''''))) FROM listings')
			UNION ALL SELECT word, ndoc FROM ts_stat('SELECT to_tsvector(''simple'', lower(coalesce(title, ''''))) FROM collections')
		) words WHERE length(word) >= 3 GROUP BY word`)
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
	rows, err = s.pool.Query(ctx, `SELECT search_type FROM products WHERE search_type <> ''
		GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 2000`)
	if err != nil {
		return v, classify("read search product types", err)
	}
	v.ProductTypes, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return v, classify("read search product types", err)
}

// Listed implements search.Store.
func (s *SearchStore) Listed(ctx context.Context, ids []string) (map[string]search.Listed, error) {
	out := make(map[string]search.Listed, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT 0, `+listingColumns+`, v.host,
			(SELECT p.id::text FROM products p WHERE p.url = l.url AND p.vendor_id = l.vendor_id)
		FROM listings l JOIN vendors v ON v.id = l.vendor_id WHERE l.id = ANY($1::uuid[])`, ids)
	if err != nil {
		return nil, classify("read listed hits", err)
	}
	defer rows.Close()
	// The listing's columns are read as the listings endpoint reads them, with the
	// vendor's host and the replacing product's id after them.
	row := newListingRow()
	var host, productID pgtype.Text
	row.dest = append(row.dest, &host, &productID)
	for rows.Next() {
		l, _, err := row.scan(rows, "")
		if err != nil {
			return nil, fmt.Errorf("read listed hits: %w", err)
		}
		l.Vendor = host.String
		out[l.ID] = search.Listed{Listing: l, ProductID: productID.String}
	}
	return out, classify("read listed hits", rows.Err())
}

// SaveHits implements search.Store; a resumed search overwrites what it saved before.
func (s *SearchStore) SaveHits(ctx context.Context, executionID string, hits []search.StoredHit) error {
	positions := make([]int32, len(hits))
	ids := make([]string, len(hits))
	listingIDs := make([]string, len(hits))
	scores := make([]float64, len(hits))
	reasons := make([]string, len(hits))
	for i, h := range hits {
		positions[i], ids[i], listingIDs[i], scores[i] = int32(i), h.ProductID, h.ListingID, h.Score
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
		_, err := tx.Exec(ctx, `INSERT INTO search_hits (execution_id, position, product_id, listing_id, score, reasons)
			SELECT $1, p, nullif(i, '')::uuid, nullif(l, '')::uuid, s, r::jsonb
			FROM unnest($2::int[], $3::text[], $4::text[], $5::float8[], $6::text[]) AS t(p, i, l, s, r)`,
			executionID, positions, ids, listingIDs, scores, reasons)
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
	rows, err := s.pool.Query(ctx, `SELECT coalesce(product_id::text, ''), coalesce(listing_id::text, ''), score, reasons FROM search_hits
		WHERE execution_id = $1 ORDER BY position LIMIT $2 OFFSET $3`, executionID, limit, offset)
	if err != nil {
		return nil, 0, classify("read search hits", err)
	}
	hits, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.StoredHit, error) {
		var h search.StoredHit
		var raw []byte
		if err := r.Scan(&h.ProductID, &h.ListingID, &h.Score, &raw); err != nil {
			return h, err
		}
		return h, json.Unmarshal(raw, &h.Reasons)
	})
	return hits, total, classify("read search hits", err)
}
