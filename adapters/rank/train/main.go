// Command train fits the candidate ranker's weights (adapters/rank/weights.json) on the
// development pages and reports how well they do, fitted and cross-validated by site:
//
//	go run ./adapters/rank/train [-out adapters/rank/weights.json] [-adapters]
//
// It reads the product-extraction-benchmark pages (price, sku and availability labelled)
// and the retail pages (title, price and currency labelled), gathers every page's
// candidates natively with the ranker's own code, labels each candidate by whether its
// value is the page's, and fits each field's weights (rank.Fit). The same pages always
// give the same file, byte for byte.
//
// The cross-validated figures are what the weights are worth on stores never seen: the
// pages are grouped by site (a store's country domains are one site) into folds, and
// each fold is scored with weights fitted on the others. -adapters also scores the
// built-in adapters as they run in the service, for comparison.
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"log"
	"os"
	"sort"
	"strings"

	"github.com/stockroom/stockroom/adapters/rank"
)

func main() {
	var opt options
	flag.StringVar(&opt.benchmark, "benchmark", "/work/shared/corpus/product-extraction-benchmark", "product-extraction-benchmark corpus")
	flag.StringVar(&opt.retail, "retail", "/work/shared/corpus/retail-pages", "retail-pages corpus")
	flag.StringVar(&opt.out, "out", "adapters/rank/weights.json", "weights file to write; empty writes none")
	flag.IntVar(&opt.folds, "folds", 10, "cross-validation folds")
	flag.Float64Var(&opt.fit.L2, "l2", 0, "L2 penalty (0: rank.Fit's default)")
	flag.IntVar(&opt.fit.Iterations, "iterations", 0, "gradient steps (0: rank.Fit's default)")
	flag.BoolVar(&opt.adapters, "adapters", false, "also score the built-in adapters as the service runs them")
	flag.BoolVar(&opt.verbose, "v", false, "list each page's cross-validated mistakes")
	flag.StringVar(&opt.explain, "explain", "", "explain the ranking of the pages whose id starts with this, with the fitted weights")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, opt); err != nil {
		log.Fatal(err)
	}
}

type options struct {
	benchmark, retail, out string
	folds                  int
	adapters, verbose      bool
	explain                string
	fit                    rank.FitOptions
}

func run(ctx context.Context, w io.Writer, opt options) error {
	pages, err := loadPages(opt.benchmark, opt.retail)
	if err != nil {
		return err
	}
	gathered, err := gatherAll(ctx, pages)
	if err != nil {
		return err
	}
	model := fit(pages, gathered, nil, opt.fit)
	if opt.out != "" {
		b, err := model.MarshalJSON()
		if err != nil {
			return err
		}
		if err := os.WriteFile(opt.out, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if opt.explain != "" {
		for i, p := range pages {
			if strings.HasPrefix(p.ID, opt.explain) {
				fmt.Fprintf(w, "== %s %s\n", p.ID, p.URL)
				model.Rank(gathered[i]).Explain(w)
			}
		}
		return nil
	}
	fitted := predictAll(model, gathered)
	cv := crossValidate(pages, gathered, opt.folds, opt.fit)
	columns := []column{{"fitted", score(pages, fitted)}, {"cross-validated", score(pages, cv)}}
	if opt.adapters {
		preds, err := adapterPredictions(ctx, pages)
		if err != nil {
			return err
		}
		columns = append(columns, column{"adapters", score(pages, preds)})
	}
	fmt.Fprintf(w, "%d pages of %d sites; %d folds by site\n", len(pages), countSites(pages), opt.folds)
	report(w, columns)
	if opt.verbose {
		mistakes(w, pages, cv)
	}
	return nil
}

// loadPages reads both corpora, in a fixed order.
func loadPages(benchmark, retail string) ([]labelledPage, error) {
	a, err := loadBenchmark(benchmark)
	if err != nil {
		return nil, fmt.Errorf("benchmark corpus: %w", err)
	}
	b, err := loadRetail(retail)
	if err != nil {
		return nil, fmt.Errorf("retail corpus: %w", err)
	}
	pages := append(a, b...)
	sortPages(pages)
	return pages, nil
}

// fit learns every field's weights from the pages that keep (nil: all) admits.
func fit(pages []labelledPage, gathered []*rank.Page, keep func(i int) bool, opt rank.FitOptions) *rank.Model {
	m := &rank.Model{}
	for _, f := range rank.Fields {
		var ps []*rank.Page
		var idx []int
		for i := range pages {
			if pages[i].labelled[f] && (keep == nil || keep(i)) {
				ps, idx = append(ps, gathered[i]), append(idx, i)
			}
		}
		examples := rank.Examples(f, ps, func(j int, c *rank.Candidate) bool { return pages[idx[j]].right(c) })
		m.Weights[f] = rank.Fit(examples, opt)
	}
	return m
}

// prediction is one page's value per field, "" for none.
type prediction [5]string

func predict(m *rank.Model, p *rank.Page) prediction {
	var out prediction
	d := m.Rank(p)
	for _, f := range rank.Fields {
		if c, ok := d.Best(f); ok {
			out[f] = c.Value
		}
	}
	return out
}

func predictAll(m *rank.Model, gathered []*rank.Page) []prediction {
	out := make([]prediction, len(gathered))
	for i, p := range gathered {
		out[i] = predict(m, p)
	}
	return out
}

// crossValidate predicts every page with weights fitted on the folds of other sites.
func crossValidate(pages []labelledPage, gathered []*rank.Page, folds int, opt rank.FitOptions) []prediction {
	fold := make([]int, len(pages))
	for i, p := range pages {
		h := fnv.New32a()
		h.Write([]byte(p.Site))
		fold[i] = int(h.Sum32() % uint32(folds))
	}
	out := make([]prediction, len(pages))
	for k := 0; k < folds; k++ {
		m := fit(pages, gathered, func(i int) bool { return fold[i] != k }, opt)
		for i := range pages {
			if fold[i] == k {
				out[i] = predict(m, gathered[i])
			}
		}
	}
	return out
}

func countSites(pages []labelledPage) int {
	sites := map[string]bool{}
	for _, p := range pages {
		sites[p.Site] = true
	}
	return len(sites)
}

// mistakes lists the cross-validated predictions that are wrong.
func mistakes(w io.Writer, pages []labelledPage, preds []prediction) {
	for i, p := range pages {
		for _, f := range rank.Fields {
			if !p.labelled[f] {
				continue
			}
			got := preds[i][f]
			c := rank.Candidate{Field: f, Value: got}
			ok := got == "" && !p.expects(f) || got != "" && p.right(&c)
			if !ok {
				fmt.Fprintf(w, "%-9s %-12s %-13s got %q want %s (%s)\n", p.Corpus, truncateID(p.ID), f, got, p.want(f), p.URL)
			}
		}
	}
}

func truncateID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
