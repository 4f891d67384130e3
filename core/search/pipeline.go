package search

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/extract"
)

// PipelineOptions tune a Pipeline. The zero value is usable.
type PipelineOptions struct {
	// DefaultLimit is the number of results of a search that asks for none. Default 50.
	DefaultLimit int
	// MaxLimit caps a search's results. Default 100.
	MaxLimit int
	// MinResults: soft constraints are relaxed while fewer than min(limit, MinResults)
	// products match. Default 10.
	MinResults int
	// Candidates is how many products retrieval hands to ranking. Default 300.
	Candidates int
	// MiniCandidates is the same for mini searches, which give up a little ranking depth
	// to stay within their latency budget (core/search/RATIONALE.md has the figures).
	// Default 30.
	MiniCandidates int
	// RankWindow bounds how many text matches Postgres orders by ts_rank, as a multiple
	// of the candidates retrieval asks for (CandidateQuery.Window); title and label
	// matches fill the window first. It keeps a broad word over a large catalog as cheap
	// as a narrow one. Default 4.
	RankWindow int
	// VocabularyTTL is how long the catalog vocabulary (for spelling and brands) is
	// reused; an older one is refreshed in the background. Default 5m.
	VocabularyTTL time.Duration
	// Planner, when set, is asked first to understand the query and re-rank the results;
	// the deterministic engine is used whenever it fails. Default: none.
	Planner Planner
	Logger  *slog.Logger
}

