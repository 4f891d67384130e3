package quality

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

var scorecardDir = flag.String("scorecard", "", "write fitted.json and cross-validated.json (benchmark predictions for score.py) and scorecard.txt to this directory")

// retailCorpus holds the retail pages (see its README); tests skip without it.
const retailCorpus = "/work/shared/corpus/retail-pages"

// folds is the number of folds the development pages are split into, by site.
const folds = 5

// floors are the cross-validated figures the extractor must keep, per corpus and field: a
// little below what it reaches, so a regression fails while a page more or less does not.
// The figures reached, beside the other extractors', are in RATIONALE.md.
var floors = Scores{
	Benchmark: {"price": 0.86, "sku": 0.76, "availability": 0.95, "currency coverage": 0.85},
	Retail:    {"title": 0.70, "price": 0.70, "currency": 0.47, "currency coverage": 0.62},
}

// builtins loads the built-in adapters' guests from source, in the registry's priority
// order, each in its own runtime as production loads them (deadlines on).
func builtins(t testing.TB) sdktest.Modules {
	var mods sdktest.Modules
	for _, name := range []string{"shopify", "jsonld", "html"} {
		mods = append(mods, sdktest.Load(t, filepath.Join("..", name, "guest"), wasm.Config{}))
	}
	return mods
}

// scoredLearner is the extractor the scorecard measures. The built-in adapters have no
// learned parts yet: they extract through the WebAssembly guests whatever they are trained
// on. An extractor with learned parts trains them here on the pages it is given (natively,
// through sdk.Native) and extracts with them.
func scoredLearner(t testing.TB) Learner {
	return Fixed(SetExtractor(&adapter.Set{Source: builtins(t), Fetcher: sdktest.Pages{}}))
}

// developmentPages loads both corpora, skipping t when neither is present.
func developmentPages(t testing.TB) []LabelledPage {
	var pages []LabelledPage
	for _, c := range []struct {
		dir  string
		load func(string) ([]LabelledPage, error)
	}{{sdktest.BenchmarkCorpus, LoadBenchmark}, {retailCorpus, LoadRetail}} {
		some, err := c.load(c.dir)
		if os.IsNotExist(err) {
			t.Logf("%s absent", c.dir)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, some...)
	}
	if len(pages) == 0 {
		t.Skip("no development corpus")
	}
	return pages
}

