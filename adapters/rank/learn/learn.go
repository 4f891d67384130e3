// Package learn fits the candidate ranker (adapters/rank) on labelled development pages.
// It is the learner the scorecard (adapters/quality) fits and cross-validates, and what
// the train command writes weights.txt with.
//
// Pages are read natively with the ranker's own code, exactly as the guest reads them;
// each candidate is labelled by whether its value is the page's (as the scorecard judges
// it), and each field's weights are fitted by rank.Fit.
package learn

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/stockroom/stockroom/adapters/amazon"
	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/adapters/ebay"
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/adapters/shopify"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/plugins/registry"
)

// Trainer fits ranker models. It keeps each page's candidates once read, since reading a
// page gives the same candidates every time. Its zero value is ready to use.
type Trainer struct {
	// Options tune the fit; the zero value is rank.Fit's defaults. Each field's prior is
	// rank.Priors' unless NoPrior.
	Options rank.FitOptions
	NoPrior bool

	mu       sync.Mutex
	gathered map[string]*rank.Page
}

// Fit gathers the candidates of pages and fits every field's weights on the pages
// labelled for it.
func (t *Trainer) Fit(ctx context.Context, pages []quality.LabelledPage) (*rank.Model, error) {
	gathered := make([]*rank.Page, len(pages))
	for i, p := range pages {
		g, err := t.gather(ctx, p.Page)
		if err != nil {
			return nil, err
		}
		gathered[i] = g
	}
	m := &rank.Model{}
	for _, f := range rank.Fields {
		var ps []*rank.Page
		var labelled []quality.LabelledPage
		for i, p := range pages {
			if Labelled(p, f) {
				ps, labelled = append(ps, gathered[i]), append(labelled, p)
			}
		}
		examples := rank.Examples(f, ps, func(j int, c *rank.Candidate) bool { return Right(labelled[j], c) })
		opt := t.Options
		if !t.NoPrior {
			opt.Prior = rank.Priors[f]
		}
		m.Weights[f] = rank.Fit(examples, opt)
	}
	return m, nil
}

// Learner is the scorecard's learner: it fits a model on the training pages and extracts
// with the built-in adapters (natively, in the service's order) using it.
func (t *Trainer) Learner() quality.Learner {
	return func(ctx context.Context, train []quality.LabelledPage) (quality.Extractor, error) {
		m, err := t.Fit(ctx, train)
		if err != nil {
			return nil, err
		}
		return quality.SetExtractor(&adapter.Set{Source: Builtins(m), Fetcher: sdktest.Pages{}}), nil
	}
}

// Builtins are the built-in adapters, natively, in the order the service runs them
// (their manifests' priorities, highest first), the html adapter ranking with m.
func Builtins(m *rank.Model) sdktest.Modules {
	natives := map[string]sdk.Adapter{"shopify": shopify.Adapter{}, "amazon": amazon.Adapter{}, "ebay": ebay.Adapter{}, "jsonld": jsonld.Adapter{}, "html": html.Adapter{Model: m}}
	names := make([]string, 0, len(natives))
	priority := map[string]int{}
	for name := range natives {
		var manifest registry.Manifest
		if b, err := fs.ReadFile(builtin.FS, name+".json"); err == nil && json.Unmarshal(b, &manifest) == nil {
			priority[name] = manifest.Priority
		}
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		if priority[names[i]] != priority[names[j]] {
			return priority[names[i]] > priority[names[j]]
		}
		return names[i] < names[j]
	})
	mods := make(sdktest.Modules, len(names))
	for i, name := range names {
		mods[i] = sdk.Native(natives[name])
	}
	return mods
}

// Gathered returns the candidates of page, read natively.
func (t *Trainer) gather(ctx context.Context, page quality.Page) (*rank.Page, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if g, ok := t.gathered[page.ID]; ok {
		return g, nil
	}
	g, err := rank.GatherPage(ctx, page.URL, page.Body)
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", page.ID, err)
	}
	if t.gathered == nil {
		t.gathered = map[string]*rank.Page{}
	}
	t.gathered[page.ID] = g
	return g, nil
}

// Labelled reports whether page p's labels say anything of field f: the benchmark labels
// price, SKU and availability (a missing one means the page has none); the retail pages
// price, title and, where certain, currency.
func Labelled(p quality.LabelledPage, f rank.Field) bool {
	switch f {
	case rank.Price:
		return true
	case rank.SKU, rank.Availability:
		return p.Source == quality.Benchmark
	case rank.Title:
		return p.Labels.Title != ""
	case rank.Currency:
		return p.Labels.Currency != ""
	}
	return false
}

// Right reports whether candidate c holds page p's value of its field, as the scorecard
// judges predictions.
func Right(p quality.LabelledPage, c *rank.Candidate) bool {
	switch c.Field {
	case rank.Price:
		tp, _, _ := quality.Judge("price", p.Labels.Price, c.Value)
		return tp == 1
	case rank.SKU:
		tp, _, _ := quality.Judge("sku", p.Labels.SKU, c.Value)
		return tp == 1
	case rank.Availability:
		tp, _, _ := quality.Judge("availability", p.Labels.Availability, c.Value)
		return tp == 1
	case rank.Title:
		return p.Labels.Title != "" && quality.TitleMatches(c.Value, p.Labels.Title, p.URL)
	case rank.Currency:
		return p.Labels.Currency != "" && strings.EqualFold(p.Labels.Currency, c.Value)
	}
	return false
}

// Predict is what a model alone makes of a page's candidates, as a product (the
// ranker's fields only).
func Predict(m *rank.Model, g *rank.Page) *product.Product {
	d := m.Rank(g)
	p := &product.Product{}
	if c, ok := d.Best(rank.Title); ok {
		p.Title = &c.Value
	}
	if c, ok := d.Best(rank.Price); ok {
		p.Price = &product.Price{Current: c.Amount}
		if cur, ok := d.Best(rank.Currency); ok {
			p.Price.Currency = cur.Value
		}
	}
	if c, ok := d.Best(rank.SKU); ok {
		p.SKU = &c.Value
	}
	if c, ok := d.Best(rank.Availability); ok {
		in := c.Value == rank.InStock
		p.IsAvailable = &in
	}
	return p
}
