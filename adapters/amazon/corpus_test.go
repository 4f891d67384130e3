package amazon_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/amazon"
	"github.com/stockroom/stockroom/adapters/quality"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

// retailCorpus holds the retail pages (see its README); the test skips without it.
const retailCorpus = "/work/shared/corpus/retail-pages"

// authored are the development pages the adapter's rules were written from (by the start
// of their ids). Every other Amazon page of the development corpora is held out: the
// adapter was not looked at on them until it was written, and they are scored apart.
var authored = []string{"2eca89a9", "01efbb74", "0094967f"}

// TestHeldOutAmazonPages extracts every Amazon page of the development corpora with the
// adapter alone and reports each field page by page, the pages it was written from apart
// from the others; every page must get its price, ASIN and stock right.
func TestHeldOutAmazonPages(t *testing.T) {
	pages := amazonPages(t)
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(amazon.Adapter{})}, Fetcher: sdktest.Pages{}}
	extract := quality.SetExtractor(set)
	held := 0
	for _, p := range pages {
		group := "held out"
		if isAuthored(p.ID) {
			group = "authored"
		} else {
			held++
		}
		got, err := extract(context.Background(), p.Page)
		if err != nil {
			t.Fatal(err)
		}
		pred := quality.Of(got)
		for _, field := range fieldsOf(p) {
			right := judge(p, pred, field)
			t.Logf("%-8s %-8s %-12s %-5v got %q (%s)", group, p.ID[:min(8, len(p.ID))], field, right, value(pred, field), p.URL)
			if !right {
				t.Errorf("%s page %s: %s %q is wrong (labels %+v)", group, p.ID, field, value(pred, field), p.Labels)
			}
		}
	}
	if held == 0 {
		t.Error("no held-out Amazon page")
	}
}

func amazonPages(t *testing.T) []quality.LabelledPage {
	var pages []quality.LabelledPage
	for _, c := range []struct {
		dir  string
		load func(string) ([]quality.LabelledPage, error)
	}{{sdktest.BenchmarkCorpus, quality.LoadBenchmark}, {retailCorpus, quality.LoadRetail}} {
		some, err := c.load(c.dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range some {
			if p.Site == "amazon" {
				pages = append(pages, p)
			}
		}
	}
	if len(pages) == 0 {
		t.Skip("no development corpus")
	}
	return pages
}

func isAuthored(id string) bool {
	for _, a := range authored {
		if strings.HasPrefix(id, a) {
			return true
		}
	}
	return false
}

// fieldsOf are the fields a page's corpus labels.
func fieldsOf(p quality.LabelledPage) []string {
	if p.Source == quality.Retail {
		return []string{"title", "price", "currency"}
	}
	return []string{"price", "sku", "availability"}
}

func judge(p quality.LabelledPage, pred quality.Prediction, field string) bool {
	if p.Source == quality.Retail {
		right, _ := quality.RetailRight(p, pred, field)
		return right
	}
	var want []string
	got := value(pred, field)
	switch field {
	case "price":
		want = p.Labels.Price
	case "sku":
		want = p.Labels.SKU
	case "availability":
		want = p.Labels.Availability
	}
	tp, fp, fn := quality.Judge(field, want, got)
	return tp == 1 || fp+fn == 0
}

func value(pred quality.Prediction, field string) string {
	switch field {
	case "title":
		return pred.Title
	case "price":
		return pred.Price
	case "currency":
		return pred.Currency
	case "sku":
		return pred.SKU
	}
	return pred.Availability
}
