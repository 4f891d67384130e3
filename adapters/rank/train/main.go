// Command train fits the candidate ranker's weights (adapters/rank/weights.txt) on the
// development pages and reports what they are worth, fitted and cross-validated by site:
//
//	go run ./adapters/rank/train [-out adapters/rank/weights.txt] [-v] [-explain ID]
//
// It reads the product-extraction-benchmark pages (price, SKU and availability labelled)
// and the retail pages (title, price and currency labelled), fits the weights with
// adapters/rank/learn, and scores the built-in adapters using them as the scorecard does
// (adapters/quality): fitted, every page extracted with weights fitted on all of them,
// and cross-validated, each fold of sites extracted with weights fitted on the others.
// The same pages always give the same file, byte for byte.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/rank/learn"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

func main() {
	var opt options
	flag.StringVar(&opt.benchmark, "benchmark", sdktest.BenchmarkCorpus, "product-extraction-benchmark corpus")
	flag.StringVar(&opt.retail, "retail", "/work/shared/corpus/retail-pages", "retail-pages corpus")
	flag.StringVar(&opt.out, "out", "adapters/rank/weights.txt", "weights file to write; empty writes none")
	flag.IntVar(&opt.folds, "folds", 5, "cross-validation folds (the scorecard's number)")
	flag.Float64Var(&opt.fit.L2, "l2", 0, "L2 penalty (0: rank.Fit's default)")
	flag.IntVar(&opt.fit.Iterations, "iterations", 0, "gradient steps (0: rank.Fit's default)")
	flag.BoolVar(&opt.noPrior, "noprior", false, "fit without the priors (rank.Priors), from zero")
	flag.BoolVar(&opt.verbose, "v", false, "list the cross-validated mistakes, page by page")
	flag.StringVar(&opt.explain, "explain", "", "explain the ranking, with the fitted weights, of the pages whose id starts with this")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, opt); err != nil {
		log.Fatal(err)
	}
}

type options struct {
	benchmark, retail, out, explain string
	folds                           int
	verbose, noPrior                bool
	fit                             rank.FitOptions
}

func run(ctx context.Context, w io.Writer, opt options) error {
	pages, err := loadPages(opt.benchmark, opt.retail)
	if err != nil {
		return err
	}
	trainer := &learn.Trainer{Options: opt.fit, NoPrior: opt.noPrior}
	model, err := trainer.Fit(ctx, pages)
	if err != nil {
		return err
	}
	if opt.out != "" {
		if err := writeModel(opt.out, model); err != nil {
			return err
		}
	}
	if opt.explain != "" {
		return explain(ctx, w, pages, model, opt.explain)
	}
	fitted, err := quality.Fitted(ctx, pages, trainer.Learner())
	if err != nil {
		return err
	}
	held, err := quality.CrossValidated(ctx, pages, opt.folds, trainer.Learner())
	if err != nil {
		return err
	}
	columns := []quality.Column{{Name: "fitted", Scores: quality.ScorePages(pages, fitted)}, {Name: "cross-validated", Scores: quality.ScorePages(pages, held)}}
	if err := quality.WriteTable(w, pages, columns); err != nil {
		return err
	}
	if opt.verbose {
		mistakes(w, pages, held)
	}
	return nil
}

// loadPages reads both corpora.
func loadPages(benchmark, retail string) ([]quality.LabelledPage, error) {
	a, err := quality.LoadBenchmark(benchmark)
	if err != nil {
		return nil, fmt.Errorf("benchmark corpus: %w", err)
	}
	b, err := quality.LoadRetail(retail)
	if err != nil {
		return nil, fmt.Errorf("retail corpus: %w", err)
	}
	return append(a, b...), nil
}

// writeModel writes m's weights file.
func writeModel(file string, m *rank.Model) error {
	b, err := m.MarshalText()
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o644)
}

// explain writes the ranking of the pages whose id starts with prefix.
func explain(ctx context.Context, w io.Writer, pages []quality.LabelledPage, m *rank.Model, prefix string) error {
	for _, p := range pages {
		if !strings.HasPrefix(p.ID, prefix) {
			continue
		}
		g, err := rank.GatherPage(ctx, p.URL, p.Body)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "== %s %s\n", p.ID, p.URL)
		m.Rank(g).Explain(w)
	}
	return nil
}

// mistakes lists every field a prediction got wrong, page by page.
func mistakes(w io.Writer, pages []quality.LabelledPage, pred map[string]quality.Prediction) {
	for _, p := range pages {
		got := pred[p.ID]
		id := p.ID
		if len(id) > 12 {
			id = id[:12]
		}
		switch p.Source {
		case quality.Benchmark:
			for attr, g := range map[string]string{"price": got.Price, "sku": got.SKU, "availability": got.Availability} {
				want := map[string][]string{"price": p.Labels.Price, "sku": p.Labels.SKU, "availability": p.Labels.Availability}[attr]
				if tp, fp, fn := quality.Judge(attr, want, g); tp == 0 && fp+fn > 0 {
					fmt.Fprintf(w, "%-12s %-12s got %q want %q (%s)\n", id, attr, g, want, p.URL)
				}
			}
		case quality.Retail:
			for field, g := range map[string]string{"title": got.Title, "price": got.Price, "currency": got.Currency} {
				if right, labelled := quality.RetailRight(p, got, field); labelled && !right {
					fmt.Fprintf(w, "%-12s %-12s got %q labels %+v\n", id, field, g, p.Labels)
				}
			}
		}
	}
}
