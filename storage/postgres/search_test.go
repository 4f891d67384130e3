package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/storage/postgres"
)

// item describes a test product.
type item struct {
	vendor, title, brand, typ, desc string
	tags, colors                    []string
	prices                          []float64
	available                       bool
}

func (it item) product() *product.Product {
	p := &product.Product{URL: "https://" + it.vendor + "/products/" + strings.ReplaceAll(strings.ToLower(it.title), " ", "-"),
		Title: &it.title, Tags: it.tags, IsAvailable: &it.available}
	if it.brand != "" {
		p.Brand = &it.brand
	}
	if it.typ != "" {
		p.ProductType = &it.typ
	}
	if it.desc != "" {
		p.Description = &it.desc
	}
	if len(it.colors) > 0 {
		p.Options = []product.Option{{Name: "Color", Values: it.colors}}
	}
	for _, price := range it.prices {
		p.Variants = append(p.Variants, product.Variant{Price: &product.Price{Current: price, Currency: "USD"}, IsAvailable: &it.available})
	}
	return p
}

func saveItems(t *testing.T, pool *pgxpool.Pool, items ...item) map[string]string {
	t.Helper()
	store := postgres.NewExtractStore(pool)
	ids := map[string]string{}
	for _, it := range items {
		if it.vendor == "" {
			it.vendor = "shop.example"
		}
		id, err := store.SaveProduct(context.Background(), it.vendor, it.product(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		ids[it.title] = id
	}
	return ids
}

func TestSearchColumnsFollowTheProductData(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	ids := saveItems(t, pool, item{title: "Trail Boot", brand: "Ridgeback", prices: []float64{120, 95.5, 140}, available: true})
	var lo, hi float64
	var avail bool
	var brand string
	read := func() {
		t.Helper()
		if err := pool.QueryRow(ctx, `SELECT search_min_price, search_max_price, search_available, search_brand FROM products WHERE id = $1`,
			ids["Trail Boot"]).Scan(&lo, &hi, &avail, &brand); err != nil {
			t.Fatal(err)
		}
	}
	read()
	if lo != 95.5 || hi != 140 || !avail || brand != "ridgeback" {
		t.Fatalf("columns = %v %v %v %q, want 95.5 140 true ridgeback", lo, hi, avail, brand)
	}
	// A writer that knows nothing of the search columns keeps them right.
	saveItems(t, pool, item{title: "Trail Boot", brand: "Ridgeback", prices: []float64{60}, available: false})
	read()
	if lo != 60 || hi != 60 || avail {
		t.Fatalf("after update: %v %v %v, want 60 60 false", lo, hi, avail)
	}
}

func TestCandidatesApplyHardFiltersAndRankTitleAboveDescription(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	saveItems(t, pool,
		item{title: "Rain Jacket", desc: "A shell for wet days.", prices: []float64{80}, available: true},
		item{title: "Wool Sweater", desc: "Wear it under a rain jacket.", prices: []float64{70}, available: true},
		item{title: "Rain Jacket Pro", prices: []float64{180}, available: true},
		item{title: "Rain Jacket Sold Out", prices: []float64{60}, available: false},
		item{title: "Black Rain Jacket", prices: []float64{50}, available: true},
	)
	store := postgres.NewSearchStore(pool)
	max := 100.0
	got, err := store.Candidates(ctx, search.CandidateQuery{Match: `"rain jacket"`, MaxPrice: &max, InStock: true, Exclude: "black", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, c := range got {
		titles = append(titles, c.Title)
	}
	want := []string{"Rain Jacket", "Wool Sweater"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Fatalf("candidates = %q, want %q (title match first; over $100, sold out and black left out)", titles, want)
	}
}

func TestCandidatesWindowTakesTitleAndLabelMatchesFirst(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	var items []item
	// Saved first, so that the index yields them first: the window must still prefer the
	// products that name the word.
	for i := range 6 {
		items = append(items, item{title: fmt.Sprintf("Wool Sweater %d", i), desc: "Goes well with a lantern.", prices: []float64{40}, available: true})
	}
	items = append(items,
		item{title: "Camp Lantern", prices: []float64{30}, available: true},
		item{title: "Trail Light", typ: "Lantern", prices: []float64{35}, available: true},
	)
	saveItems(t, pool, items...)
	store := postgres.NewSearchStore(pool)
	titles := func(q search.CandidateQuery) []string {
		t.Helper()
		got, err := store.Candidates(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range got {
			out = append(out, c.Title)
		}
		return out
	}
	if got := titles(search.CandidateQuery{Match: "lantern", Limit: 10, Window: 2}); strings.Join(got, "|") != "Camp Lantern|Trail Light" {
		t.Errorf("window of 2 = %q, want the two products named lantern", got)
	}
	if got := titles(search.CandidateQuery{Match: "lantern", Limit: 10, Window: 5}); len(got) != 5 || got[0] != "Camp Lantern" {
		t.Errorf("window of 5 = %q, want the named products first, then descriptions up to 5", got)
	}
	if got := titles(search.CandidateQuery{Match: "lantern", Limit: 10}); len(got) != 8 {
		t.Errorf("no window = %q, want all 8 matches", got)
	}
}

func TestCandidatesFuzzySelectsCloseTitlesAndSimilarOnlyScores(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	saveItems(t, pool,
		item{title: "Pashmina Shawl", prices: []float64{60}, available: true},
		item{title: "Wool Scarf", prices: []float64{30}, available: true},
	)
	store := postgres.NewSearchStore(pool)
	got, err := store.Candidates(ctx, search.CandidateQuery{Match: "scarf", Similar: "pashmina", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Title != "Wool Scarf" || got[0].Similarity >= 0.5 {
		t.Fatalf("Similar alone = %+v, want only the scarf, scored low", got)
	}
	got, err = store.Candidates(ctx, search.CandidateQuery{Match: "scarf", Fuzzy: "pashmna", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Title != "Pashmina Shawl" || got[0].Similarity < 0.5 {
		t.Fatalf("Fuzzy = %+v, want the shawl (close in spelling) first, then the scarf", got)
	}
}

func TestVocabularyListsWordsBrandsAndTypes(t *testing.T) {
	pool := migrated(t)
	saveItems(t, pool,
		item{title: "Classic Hoodie", brand: "Northwind", typ: "Hoodie", tags: []string{"cotton"}, prices: []float64{50}, available: true},
		item{title: "Zip Hoodie", brand: "Northwind", typ: "Hoodie", prices: []float64{60}, available: true},
		item{title: "Trail Runner", brand: "Paceline", typ: "Trail Runner", prices: []float64{90}, available: true},
	)
	v, err := postgres.NewSearchStore(pool).Vocabulary(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v.Words["hoodie"] != 2 || v.Words["cotton"] != 1 {
		t.Errorf("words: hoodie %d, cotton %d; want 2 and 1", v.Words["hoodie"], v.Words["cotton"])
	}
	if strings.Join(v.Brands, ",") != "northwind,paceline" || strings.Join(v.ProductTypes, ",") != "hoodie,trail runner" {
		t.Errorf("brands %q, types %q", v.Brands, v.ProductTypes)
	}
}

// searchRig is a search service over real Postgres with a queue that runs nothing, so a
// test decides when the pipeline runs.
type searchRig struct {
	pool     *pgxpool.Pool
	org      string
	svc      *search.Service
	pipeline *search.Pipeline
	store    search.Store
}

func newSearchRig(t *testing.T, store func(search.Store) search.Store, credits int64) *searchRig {
	t.Helper()
	pool := migrated(t)
	org := newOrgWith(t, pool, "searchers", credits)
	executions := postgres.NewExecutionStore(pool)
	var st search.Store = postgres.NewSearchStore(pool)
	if store != nil {
		st = store(st)
	}
	runner := execution.NewRunner(executions, execution.RunnerOptions{ReportEvery: 50 * time.Millisecond, LeaseTTL: time.Second})
	pipeline := search.NewPipeline(st, postgres.NewExtractStore(pool), executions, runner, search.PipelineOptions{MinResults: 3})
	svc := search.NewService(executions, pipeline, starter(t, pool), postgres.NewAccessStore(pool), search.Credits{Search: 25, Mini: 5})
	return &searchRig{pool: pool, org: org, svc: svc, pipeline: pipeline, store: st}
}

func newOrgWith(t *testing.T, pool *pgxpool.Pool, name string, credits int64) string {
	t.Helper()
	org, err := postgres.NewAccessStore(pool).CreateOrganization(context.Background(), name, credits, true)
	if err != nil {
		t.Fatal(err)
	}
	return org.ID
}

var shoes = []item{
	{title: "Waterproof Hiking Boot", brand: "Ridgeback", typ: "Hiking Boot", colors: []string{"Black"}, prices: []float64{130}, available: true},
	{title: "Waterproof Hiking Boot", vendor: "other.example", brand: "Stridewell", typ: "Hiking Boot", colors: []string{"Olive"}, prices: []float64{140}, available: true},
	{title: "Leather Hiking Boot", brand: "Ridgeback", typ: "Hiking Boot", desc: "Full-grain leather upper.", colors: []string{"Sand"}, prices: []float64{90}, available: true},
	{title: "Canvas Sneaker", brand: "Paceline", typ: "Sneaker", colors: []string{"White"}, prices: []float64{60}, available: true},
	{title: "Trail Runner", brand: "Paceline", typ: "Trail Runner", colors: []string{"Navy"}, prices: []float64{160}, available: true},
	{title: "Chelsea Boot", brand: "Cobble", typ: "Chelsea Boot", colors: []string{"Black"}, prices: []float64{200}, available: false},
}

func TestSearchExecutionRunsItsStepsAndPagesItsHits(t *testing.T) {
	rig := newSearchRig(t, nil, 100)
	saveItems(t, rig.pool, shoes...)
	ctx := context.Background()
	started, err := rig.svc.Start(ctx, rig.org, search.Request{Query: "waterproof hiking boots under $150, not black"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(started.ExecutionID, "agentic-") || started.CreditsUsed != 25 {
		t.Fatalf("started = %+v", started)
	}
	if err := rig.pipeline.Run(ctx, started.ExecutionID); err != nil {
		t.Fatal(err)
	}
	d, err := rig.svc.Get(ctx, rig.org, started.ExecutionID)
	if err != nil {
		t.Fatal(err)
	}
	e := d.Execution
	if e.Status != execution.Completed {
		t.Fatalf("status %s (%s)", e.Status, e.Error)
	}
	for i, want := range []string{search.StepUnderstand, search.StepRetrieve, search.StepRank, search.StepRelax, search.StepDone} {
		if e.Steps[i].Name != want || e.Steps[i].Status != execution.Completed {
			t.Errorf("step %d = %+v, want %q completed", i, e.Steps[i], want)
		}
	}
	result := d.Result
	if result == nil {
		t.Fatal("a completed search without its result")
	}
	res, err := rig.svc.Results(ctx, started.ExecutionID, page.Request{Number: 1, Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalItems != result.ProductsTotal || len(res.Items) != 1 {
		t.Fatalf("results: %d items of %d, result says %d", len(res.Items), res.TotalItems, result.ProductsTotal)
	}
	for n := 1; n <= res.TotalItems; n++ {
		pg, err := rig.svc.Results(ctx, started.ExecutionID, page.Request{Number: n, Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		h := pg.Items[0]
		p := h.Product.Product
		lo, hi, _ := p.MinMaxPrice()
		if lo > 150 || hi > 150 || strings.Contains(strings.Join(optionValues(p), " "), "Black") {
			t.Errorf("hit %q at $%v-%v, colors %v breaks a hard constraint", *p.Title, lo, hi, optionValues(p))
		}
		if len(h.Reasons) == 0 {
			t.Errorf("hit %q has no reasons", *p.Title)
		}
	}
	first, _ := rig.svc.Results(ctx, started.ExecutionID, page.Request{Number: 1, Size: 1})
	if got := *first.Items[0].Product.Product.Title; got != "Waterproof Hiking Boot" {
		t.Errorf("best hit %q, want the olive waterproof hiking boot", got)
	}
	if _, err := rig.svc.Get(ctx, newOrgWith(t, rig.pool, "other", 10), started.ExecutionID); failure.KindOf(err) != failure.NotFound {
		t.Errorf("another organization reads the search: %v", err)
	}
}

func optionValues(p *product.Product) []string {
	var out []string
	for _, o := range p.Options {
		out = append(out, o.Values...)
	}
	return out
}

// blockingStore holds Candidates until its context ends, so a search stays running.
type blockingStore struct {
	search.Store
	entered chan struct{}
	once    sync.Once
}

func (b *blockingStore) Candidates(ctx context.Context, q search.CandidateQuery) ([]search.Candidate, error) {
	b.once.Do(func() { close(b.entered) })
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestCancelStopsARunningSearch(t *testing.T) {
	blocking := &blockingStore{entered: make(chan struct{})}
	rig := newSearchRig(t, func(s search.Store) search.Store { blocking.Store = s; return blocking }, 100)
	saveItems(t, rig.pool, shoes...)
	ctx := context.Background()
	started, err := rig.svc.Start(ctx, rig.org, search.Request{Query: "boots"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- rig.pipeline.Run(ctx, started.ExecutionID) }()
	<-blocking.entered
	// The step change is saved by the runner's next report; cancel once it is visible.
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if d, _ := rig.svc.Get(ctx, rig.org, started.ExecutionID); len(d.Execution.Steps) > 1 && d.Execution.Steps[1].Status == execution.Running {
			break
		}
	}
	if _, err := rig.svc.Cancel(ctx, rig.org, started.ExecutionID); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after cancel: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the search kept running after its cancel")
	}
	d, _ := rig.svc.Get(ctx, rig.org, started.ExecutionID)
	e := d.Execution
	if e.Status != execution.Failed || e.Error != execution.CanceledMessage || e.Steps[1].Status != execution.Failed {
		t.Errorf("after cancel: %s %q steps %+v", e.Status, e.Error, e.Steps)
	}
	if _, err := rig.svc.Cancel(ctx, rig.org, started.ExecutionID); failure.KindOf(err) != failure.NotRunning {
		t.Errorf("second cancel: %v, want NotRunning", err)
	}
}

func TestMiniNowAndFilterChargeAndAnswerAtOnce(t *testing.T) {
	rig := newSearchRig(t, nil, 40)
	saveItems(t, rig.pool, shoes...)
	ctx := context.Background()

	ans, credits, err := rig.svc.Mini(ctx, rig.org, search.Request{Query: "boots", Limit: 50})
	if err != nil || credits != 5 {
		t.Fatalf("mini: %v, credits %d", err, credits)
	}
	if len(ans.Hits) == 0 || len(ans.Hits) > search.MaxMiniResults {
		t.Errorf("mini returned %d hits", len(ans.Hits))
	}

	ans, credits, err = rig.svc.Search(ctx, rig.org, search.Request{Query: "cheapest boots in stock"})
	if err != nil || credits != 25 {
		t.Fatalf("now: %v, credits %d", err, credits)
	}
	var prices []float64
	for _, h := range ans.Hits {
		lo, _, _ := h.Product.Product.MinMaxPrice()
		prices = append(prices, lo)
		if !*h.Product.Product.IsAvailable {
			t.Errorf("sold-out %q for an in-stock query", *h.Product.Product.Title)
		}
	}
	for i := 1; i < len(prices); i++ {
		if prices[i] < prices[i-1] {
			t.Errorf("cheapest first: prices %v", prices)
		}
	}

	// 40 - 5 - 25 leaves 10: the next full search cannot be paid.
	_, _, err = rig.svc.Filter(ctx, rig.org, "", search.Filters{Brand: "Paceline"}, page.Request{Number: 1, Size: 10})
	if failure.KindOf(err) != failure.InsufficientCredits {
		t.Fatalf("filter without credits: %v, want InsufficientCredits", err)
	}
	if _, err := rig.pool.Exec(ctx, `UPDATE organizations SET credits = 100 WHERE id = $1`, rig.org); err != nil {
		t.Fatal(err)
	}
	res, _, err := rig.svc.Filter(ctx, rig.org, "", search.Filters{Brand: "Paceline"}, page.Request{Number: 1, Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalItems != 2 || len(res.Items) != 1 || !strings.EqualFold(*res.Items[0].Product.Product.Brand, "Paceline") {
		t.Errorf("filter by brand: %d of %d", len(res.Items), res.TotalItems)
	}
	max := 100.0
	res, _, err = rig.svc.Filter(ctx, rig.org, "boot", search.Filters{MaxPrice: &max}, page.Request{Number: 1, Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.TotalItems != 1 || *res.Items[0].Product.Product.Title != "Leather Hiking Boot" {
		t.Errorf("boots up to $100: %d results", res.TotalItems)
	}
	if _, _, err := rig.svc.Search(ctx, rig.org, search.Request{Query: "  "}); failure.KindOf(err) != failure.Invalid {
		t.Errorf("empty query: %v", err)
	}
}

func TestSaveHitsReplacesAResumedSearchsHits(t *testing.T) {
	rig := newSearchRig(t, nil, 100)
	ids := saveItems(t, rig.pool, shoes[2:4]...)
	ctx := context.Background()
	started, err := rig.svc.Start(ctx, rig.org, search.Request{Query: "boot"})
	if err != nil {
		t.Fatal(err)
	}
	id := started.ExecutionID
	var all []string
	for _, v := range ids {
		all = append(all, v)
	}
	if err := rig.store.SaveHits(ctx, id, []search.StoredHit{{ProductID: all[0], Score: 1}, {ProductID: all[1], Score: 0.5, Reasons: []string{"x"}}}); err != nil {
		t.Fatal(err)
	}
	if err := rig.store.SaveHits(ctx, id, []search.StoredHit{{ProductID: all[1], Score: 2, Reasons: []string{"y"}}}); err != nil {
		t.Fatal(err)
	}
	hits, total, err := rig.store.Hits(ctx, id, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if total != 1 || len(hits) != 1 || hits[0].ProductID != all[1] || hits[0].Reasons[0] != "y" {
		t.Errorf("hits = %+v (total %d)", hits, total)
	}
	if errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
}

// Property: over a random catalog in Postgres and random queries (price bounds, in stock,
// negated colors and materials, an avoid list), no result breaks a hard constraint. The
// check is independent of the engine: plain word tests over the stored product.
func TestSearchNeverBreaksHardConstraints(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 11))
	nouns := []string{"Boot", "Sneaker", "Hoodie", "Jacket", "Mug", "Tent", "Backpack"}
	colorNames := []string{"Black", "White", "Navy", "Olive", "Red", "Sand"}
	materials := []string{"Leather", "Canvas", "Wool", "Cotton", "Nylon", "Suede"}
	var items []item
	for i := range 150 {
		noun := nouns[r.IntN(len(nouns))]
		var prices []float64
		for range 1 + r.IntN(3) {
			prices = append(prices, float64(5+r.IntN(300)))
		}
		items = append(items, item{
			vendor: fmt.Sprintf("shop%d.example", r.IntN(3)),
			title:  fmt.Sprintf("%s %s %d", materials[r.IntN(len(materials))], noun, i),
			brand:  fmt.Sprintf("Brand%d", r.IntN(5)), typ: noun,
			desc:   "Made in " + strings.ToLower(materials[r.IntN(len(materials))]) + ".",
			colors: []string{colorNames[r.IntN(len(colorNames))]}, prices: prices, available: r.IntN(4) != 0,
		})
	}
	saveItems(t, pool, items...)
	executions := postgres.NewExecutionStore(pool)
	p := search.NewPipeline(postgres.NewSearchStore(pool), postgres.NewExtractStore(pool), executions,
		execution.NewRunner(executions, execution.RunnerOptions{}), search.PipelineOptions{})
	products := postgres.NewExtractStore(pool)
	total := 0
	for round := range 60 {
		maxPrice := float64(20 + r.IntN(250))
		notColor := strings.ToLower(colorNames[r.IntN(len(colorNames))])
		notMaterial := strings.ToLower(materials[r.IntN(len(materials))])
		avoid := strings.ToLower(materials[r.IntN(len(materials))])
		inStock := r.IntN(2) == 0
		q := fmt.Sprintf("%s %s under $%.0f, not %s, without %s", strings.ToLower(colorNames[r.IntN(len(colorNames))]),
			strings.ToLower(nouns[r.IntN(len(nouns))]), maxPrice, notColor, notMaterial)
		if inStock {
			q += ", in stock"
		}
		out, err := p.Search(ctx, search.Query{Request: search.Request{Query: q, Limit: 20,
			Profile: map[string]any{"style": map[string]any{"avoid": []any{avoid}}}}})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range out.Hits {
			ids = append(ids, h.ProductID)
		}
		got, err := products.Products(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		total += len(ids)
		for _, id := range ids {
			pr := got[id].Product
			lo, hi, ok := pr.MinMaxPrice()
			text := strings.ToLower(*pr.Title + " " + *pr.Description + " " + strings.Join(optionValues(pr), " "))
			switch {
			case !ok || hi > maxPrice:
				t.Fatalf("round %d %q: %s at $%v-%v", round, q, *pr.Title, lo, hi)
			case inStock && !*pr.IsAvailable:
				t.Fatalf("round %d %q: %s is sold out", round, q, *pr.Title)
			case strings.Contains(text, notColor), strings.Contains(text, notMaterial), strings.Contains(text, avoid):
				t.Fatalf("round %d %q (avoid %s): %q breaks a negation", round, q, avoid, text)
			}
		}
	}
	if total < 100 {
		t.Fatalf("only %d results over all rounds: the property was hardly exercised", total)
	}
	t.Logf("%d results checked", total)
}
