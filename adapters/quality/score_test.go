package quality

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// builtins loads the built-in adapters' guests from source, in the registry's priority
// order, each in its own runtime as production loads them (deadlines on).
func builtins(t testing.TB) sdktest.Modules {
	var mods sdktest.Modules
	for _, name := range []string{"shopify", "html", "jsonld"} {
		mods = append(mods, sdktest.Load(t, filepath.Join("..", name, "guest"), wasm.Config{}))
	}
	return mods
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
