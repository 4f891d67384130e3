package quality_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/rank/learn"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// The scorecard test is an external test package: the extractor it measures, the
// built-in adapters with the ranker's learned weights (adapters/rank/learn), imports
// this package for its learner contract.

var scorecardDir = flag.String("scorecard", "", "write fitted.json and cross-validated.json (benchmark predictions for score.py) and scorecard.txt to this directory")

// retailCorpus holds the retail pages (see its README); tests skip without it.
const retailCorpus = "/work/shared/corpus/retail-pages"

// folds is the number of folds the development pages are split into, by site.
const folds = 5

// floors are the cross-validated figures the extractor must keep, per corpus and field: a
// little below what it reaches, so a regression fails while a page more or less does not.
// The figures reached, beside the other extractors', are in RATIONALE.md.
var floors = quality.Scores{
	quality.Benchmark: {"price": 0.91, "sku": 0.80, "availability": 0.97, "currency coverage": 0.95},
	quality.Retail:    {"title": 0.95, "price": 0.95, "currency": 0.94, "currency coverage": 0.95},
}

// scoredLearner is the extractor the scorecard measures: the built-in adapters, natively,
// in the service's order, the html adapter ranking candidates with weights fitted on the
// pages it is given (adapters/rank/learn).
func scoredLearner(testing.TB) quality.Learner {
	return (&learn.Trainer{}).Learner()
}

// developmentPages loads both corpora, skipping t when neither is present.
func developmentPages(t testing.TB) []quality.LabelledPage {
	var pages []quality.LabelledPage
	for _, c := range []struct {
		dir  string
		load func(string) ([]quality.LabelledPage, error)
	}{{sdktest.BenchmarkCorpus, quality.LoadBenchmark}, {retailCorpus, quality.LoadRetail}} {
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
	fitted, err := quality.Fitted(ctx, pages, learn)
	if err != nil {
		t.Fatal(err)
	}
	held, err := quality.CrossValidated(ctx, pages, folds, learn)
	if err != nil {
		t.Fatal(err)
	}
	logMisses(t, pages, held)
	cv := quality.ScorePages(pages, held)
	columns := []quality.Column{{Name: "fitted", Scores: quality.ScorePages(pages, fitted)}, {Name: "cross-validated", Scores: cv}}
	columns = append(columns, others(t, pages)...)
	var table bytes.Buffer
	if err := quality.WriteTable(&table, pages, columns); err != nil {
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
func others(t testing.TB, pages []quality.LabelledPage) []quality.Column {
	var columns []quality.Column
	for _, name := range []string{"Zyte", "Diffbot", "extruct"} {
		pred, err := quality.LoadPredictions(filepath.Join(sdktest.BenchmarkCorpus, "output-"+name+".json"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		columns = append(columns, quality.Column{Name: name, Scores: quality.ScorePages(benchmarkOnly(pages), pred)})
	}
	return columns
}

func benchmarkOnly(pages []quality.LabelledPage) []quality.LabelledPage {
	var out []quality.LabelledPage
	for _, p := range pages {
		if p.Source == quality.Benchmark {
			out = append(out, p)
		}
	}
	return out
}

// logMisses logs every field a prediction got wrong, page by page.
func logMisses(t *testing.T, pages []quality.LabelledPage, pred map[string]quality.Prediction) {
	for _, p := range pages {
		got := pred[p.ID]
		switch p.Source {
		case quality.Benchmark:
			for _, m := range []struct {
				attr, got string
				want      []string
			}{{"price", got.Price, p.Labels.Price}, {"sku", got.SKU, p.Labels.SKU}, {"availability", got.Availability, p.Labels.Availability}} {
				if tp, fp, fn := quality.Judge(m.attr, m.want, m.got); tp == 0 && fp+fn > 0 {
					t.Logf("%s %s: got %q, want %q (%s)", m.attr, p.ID[:8], m.got, m.want, p.URL)
				}
			}
		case quality.Retail:
			for field, value := range map[string]string{"title": got.Title, "price": got.Price, "currency": got.Currency} {
				if right, labelled := quality.RetailRight(p, got, field); labelled && !right {
					t.Logf("%s %s: got %q, labels %+v", field, p.ID, value, p.Labels)
				}
			}
		}
	}
}

// writePredictions writes the benchmark pages' predictions in score.py's file shape.
func writePredictions(t *testing.T, file string, pages []quality.LabelledPage, pred map[string]quality.Prediction) {
	out := map[string]quality.Prediction{}
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
