package quality

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stockroom/stockroom/core/product"
)

func TestSiteOfNamesTheStoreAcrossItsCountrySites(t *testing.T) {
	for _, tc := range []struct{ url, site string }{
		{"https://www.amazon.fr/dp/B08LNDXM65", "amazon"},
		{"https://www.amazon.com/dp/B07FW264WL", "amazon"},
		{"https://www.argos.co.uk/product/4667999", "argos"},
		{"https://ar-sa.namshi.com/buy-x/p", "namshi"},
		{"http://sfbay.craigslist.org/eby/fuo/d/x/1.html", "craigslist"},
		{"https://www.pcstore.com.tw/pchome24h/M1.htm", "pcstore"},
		{"https://WWW.Zara.com/be/en/x.html", "zara"},
		{"http://127.0.0.1:8080/p", "127.0.0.1"},
	} {
		if got := SiteOf(tc.url); got != tc.site {
			t.Errorf("SiteOf(%s) = %q, want %q", tc.url, got, tc.site)
		}
	}
}

// sitePages makes n pages for each site, in the order given.
func sitePages(counts map[string]int) []LabelledPage {
	var pages []LabelledPage
	for site, n := range counts {
		for i := range n {
			url := fmt.Sprintf("https://%s.example/p/%d", site, i)
			pages = append(pages, LabelledPage{Page: Page{ID: fmt.Sprintf("%s-%d", site, i), Source: Benchmark, Site: site, URL: url}})
		}
	}
	return pages
}

func TestFoldsKeepASiteTogetherAndDoNotDependOnPageOrder(t *testing.T) {
	counts := map[string]int{"ikea": 4, "zara": 4, "amazon": 5, "argos": 2, "otto": 1, "emag": 2, "kiabi": 2, "elkor": 1, "paris": 1, "olx": 1}
	pages := sitePages(counts)
	fold := Folds(pages, 3)
	if len(fold) != len(counts) {
		t.Fatalf("%d sites assigned, want %d", len(fold), len(counts))
	}
	size := make([]int, 3)
	for site, f := range fold {
		if f < 0 || f >= 3 {
			t.Fatalf("site %s in fold %d", site, f)
		}
		size[f] += counts[site]
	}
	// 23 pages, the largest site 5: greedy filling keeps every fold within one site of
	// the others.
	for f, n := range size {
		if n < 7 || n > 8 {
			t.Errorf("fold %d holds %d pages, sizes %v", f, n, size)
		}
	}
	for range 10 {
		shuffled := append([]LabelledPage(nil), pages...)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if again := Folds(shuffled, 3); !reflect.DeepEqual(again, fold) {
			t.Fatalf("folds changed with page order: %v, then %v", fold, again)
		}
	}
}

// memorising is a learner that fits nothing but the training pages themselves: it knows
// the price of every page it was trained on and of no other.
func memorising(ctx context.Context, train []LabelledPage) (Extractor, error) {
	price := map[string]float64{}
	for _, p := range train {
		var v float64
		if _, err := fmt.Sscan(p.Labels.Price[0], &v); err != nil {
			return nil, err
		}
		price[p.URL] = v
	}
	return func(_ context.Context, page Page) (*product.Product, error) {
		v, ok := price[page.URL]
		if !ok {
			return nil, nil
		}
		return &product.Product{Price: &product.Price{Current: v}}, nil
	}, nil
}

func TestCrossValidationExposesALearnerThatOnlyFitsItsPages(t *testing.T) {
	pages := sitePages(map[string]int{"a": 3, "b": 2, "c": 2, "d": 1, "e": 1, "f": 1})
	for i := range pages {
		pages[i].Labels.Price = []string{fmt.Sprint(10 + i)}
	}
	ctx := context.Background()
	fitted, err := Fitted(ctx, pages, memorising)
	if err != nil {
		t.Fatal(err)
	}
	if got := ScorePages(pages, fitted)[Benchmark]["price"]; got != 1 {
		t.Errorf("fitted price F1 %.3f, want 1: the learner knows every page", got)
	}
	cv, err := CrossValidate(ctx, pages, 3, memorising)
	if err != nil {
		t.Fatal(err)
	}
	if got := cv[Benchmark]["price"]; got != 0 {
		t.Errorf("cross-validated price F1 %.3f, want 0: no page's price was learnt from another", got)
	}
}

func TestCrossValidationNeverTrainsOnTheHeldOutSite(t *testing.T) {
	pages := sitePages(map[string]int{"a": 3, "b": 2, "c": 2, "d": 1, "e": 1})
	fits := 0
	learn := func(_ context.Context, train []LabelledPage) (Extractor, error) {
		fits++
		seen := map[string]bool{}
		for _, p := range train {
			seen[p.Site] = true
		}
		return func(_ context.Context, page Page) (*product.Product, error) {
			if seen[page.Site] {
				t.Errorf("page %s extracted by a learner trained on its site", page.ID)
			}
			return nil, nil
		}, nil
	}
	pred, err := CrossValidated(context.Background(), pages, 4, learn)
	if err != nil {
		t.Fatal(err)
	}
	if fits != 4 {
		t.Errorf("%d fits, want one per fold (4)", fits)
	}
	if len(pred) != len(pages) {
		t.Errorf("%d pages predicted, want %d", len(pred), len(pages))
	}
	if _, err := CrossValidated(context.Background(), pages, 1, learn); err == nil {
		t.Error("one fold accepted")
	}
}
