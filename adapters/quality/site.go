package quality

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// LoadSite returns the development pages of one site (SiteOf's name: "amazon", "ebay")
// from the benchmark corpus in benchmarkDir and the retail corpus in retailDir; a corpus
// that is absent gives none. A platform adapter's tests score it on these page by page.
func LoadSite(site, benchmarkDir, retailDir string) ([]LabelledPage, error) {
	var out []LabelledPage
	for _, c := range []struct {
		dir  string
		load func(string) ([]LabelledPage, error)
	}{{benchmarkDir, LoadBenchmark}, {retailDir, LoadRetail}} {
		pages, err := c.load(c.dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			if p.Site == site {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// FieldResult is how a prediction did on one labelled field of one page.
type FieldResult struct {
	Field, Got string
	Right      bool
}

// JudgePage judges pred on every field page's corpus labels (the benchmark's price, sku
// and availability by score.py's rule, a retail page's title, price and currency by
// RetailRight). A benchmark field with no label is right when nothing was predicted.
func JudgePage(page LabelledPage, pred Prediction) []FieldResult {
	var out []FieldResult
	switch page.Source {
	case Benchmark:
		for _, attr := range Attributes {
			var want []string
			switch attr {
			case "price":
				want = page.Labels.Price
			case "sku":
				want = page.Labels.SKU
			case "availability":
				want = page.Labels.Availability
			}
			got := pred.get(attr)
			tp, fp, fn := Judge(attr, want, got)
			out = append(out, FieldResult{Field: attr, Got: got, Right: tp == 1 || fp+fn == 0})
		}
	case Retail:
		for _, field := range []string{"title", "price", "currency"} {
			got := map[string]string{"title": pred.Title, "price": pred.Price, "currency": pred.Currency}[field]
			if right, labelled := RetailRight(page, pred, field); labelled {
				out = append(out, FieldResult{Field: field, Got: got, Right: right})
			}
		}
	}
	return out
}

// Corpora where the development pages live; tests skip what is absent.
const (
	BenchmarkCorpus = "/work/shared/corpus/product-extraction-benchmark"
	RetailCorpus    = "/work/shared/corpus/retail-pages"
)

// CheckSite is a platform adapter's test on its platform's development pages: it extracts
// each page of site with extract and logs every labelled field page by page, the pages
// the adapter's rules were written from (authored, by the start of their ids) apart from
// the held-out others, and fails t on a wrong field. It skips t without such pages, and
// fails it when none is held out.
func CheckSite(t testing.TB, site string, authored []string, extract Extractor) {
	t.Helper()
	pages, err := LoadSite(site, BenchmarkCorpus, RetailCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Skipf("no %s page in the development corpora", site)
	}
	held := 0
	for _, p := range pages {
		group := "held out"
		if slices.ContainsFunc(authored, func(a string) bool { return strings.HasPrefix(p.ID, a) }) {
			group = "authored"
		} else {
			held++
		}
		got, err := extract(context.Background(), p.Page)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range JudgePage(p, Of(got)) {
			t.Logf("%-8s %-8.8s %-12s right=%-5v got %q (%s)", group, p.ID, r.Field, r.Right, r.Got, p.URL)
			if !r.Right {
				t.Errorf("%s page %s: %s %q is wrong (labels %+v)", group, p.ID, r.Field, r.Got, p.Labels)
			}
		}
	}
	if held == 0 {
		t.Errorf("no held-out %s page", site)
	}
}
