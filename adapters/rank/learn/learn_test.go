package learn

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// developmentPages loads both corpora, skipping t when either is absent: the weights are
// fitted on both.
func developmentPages(t *testing.T) []quality.LabelledPage {
	bench, err := quality.LoadBenchmark(sdktest.BenchmarkCorpus)
	if os.IsNotExist(err) {
		t.Skip("benchmark corpus absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	retail, err := quality.LoadRetail("/work/shared/corpus/retail-pages")
	if os.IsNotExist(err) {
		t.Skip("retail corpus absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	return append(bench, retail...)
}

// TestTrainingIsReproducible fits the weights twice, with fresh trainers, and expects the
// same bytes, equal to the committed weights.txt: `make train` regenerates the file
// exactly, and a change to the features or the fit that forgot to retrain fails here.
func TestTrainingIsReproducible(t *testing.T) {
	pages := developmentPages(t)
	var files [2][]byte
	for i := range files {
		m, err := (&Trainer{}).Fit(context.Background(), pages)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("two trainings on the same pages wrote different weights")
	}
	committed, err := os.ReadFile(filepath.Join("..", "weights.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, files[0]) {
		t.Error("adapters/rank/weights.txt is not what training writes: run make train")
	}
	if _, err := rank.ParseModel(committed); err != nil {
		t.Errorf("weights.txt: %v", err)
	}
}

// TestRightJudgesAsTheScorecard pins the candidate labels to the scorecard's judgement.
func TestRightJudgesAsTheScorecard(t *testing.T) {
	bench := quality.LabelledPage{Page: quality.Page{Source: quality.Benchmark, URL: "https://shop.example/p/1"},
		Labels: quality.Labels{Price: []string{"19.90"}, SKU: []string{"A-1"}, Availability: []string{"InStock"}}}
	retail := quality.LabelledPage{Page: quality.Page{Source: quality.Retail, URL: "https://www.shop.example/p/lamp"},
		Labels: quality.Labels{Price: []string{"24.99"}, Title: "Trail Lamp 400 | Shop", Currency: "USD"}}
	for _, tc := range []struct {
		page  quality.LabelledPage
		c     rank.Candidate
		right bool
	}{
		{bench, rank.Candidate{Field: rank.Price, Value: "19.9"}, true},
		{bench, rank.Candidate{Field: rank.Price, Value: "1990"}, false},
		{bench, rank.Candidate{Field: rank.SKU, Value: "A-1"}, true},
		{bench, rank.Candidate{Field: rank.SKU, Value: "a-1"}, false},
		{bench, rank.Candidate{Field: rank.Availability, Value: rank.OutOfStock}, false},
		{retail, rank.Candidate{Field: rank.Title, Value: "Trail Lamp 400"}, true},
		{retail, rank.Candidate{Field: rank.Title, Value: "Shop"}, false},
		{retail, rank.Candidate{Field: rank.Currency, Value: "USD"}, true},
		{retail, rank.Candidate{Field: rank.Currency, Value: "CAD"}, false},
	} {
		if got := Right(tc.page, &tc.c); got != tc.right {
			t.Errorf("%s %q: right = %v, want %v", tc.c.Field, tc.c.Value, got, tc.right)
		}
	}
	if Labelled(retail, rank.SKU) || !Labelled(bench, rank.SKU) || !Labelled(retail, rank.Title) {
		t.Error("a corpus's labels cover the wrong fields")
	}
}
