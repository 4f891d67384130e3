package evaluation

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// full runs the whole set over the whole catalog and prints the table (make eval).
var full = flag.Bool("eval", false, "run the full search evaluation and print its report")

func TestMain(m *testing.M) { storagetest.Main(m) }

func migrated(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return postgrestest.Migrated(t, postgres.PoolOptions{MaxConns: 24})
}

func pipelineOver(pool *pgxpool.Pool) *search.Pipeline {
	executions := postgres.NewExecutionStore(pool)
	return search.NewPipeline(postgres.NewSearchStore(pool), postgres.NewExtractStore(pool), executions,
		execution.NewRunner(executions, execution.RunnerOptions{}), search.PipelineOptions{})
}

// run loads a catalog of n demo products (plus the corpora when dir has them) and scores
// the systems over cases; with crawled, the catalog is loaded mostly crawled
// (Catalog.LoadCrawled) and the baseline, which reads products alone, is not run.
func run(t *testing.T, n int, dir string, cases []Case, crawled bool) (engine, mini, baseline Score, cat *Catalog) {
	t.Helper()
	ctx := context.Background()
	pool := migrated(t)
	cat, err := BuildCatalog(n, dir)
	if err != nil {
		t.Fatal(err)
	}
	if crawled {
		err = cat.LoadCrawled(ctx, pool, CrawledExtractEvery)
	} else {
		err = cat.Load(ctx, pool)
	}
	if err != nil {
		t.Fatal(err)
	}
	if engine, err = Evaluate(ctx, cat, cases, Engine(pipelineOver(pool))); err != nil {
		t.Fatal(err)
	}
	if mini, err = Evaluate(ctx, cat, cases, MiniEngine(pipelineOver(pool))); err != nil {
		t.Fatal(err)
	}
	if crawled {
		return engine, mini, Score{}, cat
	}
	if baseline, err = Evaluate(ctx, cat, cases, Baseline(pool)); err != nil {
		t.Fatal(err)
	}
	return engine, mini, baseline, cat
}

// TestEngineBeatsBaselineWithoutViolations is the CI guard: a small catalog, a third of
// the set, no real corpora; then the same mostly crawled, where listings must be found
// and break no hard constraint either.
func TestEngineBeatsBaselineWithoutViolations(t *testing.T) {
	if *full {
		t.Skip("the full evaluation runs instead")
	}
	cases, err := LoadCases("queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var subset []Case
	for i, c := range cases {
		if i%3 == 0 && c.Vendor == "" {
			subset = append(subset, c)
		}
	}
	engine, mini, baseline, _ := run(t, 600, t.TempDir(), subset, false)
	crawled, crawledMini, _, _ := run(t, 600, t.TempDir(), subset, true)
	var report strings.Builder
	Report(&report, engine, mini, baseline, crawled, crawledMini)
	t.Log("\n" + report.String())
	if engine.Violations != 0 || mini.Violations != 0 {
		t.Errorf("the engine broke %d hard constraints, the mini %d", engine.Violations, mini.Violations)
	}
	if engine.NDCG < baseline.NDCG+0.15 {
		t.Errorf("engine nDCG@10 %.3f is not 0.15 above the baseline's %.3f", engine.NDCG, baseline.NDCG)
	}
	if crawled.Violations != 0 || crawledMini.Violations != 0 {
		t.Errorf("over the mostly crawled catalog, the engine broke %d hard constraints, the mini %d", crawled.Violations, crawledMini.Violations)
	}
	if crawled.FromListings == 0 || crawledMini.FromListings == 0 {
		t.Errorf("over the mostly crawled catalog, %d results of the engine and %d of the mini are listings", crawled.FromListings, crawledMini.FromListings)
	}
}

// TestEvalFull is `make eval`: the whole set over the whole catalog, fully extracted and
// mostly crawled.
func TestEvalFull(t *testing.T) {
	if !*full {
		t.Skip("pass -eval (make eval)")
	}
	cases, err := LoadCases("queries.json")
	if err != nil {
		t.Fatal(err)
	}
	engine, mini, baseline, cat := run(t, DemoProducts, CorpusDir, cases, false)
	crawled, crawledMini, _, _ := run(t, DemoProducts, CorpusDir, cases, true)
	t.Logf("catalog: %d products from %d vendors; %d labelled queries", len(cat.Entries), len(cat.Vendors), len(cases))
	Report(os.Stdout, engine, mini, baseline, crawled, crawledMini)
	os.Stdout.WriteString("worst queries for the engine (nDCG@10):\n")
	Worst(os.Stdout, engine, cases, 8)
	os.Stdout.WriteString("worst queries for the engine over the mostly crawled catalog (nDCG@10):\n")
	Worst(os.Stdout, crawled, cases, 8)
	if engine.Violations != 0 || mini.Violations != 0 || engine.NDCG < baseline.NDCG+0.15 {
		t.Errorf("the bar is not met: violations %d (mini %d), nDCG@10 %.3f vs baseline %.3f", engine.Violations, mini.Violations, engine.NDCG, baseline.NDCG)
	}
	if crawled.Violations != 0 || crawledMini.Violations != 0 {
		t.Errorf("over the mostly crawled catalog: violations %d (mini %d)", crawled.Violations, crawledMini.Violations)
	}
}

// TestLabelsAreSound checks the set itself: every case has relevant products in the
// generated catalog, and its hard constraints leave some.
func TestLabelsAreSound(t *testing.T) {
	cases, err := LoadCases("queries.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 60 {
		t.Fatalf("%d labelled queries, want at least 60", len(cases))
	}
	profiles := 0
	cat, err := BuildCatalog(DemoProducts, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Profile != nil {
			profiles++
		}
		if c.Vendor != "" {
			continue
		}
		if ideal := idealGains(cat, &c); len(ideal) == 0 || ideal[0] < 3 {
			t.Errorf("case %s %q: the catalog holds nothing graded 3 (%v)", c.ID, c.Query, ideal)
		}
	}
	if profiles < 10 {
		t.Errorf("%d cases with a profile, want at least 10", profiles)
	}
}
