package quality

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Fields are the figures reported for each corpus, in table order. The benchmark's are F1
// scores by its rule; the retail pages' are the share of labelled pages an extractor gets
// right. On both, "currency coverage" is the share of pages given a price that were also
// given a currency.
var Fields = map[string][]string{
	Benchmark: {"price", "sku", "availability", "currency coverage"},
	Retail:    {"title", "price", "currency", "currency coverage"},
}

// Sources are the corpora in table order.
var Sources = []string{Benchmark, Retail}

// Scores are one extractor's figures: corpus -> field -> figure in [0, 1]. A field no page
// of a corpus could measure (no labelled currency, no price given) is absent.
type Scores map[string]map[string]float64

// ScorePages scores pred (page id -> prediction) on pages, each page by the measures of its
// corpus. A page missing from pred counts as a page where nothing was found.
func ScorePages(pages []LabelledPage, pred map[string]Prediction) Scores {
	out := Scores{}
	for _, source := range Sources {
		var of []LabelledPage
		for _, p := range pages {
			if p.Source == source {
				of = append(of, p)
			}
		}
		if len(of) == 0 {
			continue
		}
		figures := map[string]float64{}
		switch source {
		case Benchmark:
			for _, attr := range Attributes {
				figures[attr] = benchmarkF1(of, pred, attr).F1
			}
		case Retail:
			for _, field := range []string{"title", "price", "currency"} {
				if share, ok := retailAccuracy(of, pred, field); ok {
					figures[field] = share
				}
			}
		}
		if share, ok := currencyCoverage(of, pred); ok {
			figures["currency coverage"] = share
		}
		out[source] = figures
	}
	return out
}

// RetailRight reports whether pred gets field ("title", "price" or "currency") of a retail
// page right; labelled is false when the page has no label to judge it by. A price is
// right when it equals the labelled one as a decimal, or when the page shows no price and
// none was predicted; a currency when it is the labelled ISO code; a title by
// TitleMatches.
func RetailRight(page LabelledPage, pred Prediction, field string) (right, labelled bool) {
	switch field {
	case "title":
		if page.Labels.Title == "" {
			return false, false
		}
		return TitleMatches(pred.Title, page.Labels.Title, page.URL), true
	case "price":
		if len(page.Labels.Price) == 0 {
			return decimal(pred.Price) == nil, true
		}
		tp, _, _ := Judge("price", page.Labels.Price, pred.Price)
		return tp == 1, true
	case "currency":
		if page.Labels.Currency == "" {
			return false, false
		}
		return strings.EqualFold(pred.Currency, page.Labels.Currency), true
	}
	return false, false
}

// retailAccuracy is the share of pages labelled for field that pred gets right; ok is
// false when no page is labelled for it.
func retailAccuracy(pages []LabelledPage, pred map[string]Prediction, field string) (share float64, ok bool) {
	right, labelled := 0, 0
	for _, p := range pages {
		r, l := RetailRight(p, pred[p.ID], field)
		if l {
			labelled++
		}
		if r {
			right++
		}
	}
	if labelled == 0 {
		return 0, false
	}
	return float64(right) / float64(labelled), true
}

// currencyCoverage is the share of pages given a price that were also given a currency;
// ok is false when no page was given a price.
func currencyCoverage(pages []LabelledPage, pred map[string]Prediction) (share float64, ok bool) {
	priced, withCurrency := 0, 0
	for _, p := range pages {
		got := pred[p.ID]
		if decimal(got.Price) == nil {
			continue
		}
		priced++
		if got.Currency != "" {
			withCurrency++
		}
	}
	if priced == 0 {
		return 0, false
	}
	return float64(withCurrency) / float64(priced), true
}

// Column is one extractor's figures in a scorecard table, under its name.
type Column struct {
	Name   string
	Scores Scores
}

// WriteTable writes one table per corpus of pages: a row per field, a column per
// extractor scored on that corpus (the other extractors' outputs cover the benchmark
// only); "-" where no page measured a field.
func WriteTable(w io.Writer, pages []LabelledPage, columns []Column) error {
	first := true
	for _, source := range Sources {
		n, sites := 0, map[string]bool{}
		for _, p := range pages {
			if p.Source == source {
				n++
				sites[p.Site] = true
			}
		}
		if n == 0 {
			continue
		}
		measure := "share of labelled pages right"
		if source == Benchmark {
			measure = "F1 by score.py's rule"
		}
		if !first {
			fmt.Fprintln(w)
		}
		first = false
		fmt.Fprintf(w, "%s: %d pages of %d sites; %s\n", source, n, len(sites), measure)
		var scored []Column
		for _, c := range columns {
			if _, ok := c.Scores[source]; ok {
				scored = append(scored, c)
			}
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		header := []string{"field"}
		for _, c := range scored {
			header = append(header, c.Name)
		}
		fmt.Fprintln(tw, strings.Join(header, "\t"))
		for _, field := range Fields[source] {
			row := []string{field}
			for _, c := range scored {
				cell := "-"
				if v, ok := c.Scores[source][field]; ok {
					cell = fmt.Sprintf("%.3f", v)
				}
				row = append(row, cell)
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
