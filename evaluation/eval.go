package evaluation

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/search"
)

// K is the cut-off of nDCG and of the results judged.
const K = 10

// System is one search system under evaluation: it returns product (or listing) ids,
// best first.
type System func(ctx context.Context, c Case) ([]string, error)

// Engine is Stockroom's search (the pipeline, without credits).
func Engine(p *search.Pipeline) System { return engine(p, false) }

// MiniEngine is the mini search, which ranks fewer candidates.
func MiniEngine(p *search.Pipeline) System { return engine(p, true) }

func engine(p *search.Pipeline, mini bool) System {
	return func(ctx context.Context, c Case) ([]string, error) {
		out, err := p.Search(ctx, search.Query{Request: search.Request{Query: c.Query, Profile: c.Profile, Limit: K}, Mini: mini})
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(out.Hits))
		for i, h := range out.Hits {
			ids[i] = h.ID()
		}
		return ids, nil
	}
}

// Baseline is plain full-text search: ts_rank of plainto_tsquery over title and
// description, no weights, no filters, no profile.
func Baseline(pool *pgxpool.Pool) System {
	return func(ctx context.Context, c Case) ([]string, error) {
		rows, err := pool.Query(ctx, `SELECT id::text FROM (
				SELECT id, to_tsvector('english', coalesce(data ->> 'title', '') || ' ' || coalesce(data ->> 'description', '')) AS doc
				FROM products) p
			WHERE doc @@ plainto_tsquery('english', $1)
			ORDER BY ts_rank(doc, plainto_tsquery('english', $1)) DESC, id LIMIT $2`, c.Query, K)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, pgx.RowTo[string])
	}
}

// Score is one system's figures over a set.
type Score struct {
	NDCG, MRR  float64
	Violations int
	Queries    int
	// FromListings counts the results (top K) that are listings no product replaces.
	FromListings int
	// PerCase is each case's nDCG@K, by id.
	PerCase map[string]float64
}

// Evaluate runs every case the catalog can answer through sys.
func Evaluate(ctx context.Context, cat *Catalog, cases []Case, sys System) (Score, error) {
	s := Score{PerCase: map[string]float64{}}
	for i := range cases {
		c := &cases[i]
		if c.Vendor != "" && !cat.Vendors[c.Vendor] {
			continue
		}
		ids, err := sys(ctx, *c)
		if err != nil {
			return s, fmt.Errorf("case %s: %w", c.ID, err)
		}
		if len(ids) > K {
			ids = ids[:K]
		}
		gains := make([]int, len(ids))
		for r, id := range ids {
			e := cat.ByID[id]
			if e == nil {
				return s, fmt.Errorf("case %s: unknown product %s", c.ID, id)
			}
			if c.Violates(e) != "" {
				s.Violations++
			}
			if cat.Listings[id] {
				s.FromListings++
			}
			gains[r] = c.Grade(e)
		}
		ideal := idealGains(cat, c)
		n := ndcg(gains, ideal)
		s.PerCase[c.ID] = n
		s.NDCG += n
		s.MRR += reciprocalRank(gains)
		s.Queries++
	}
	if s.Queries > 0 {
		s.NDCG /= float64(s.Queries)
		s.MRR /= float64(s.Queries)
	}
	return s, nil
}

// idealGains are the K best grades the catalog holds for c.
func idealGains(cat *Catalog, c *Case) []int {
	var g []int
	for i := range cat.Entries {
		if c.Vendor != "" && cat.Entries[i].Vendor != c.Vendor {
			continue
		}
		if v := c.Grade(&cat.Entries[i]); v > 0 {
			g = append(g, v)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(g)))
	if len(g) > K {
		g = g[:K]
	}
	return g
}

// ndcg is nDCG with gains 2^grade - 1; a query with nothing relevant in the catalog
// scores 1 when nothing relevant is returned (there is nothing to find).
func ndcg(gains, ideal []int) float64 {
	idcg := dcg(ideal)
	if idcg == 0 {
		return 1
	}
	return dcg(gains) / idcg
}

func dcg(gains []int) float64 {
	var sum float64
	for i, g := range gains {
		sum += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	return sum
}

// reciprocalRank is 1/rank of the first result graded 2 or more (clearly relevant).
func reciprocalRank(gains []int) float64 {
	for i, g := range gains {
		if g >= 2 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// Report prints the systems side by side: over the fully extracted catalog, and over the
// mostly crawled one (one product in CrawledExtractEvery extracted), where results may be
// listings.
func Report(w io.Writer, engine, mini, baseline, crawled, crawledMini Score) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "system\tqueries\tnDCG@%d\tMRR\thard-constraint violations\tresults from listings\t\n", K)
	row := func(name string, s Score) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%d\t%d\t\n", name, s.Queries, s.NDCG, s.MRR, s.Violations, s.FromListings)
	}
	row("stockroom", engine)
	row("stockroom mini", mini)
	row("baseline (ts_rank, plainto_tsquery)", baseline)
	row(fmt.Sprintf("stockroom, mostly crawled (1 in %d extracted)", CrawledExtractEvery), crawled)
	row(fmt.Sprintf("stockroom mini, mostly crawled (1 in %d extracted)", CrawledExtractEvery), crawledMini)
	tw.Flush()
	fmt.Fprintf(w, "nDCG@%d difference: %+.3f (bar: +0.150)\n", K, engine.NDCG-baseline.NDCG)
}

// Worst lists the cases where the engine does worst, for tuning.
func Worst(w io.Writer, engine Score, cases []Case, n int) {
	ids := make([]string, 0, len(engine.PerCase))
	for id := range engine.PerCase {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return engine.PerCase[ids[a]] < engine.PerCase[ids[b]] })
	byID := map[string]string{}
	for _, c := range cases {
		byID[c.ID] = c.Query
	}
	for _, id := range ids[:min(n, len(ids))] {
		fmt.Fprintf(w, "  %-5s %.3f  %s\n", id, engine.PerCase[id], strings.TrimSpace(byID[id]))
	}
}
