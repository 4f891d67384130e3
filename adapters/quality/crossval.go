package quality

import (
	"context"
	"fmt"
	"net/http"
	"sort"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
)

// Extractor reads the product of one page; a nil product means the page is not one.
type Extractor func(ctx context.Context, page Page) (*product.Product, error)

// Learner fits an extractor's learned parts (ranking weights, for example) on the training
// pages and returns the extractor that uses them. Cross-validation calls it once per fold
// with the pages of the other folds only, so whatever it learns was never fitted on the
// pages it is then scored on.
type Learner func(ctx context.Context, train []LabelledPage) (Extractor, error)

// Fixed is the Learner of an extractor with no learned parts: it ignores the training
// pages, so its cross-validated figures equal its fitted ones.
func Fixed(extract Extractor) Learner {
	return func(context.Context, []LabelledPage) (Extractor, error) { return extract, nil }
}

// SetExtractor extracts through an adapter set, as the service does with a page it
// fetched: status 200, served as HTML.
func SetExtractor(set *adapter.Set) Extractor {
	return func(ctx context.Context, page Page) (*product.Product, error) {
		doc := &adapter.Document{URL: page.URL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: page.Body}
		res, err := set.Extract(ctx, page.URL, doc)
		if err != nil {
			return nil, fmt.Errorf("page %s: %w", page.ID, err)
		}
		return res.Product, nil
	}
}

// Folds assigns every site of pages to one of k folds, so a site's pages are held out
// together. The assignment depends on the pages alone: sites in order of falling page
// count (then by name), each to the fold with the fewest pages so far (the lowest-numbered
// on a tie), which also keeps the folds close in size.
func Folds(pages []LabelledPage, k int) map[string]int {
	count := map[string]int{}
	for _, p := range pages {
		count[p.Site]++
	}
	sites := make([]string, 0, len(count))
	for s := range count {
		sites = append(sites, s)
	}
	sort.Slice(sites, func(i, j int) bool {
		if count[sites[i]] != count[sites[j]] {
			return count[sites[i]] > count[sites[j]]
		}
		return sites[i] < sites[j]
	})
	size := make([]int, k)
	fold := make(map[string]int, len(sites))
	for _, s := range sites {
		smallest := 0
		for f := range size {
			if size[f] < size[smallest] {
				smallest = f
			}
		}
		fold[s] = smallest
		size[smallest] += count[s]
	}
	return fold
}

// Fitted trains learn on every page and extracts every page with the result: the figure
// of the pages the learned parts were fitted on.
func Fitted(ctx context.Context, pages []LabelledPage, learn Learner) (map[string]Prediction, error) {
	extract, err := learn(ctx, pages)
	if err != nil {
		return nil, fmt.Errorf("fit on %d pages: %w", len(pages), err)
	}
	out := make(map[string]Prediction, len(pages))
	if err := predict(ctx, extract, pages, out); err != nil {
		return nil, err
	}
	return out, nil
}

// CrossValidated splits pages by site into k folds (see Folds), trains learn on all folds
// but one and extracts the held-out fold's pages with the result, for each fold in turn:
// every page is predicted by an extractor that never saw its site.
func CrossValidated(ctx context.Context, pages []LabelledPage, k int, learn Learner) (map[string]Prediction, error) {
	if k < 2 {
		return nil, fmt.Errorf("cross-validation needs at least 2 folds, got %d", k)
	}
	fold := Folds(pages, k)
	out := make(map[string]Prediction, len(pages))
	for f := range k {
		var train, held []LabelledPage
		for _, p := range pages {
			if fold[p.Site] == f {
				held = append(held, p)
			} else {
				train = append(train, p)
			}
		}
		if len(held) == 0 {
			continue
		}
		extract, err := learn(ctx, train)
		if err != nil {
			return nil, fmt.Errorf("fit fold %d of %d: %w", f+1, k, err)
		}
		if err := predict(ctx, extract, held, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CrossValidate scores learn's cross-validated predictions (see CrossValidated) with each
// page's corpus measures.
func CrossValidate(ctx context.Context, pages []LabelledPage, k int, learn Learner) (Scores, error) {
	pred, err := CrossValidated(ctx, pages, k, learn)
	if err != nil {
		return nil, err
	}
	return ScorePages(pages, pred), nil
}

func predict(ctx context.Context, extract Extractor, pages []LabelledPage, out map[string]Prediction) error {
	for _, p := range pages {
		prod, err := extract(ctx, p.Page)
		if err != nil {
			return fmt.Errorf("extract %s: %w", p.ID, err)
		}
		out[p.ID] = Of(prod)
	}
	return nil
}