// TestScorecard extracts every development page twice, fitted and cross-validated (by
// site, in folds), scores both per corpus and field, and holds the cross-validated figures
// to their floors. With -scorecard DIR it writes the predictions for score.py and the
// table beside the other extractors' figures (see `make score`).
func TestScorecard(t *testing.T) {
	pages := developmentPages(t)
	ctx := context.Background()
	learn := scoredLearner(t)
	fitted, err := Fitted(ctx, pages, learn)
	if err != nil {
		t.Fatal(err)
	}
	held, err := CrossValidated(ctx, pages, folds, learn)
	if err != nil {
		t.Fatal(err)
	}
	logMisses(t, pages, held)
	cv := ScorePages(pages, held)
	columns := []Column{{"fitted", ScorePages(pages, fitted)}, {"cross-validated", cv}}
	columns = append(columns, others(t, pages)...)
	var table bytes.Buffer
	if err := WriteTable(&table, pages, columns); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", table.String())
	if *scorecardDir != "" {
		writePredictions(t, filepath.Join(*scorecardDir, "fitted.json"), pages, fitted)
		writePredictions(t, filepath.Join(*scorecardDir, "cross-validated.json"), pages, held)
		if err := os.WriteFile(filepath.Join(*scorecardDir, "scorecard.txt"), table.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for source, fields := range floors {
		if _, ok := cv[source]; !ok {
			continue
		}
		for field, floor := range fields {
			if got := cv[source][field]; got < floor {
				t.Errorf("%s %s: cross-validated %.3f fell below its floor %.3f", source, field, got, floor)
			}
		}
	}
}

// others are the columns of the extractors whose benchmark outputs the corpus holds.
func others(t testing.TB, pages []LabelledPage) []Column {
	var columns []Column
	for _, name := range []string{"Zyte", "Diffbot", "extruct"} {
		pred, err := LoadPredictions(filepath.Join(sdktest.BenchmarkCorpus, "output-"+name+".json"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		columns = append(columns, Column{name, ScorePages(benchmarkOnly(pages), pred)})
	}
	return columns
}

func benchmarkOnly(pages []LabelledPage) []LabelledPage {
	var out []LabelledPage
	for _, p := range pages {
		if p.Source == Benchmark {
			out = append(out, p)
		}
	}
	return out
}

// logMisses logs every field a prediction got wrong, page by page.
func logMisses(t *testing.T, pages []LabelledPage, pred map[string]Prediction) {
	for _, p := range pages {
		got := pred[p.ID]
		switch p.Source {
		case Benchmark:
			for _, attr := range Attributes {
				want := p.Labels.accepted(attr)
				if tp, fp, fn := Judge(attr, want, got.get(attr)); tp == 0 && fp+fn > 0 {
					t.Logf("%s %s: got %q, want %q (%s)", attr, p.ID[:8], got.get(attr), want, p.URL)
				}
			}
		case Retail:
			for field, value := range map[string]string{"title": got.Title, "price": got.Price, "currency": got.Currency} {
				if right, labelled := RetailRight(p, got, field); labelled && !right {
					t.Logf("%s %s: got %q, labels %+v", field, p.ID, value, p.Labels)
				}
			}
		}
	}
}

// writePredictions writes the benchmark pages' predictions in score.py's file shape.
func writePredictions(t *testing.T, file string, pages []LabelledPage, pred map[string]Prediction) {
	out := map[string]Prediction{}
	for _, p := range benchmarkOnly(pages) {
		out[p.ID] = pred[p.ID]
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScoreMatchesScorePy scores the other extractors' outputs in the corpus and expects
// the figures score.py prints for them (the corpus README), to three decimals.
func TestScoreMatchesScorePy(t *testing.T) {
	pages, err := LoadBenchmark(sdktest.BenchmarkCorpus)
	if os.IsNotExist(err) {
		t.Skip("benchmark corpus absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		want map[string]float64
	}{
		{"output-Zyte.json", map[string]float64{"price": 0.921, "sku": 0.809, "availability": 0.973}},
		{"output-Diffbot.json", map[string]float64{"price": 0.779, "sku": 0.719, "availability": 0.959}},
		{"output-extruct.json", map[string]float64{"price": 0.729, "sku": 0.527, "availability": 0.667}},
	} {
		pred, err := LoadPredictions(filepath.Join(sdktest.BenchmarkCorpus, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		got := ScorePages(pages, pred)[Benchmark]
		for attr, want := range tc.want {
			if math.Abs(got[attr]-want) > 0.0005 {
				t.Errorf("%s %s: F1 %.4f, score.py says %.3f", tc.file, attr, got[attr], want)
			}
		}
	}
}

// TestJudgeCountsAsScorePyDoes pins down score.py's counting rule on the cases that differ.
func TestJudgeCountsAsScorePyDoes(t *testing.T) {
	for _, tc := range []struct {
		attr       string
		accepted   []string
		predicted  string
		tp, fp, fn int
	}{
		{"price", []string{"19.9"}, "19.90", 1, 0, 0},
		{"price", []string{"19.90"}, "1990", 0, 1, 1},
		{"price", nil, "19.90", 0, 1, 0},
		{"price", []string{"19.90"}, "", 0, 0, 1},
		{"price", []string{"19.90"}, "19,90", 0, 0, 1},
		{"price", nil, "", 0, 0, 0},
		{"sku", []string{"A1", "a-1"}, "a-1", 1, 0, 0},
		{"sku", []string{"A1"}, "a1", 0, 1, 1},
		{"availability", []string{"InStock"}, "InStock", 1, 0, 0},
	} {
		tp, fp, fn := Judge(tc.attr, tc.accepted, tc.predicted)
		if tp != tc.tp || fp != tc.fp || fn != tc.fn {
			t.Errorf("Judge(%s, %q, %q) = %d,%d,%d, want %d,%d,%d", tc.attr, tc.accepted, tc.predicted, tp, fp, fn, tc.tp, tc.fp, tc.fn)
		}
	}
	if got := (Prediction{Availability: "out of stock"}).get("availability"); got != "OutOfStock" {
		t.Errorf("availability spelling normalised to %q", got)
	}
}