func (o PipelineOptions) withDefaults() PipelineOptions {
	if o.DefaultLimit <= 0 {
		o.DefaultLimit = 50
	}
	if o.MaxLimit <= 0 {
		o.MaxLimit = 100
	}
	if o.MinResults <= 0 {
		o.MinResults = 10
	}
	if o.Candidates <= 0 {
		o.Candidates = 300
	}
	if o.MiniCandidates <= 0 {
		o.MiniCandidates = 30
	}
	if o.RankWindow <= 0 {
		o.RankWindow = 4
	}
	if o.VocabularyTTL <= 0 {
		o.VocabularyTTL = 5 * time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Products loads stored products by id; extract.Store is one.
type Products interface {
	Products(ctx context.Context, ids []string) (map[string]*extract.Stored, error)
}

// Pipeline understands, retrieves and ranks: the work of a search, run as an execution
// (Run) or while the caller waits (Search).
type Pipeline struct {
	store      Store
	products   Products
	executions execution.Store
	runner     *execution.Runner
	opts       PipelineOptions

	mu           sync.Mutex
	parser       *parser
	parsedAt     time.Time
	emptyCatalog bool // the parser's vocabulary was read from an empty catalog
	refreshes    bool
}

// NewPipeline returns a Pipeline.
func NewPipeline(store Store, products Products, executions execution.Store, runner *execution.Runner, opts PipelineOptions) *Pipeline {
	return &Pipeline{store: store, products: products, executions: executions, runner: runner, opts: opts.withDefaults()}
}

// Query is one search as the pipeline runs it.
type Query struct {
	Request
	Filters Filters
	// Mini searches use a smaller candidate pool and return at most MaxMiniResults.
	Mini bool
	// Paged searches (legacy /api/search) may keep up to MaxPagedResults results so that
	// later pages exist.
	Paged bool
}

// MaxPagedResults caps the results a paged (legacy filtered) search ranks.
const MaxPagedResults = 1000

// Outcome is what a search found, with how it read the query.
type Outcome struct {
	Hits       []StoredHit
	Relaxed    []string
	Understood Understood
	Candidates int
}

// Run runs search execution id; it is the queue's handler for execution.AgenticSearch.
func (p *Pipeline) Run(ctx context.Context, id string) error {
	e, err := p.executions.Get(ctx, id, "")
	if err != nil {
		return err
	}
	var req Request
	if err := json.Unmarshal(e.Parameters, &req); err != nil {
		return fmt.Errorf("read parameters of %s: %w", id, err)
	}
	return p.runner.Run(ctx, id, func(ctx context.Context, job *execution.Job) (any, error) {
		return p.run(ctx, job, Query{Request: req})
	})
}

func (p *Pipeline) run(ctx context.Context, job *execution.Job, q Query) (any, error) {
	job.Step(0, execution.Running)
	pl, err := p.understand(ctx, q)
	if err != nil {
		return nil, err
	}
	job.Step(1, execution.Running)
	cands, err := p.retrieve(ctx, pl, p.opts.Candidates)
	if err != nil {
		return nil, err
	}
	job.SetProgress(Progress{CandidatesFound: len(cands)})
	job.Step(2, execution.Running)
	ranked, relaxed := rank(cands, pl)
	job.SetProgress(Progress{CandidatesFound: len(cands), ProductsRanked: len(ranked)})
	if len(relaxed) > 0 {
		// Relaxation happens inside ranking; the step shows that it was needed.
		job.Step(3, execution.Running)
	}
	hits := p.rerank(ctx, q, ranked)
	job.Step(4, execution.Running)
	if err := p.store.SaveHits(ctx, job.ID, hits); err != nil {
		return nil, err
	}
	job.Step(4, execution.Completed)
	return Result{ProductsTotal: len(hits), Understood: pl.u, Relaxed: relaxed}, nil
}

// Search runs a search while the caller waits.
func (p *Pipeline) Search(ctx context.Context, q Query) (Outcome, error) {
	pl, err := p.understand(ctx, q)
	if err != nil {
		return Outcome{}, err
	}
	pool := p.opts.Candidates
	if q.Mini {
		pool = p.opts.MiniCandidates
	}
	cands, err := p.retrieve(ctx, pl, max(pool, pl.limit))
	if err != nil {
		return Outcome{}, err
	}
	ranked, relaxed := rank(cands, pl)
	return Outcome{Hits: p.rerank(ctx, q, ranked), Relaxed: relaxed, Understood: pl.u, Candidates: len(cands)}, nil
}

// limitOf resolves a request's limit.
func (p *Pipeline) limitOf(q Query) int {
	limit := q.Limit
	if limit <= 0 {
		limit = p.opts.DefaultLimit
	}
	switch {
	case q.Mini:
		return min(limit, MaxMiniResults)
	case q.Paged:
		return min(limit, MaxPagedResults)
	}
	return min(limit, p.opts.MaxLimit)
}

// understand reads the query and the profile, with the planner's help when there is one.
func (p *Pipeline) understand(ctx context.Context, q Query) (plan, error) {
	ps, err := p.currentParser(ctx)
	if err != nil {
		return plan{}, err
	}
	u := ps.parse(q.Query)
	if p.opts.Planner != nil {
		if planned, err := p.opts.Planner.Plan(ctx, q.Query, q.Profile); err != nil {
			p.opts.Logger.Warn("search planner failed; the deterministic reading is used", "err", err)
		} else {
			u = mergePlan(ps, u, planned)
		}
	}
	limit := p.limitOf(q)
	return plan{u: u, prefs: ps.readProfile(q.Profile), filters: q.Filters, limit: limit, target: min(limit, p.opts.MinResults)}, nil
}

// Preload loads the catalog vocabulary in the background, so that the first search over a
// large catalog does not wait for it: a service calls it when it starts. A search that
// comes while it loads waits for the rest of the load.
func (p *Pipeline) Preload(ctx context.Context) {
	go func() {
		if _, err := p.currentParser(ctx); err != nil {
			p.opts.Logger.Warn("preload the catalog vocabulary", "err", err)
		}
	}()
}

// currentParser returns the parser over the catalog's vocabulary, loading it the first
// time and refreshing it in the background when it is older than VocabularyTTL. A
// vocabulary read from an empty catalog is read again by the next search: products saved
// since a service started are then known at once, not a TTL later.
func (p *Pipeline) currentParser(ctx context.Context) (*parser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.parser == nil || p.emptyCatalog {
		v, err := p.store.Vocabulary(ctx)
		if err != nil {
			return nil, fmt.Errorf("load the catalog vocabulary: %w", err)
		}
		p.parser, p.parsedAt, p.emptyCatalog = newParser(v), time.Now(), len(v.Words) == 0
		return p.parser, nil
	}
	if time.Since(p.parsedAt) > p.opts.VocabularyTTL && !p.refreshes {
		p.refreshes = true
		go p.refresh(context.WithoutCancel(ctx))
	}
	return p.parser, nil
}

func (p *Pipeline) refresh(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	v, err := p.store.Vocabulary(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refreshes = false
	if err != nil {
		p.opts.Logger.Warn("refresh the catalog vocabulary", "err", err)
		p.parsedAt = time.Now() // retry after another TTL, not on every request
		return
	}
	p.parser, p.parsedAt, p.emptyCatalog = newParser(v), time.Now(), len(v.Words) == 0
}

// retrieve asks the store for candidates: products naming the head term first, then, when
// those are fewer than the pool, products matching any query word or close in spelling.
func (p *Pipeline) retrieve(ctx context.Context, pl plan, pool int) ([]Candidate, error) {
	lo, hi := pl.priceBounds()
	if lo != nil && hi != nil && *lo > *hi {
		// "over $100 under $70": no price meets both, and both are hard.
		return nil, nil
	}
	base := CandidateQuery{
		MinPrice: lo, MaxPrice: hi,
		InStock:     pl.inStock(),
		Vendor:      strings.ToLower(strings.TrimSpace(pl.filters.Vendor)),
		Brand:       strings.ToLower(strings.TrimSpace(pl.filters.Brand)),
		ProductType: strings.ToLower(strings.TrimSpace(pl.filters.ProductType)),
		Tags:        pl.filters.Tags,
	}
	var excl [][]string
	for _, ex := range pl.u.Exclude {
		excl = append(excl, ex.Phrases...)
	}
	for _, ex := range pl.prefs.avoid {
		excl = append(excl, ex.Phrases...)
	}
	base.Exclude = websearch(excl)
	var head, all [][]string
	for _, t := range pl.u.Terms {
		all = append(all, t.Phrases...)
		if t.Head {
			head = append(head, t.Phrases...)
		}
		// The broader query also looks for each word of a phrase ("coffee mug" finds mugs).
		for _, p := range t.Phrases {
			if len(p) > 1 {
				for _, w := range p {
					all = append(all, []string{w})
				}
			}
		}
	}
	for _, a := range pl.u.Attributes {
		all = append(all, a.Exact...)
	}
	for _, b := range pl.u.Brands {
		all = append(all, b.Phrases...)
	}
	base.Rank = websearch(all)
	first := base
	first.Match = websearch(head)
	if first.Match == "" {
		first.Match = base.Rank
	}
	// Listings are searched beside the products when the query's hard constraints can be
	// checked on them; each kind fills a pool of its own.
	listings := pl.listingsQualify()
	cands, err := p.retrieveMore(ctx, nil, first, pool, listings)
	if err != nil {
		return nil, err
	}
	// A second, broader query costs as much as the first: it is asked only when the head
	// term alone leaves ranking too little to choose from (or relax into).
	enough := min(pool, 2*max(pl.limit, pl.target))
	if len(cands) >= enough || base.Rank == "" || first.Match == base.Rank && len(pl.u.Corrections) == 0 && len(pl.u.Terms) == 0 {
		return cands, nil
	}
	more := base
	more.Match = base.Rank
	more.Similar = termsText(pl.u.Terms)
	if cands, err = p.retrieveMore(ctx, cands, more, pool, listings); err != nil {
		return nil, err
	}
	// Trigram retrieval costs as much as all the rest: it is the last resort, for words
	// neither the catalog nor the spelling correction knows, and over products only.
	if len(cands) >= pl.target || more.Similar == "" || !pl.u.unknownWords {
		return cands, nil
	}
	fuzzy := more
	fuzzy.Fuzzy = more.Similar
	return p.retrieveMore(ctx, cands, fuzzy, pool, false)
}

// retrieveMore adds to cands what q finds besides them: products up to pool of them and,
// when listings is set, listings up to pool of them. The two are asked at the same time.
func (p *Pipeline) retrieveMore(ctx context.Context, cands []Candidate, q CandidateQuery, pool int, listings bool) ([]Candidate, error) {
	kinds := []bool{false}
	if listings {
		kinds = append(kinds, true)
	}
	found := make([][]Candidate, len(kinds))
	g, gctx := errgroup.WithContext(ctx)
	for i, listing := range kinds {
		kq := q
		kq.Listings, kq.NotIDs = listing, nil
		for _, c := range cands {
			if c.Listing == listing {
				kq.NotIDs = append(kq.NotIDs, c.ID)
			}
		}
		kq.Limit = pool - len(kq.NotIDs)
		if kq.Limit <= 0 {
			continue
		}
		kq.Window = p.opts.RankWindow * kq.Limit
		g.Go(func() error {
			var err error
			found[i], err = p.store.Candidates(gctx, kq)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("retrieve candidates: %w", err)
	}
	type key struct {
		listing bool
		id      string
	}
	seen := make(map[key]bool, len(cands))
	for _, c := range cands {
		seen[key{c.Listing, c.ID}] = true
	}
	for _, extra := range found {
		for _, c := range extra {
			if k := (key{c.Listing, c.ID}); !seen[k] {
				seen[k] = true
				cands = append(cands, c)
			}
		}
	}
	return cands, nil
}

func termsText(ts []Term) string {
	var ws []string
	for _, t := range ts {
		ws = append(ws, t.Text)
	}
	return strings.Join(ws, " ")
}

var unsafeWord = regexp.MustCompile(`[^a-z0-9]+`)

// websearch writes phrases as a websearch_to_tsquery OR-expression.
func websearch(phrases [][]string) string {
	seen := map[string]bool{}
	var parts []string
	for _, ph := range phrases {
		var ws []string
		for _, w := range ph {
			w = unsafeWord.ReplaceAllString(strings.ToLower(w), "")
			if w != "" && w != "or" {
				ws = append(ws, w)
			}
		}
		if len(ws) == 0 {
			continue
		}
		s := strings.Join(ws, " ")
		if len(ws) > 1 {
			s = `"` + s + `"`
		}
		if !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " OR ")
}

// rerank asks the planner, when there is one, to reorder the ranked hits; it may only
// reorder, never add or drop, so hard constraints stay met.
func (p *Pipeline) rerank(ctx context.Context, q Query, ranked []scored) []StoredHit {
	hits := make([]StoredHit, len(ranked))
	for i, s := range ranked {
		hits[i] = StoredHit{Score: s.score, Reasons: s.reasons}
		if s.c.Listing {
			hits[i].ListingID = s.c.ID
		} else {
			hits[i].ProductID = s.c.ID
		}
	}
	if p.opts.Planner == nil || len(hits) < 2 {
		return hits
	}
	items := make([]RerankItem, len(ranked))
	for i, s := range ranked {
		items[i] = RerankItem{ID: s.c.ID, Title: s.c.Title, Brand: s.c.Brand, Price: s.c.MinPrice, Reasons: s.reasons}
	}
	order, err := p.opts.Planner.Rerank(ctx, q.Query, q.Profile, items)
	if err != nil {
		p.opts.Logger.Warn("search planner re-ranking failed; the deterministic order is kept", "err", err)
		return hits
	}
	byID := make(map[string]StoredHit, len(hits))
	for _, h := range hits {
		byID[h.ID()] = h
	}
	out := make([]StoredHit, 0, len(hits))
	for _, id := range order {
		if h, ok := byID[id]; ok {
			out = append(out, h)
			delete(byID, id)
		}
	}
	for _, h := range hits { // anything the planner left out keeps its place at the end
		if _, ok := byID[h.ID()]; ok {
			out = append(out, h)
		}
	}
	return out
}
