package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/rank"
)

// figures are a scoring's numbers by name ("benchmark price F1").
type figures map[string]float64

// column is one scoring in the report.
type column struct {
	name string
	figs figures
}

// figureOrder is the order the report lists figures in.
var figureOrder = []string{
	"benchmark price F1", "benchmark sku F1", "benchmark availability F1", "benchmark currency accuracy",
	"retail title accuracy", "retail price accuracy", "retail currency accuracy",
}

// score computes the figures of one set of predictions: on the benchmark's pages, F1 as
// its score.py counts it for price, sku and availability; on the retail pages, the share
// of pages right (a page without a price is right with none predicted).
func score(pages []labelledPage, preds []prediction) figures {
	truth := map[string]quality.Truth{}
	pred := map[string]quality.Prediction{}
	out := figures{}
	right := map[string]int{}
	count := map[string]int{}
	tally := func(name string, ok bool) {
		count[name]++
		if ok {
			right[name]++
		}
	}
	for i, p := range pages {
		got := preds[i]
		switch p.Corpus {
		case benchmarkCorpus:
			truth[p.ID] = p.truth
			pred[p.ID] = quality.Prediction{Price: got[rank.Price], SKU: got[rank.SKU], Availability: got[rank.Availability]}
			if p.labelled[rank.Currency] {
				tally("benchmark currency accuracy", got[rank.Currency] == p.currency)
			}
		case retailCorpus:
			price := rank.Candidate{Field: rank.Price, Value: got[rank.Price]}
			tally("retail price accuracy", got[rank.Price] == "" && p.retailPrice == "" || got[rank.Price] != "" && p.right(&price))
			title := rank.Candidate{Field: rank.Title, Value: got[rank.Title]}
			tally("retail title accuracy", got[rank.Title] != "" && p.right(&title))
			if p.labelled[rank.Currency] {
				tally("retail currency accuracy", got[rank.Currency] == p.currency)
			}
		}
	}
	for attr, s := range quality.Score(truth, pred) {
		out["benchmark "+attr+" F1"] = s.F1
	}
	for name, n := range count {
		out[name] = float64(right[name]) / float64(n)
	}
	return out
}

// report prints the figures side by side.
func report(w io.Writer, columns []column) {
	fmt.Fprintf(w, "%-28s", "")
	for _, c := range columns {
		fmt.Fprintf(w, " %16s", c.name)
	}
	fmt.Fprintln(w)
	for _, name := range figureOrder {
		fmt.Fprintf(w, "%-28s", name)
		for _, c := range columns {
			fmt.Fprintf(w, " %16.3f", c.figs[name])
		}
		fmt.Fprintln(w)
	}
}

// expects reports whether page p has a value for field f.
func (p *labelledPage) expects(f rank.Field) bool {
	return p.want(f) != ""
}

// want renders page p's accepted values of field f.
func (p *labelledPage) want(f rank.Field) string {
	switch f {
	case rank.Price:
		if p.Corpus == retailCorpus {
			return p.retailPrice
		}
		return strings.Join(p.truth.Price, " or ")
	case rank.SKU:
		return strings.Join(p.truth.SKU, " or ")
	case rank.Availability:
		return strings.Join(p.truth.Availability, " or ")
	case rank.Currency:
		return p.currency
	case rank.Title:
		return p.title
	}
	return ""
}
