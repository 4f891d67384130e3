package quality

import (
	"bytes"
	"strings"
	"testing"
)

func retailPage(id, url, title, price, currency string) LabelledPage {
	p := LabelledPage{Page: Page{ID: id, Source: Retail, Site: SiteOf(url), URL: url}}
	p.Labels.Title, p.Labels.Currency = title, currency
	if price != "" {
		p.Labels.Price = []string{price}
	}
	return p
}

func TestScorePagesOnRetailPages(t *testing.T) {
	pages := []LabelledPage{
		retailPage("hm", "http://www.hm.com/us/product/1", "Bomber Jacket | Black | Women | H&M US", "24.99", "USD"),
		retailPage("tesla", "https://www.tesla.com/new/5YJ", "Model S P100D | Tesla", "137200", "USD"),
		retailPage("uniqlo", "https://www.uniqlo.com/us/en/x.html", "CARDIGAN | UNIQLO US", "1.9", ""),
		retailPage("poster", "https://www.example.com/poster", "Free Poster | Example", "", ""),
	}
	pred := map[string]Prediction{
		"hm":     {Title: "Bomber Jacket", Price: "24.990", Currency: "usd"},
		"tesla":  {Title: "Tesla", Price: "137.2", Currency: "USD"},
		"uniqlo": {Title: "Cardigan", Price: "39.9"},
		// "poster" predicted nothing: right for a page that shows no price.
	}
	got := ScorePages(pages, pred)
	want := map[string]float64{
		"title":             2.0 / 4, // hm and uniqlo
		"price":             2.0 / 4, // hm (as a decimal) and poster (none shown, none given)
		"currency":          2.0 / 2, // the pages labelled with one; codes in any case
		"currency coverage": 2.0 / 3, // hm and tesla of the three given a price
	}
	for field, w := range want {
		if g, ok := got[Retail][field]; !ok || g != w {
			t.Errorf("%s: %.3f (present %v), want %.3f", field, g, ok, w)
		}
	}
	if _, ok := got[Benchmark]; ok {
		t.Error("benchmark figures without benchmark pages")
	}
}

func TestScorePagesLeavesOutWhatNoPageMeasures(t *testing.T) {
	pages := []LabelledPage{retailPage("p", "https://shop.example.com/p", "Lamp", "", "")}
	got := ScorePages(pages, map[string]Prediction{})[Retail]
	if _, ok := got["currency"]; ok {
		t.Error("currency accuracy without a page labelled with one")
	}
	if _, ok := got["currency coverage"]; ok {
		t.Error("currency coverage without a page given a price")
	}
	if got["price"] != 1 || got["title"] != 0 {
		t.Errorf("price %.3f, title %.3f; want 1 (no price shown, none given) and 0", got["price"], got["title"])
	}
}

func TestWriteTable(t *testing.T) {
	pages := []LabelledPage{
		{Page: Page{ID: "b1", Source: Benchmark, Site: "zara"}, Labels: Labels{Price: []string{"10"}}},
		retailPage("r1", "https://www.adidas.com/us/x.html", "Poncho", "100", "USD"),
	}
	ours := ScorePages(pages, map[string]Prediction{"b1": {Price: "10"}, "r1": {Title: "Poncho"}})
	other := ScorePages(pages[:1], map[string]Prediction{})
	var out bytes.Buffer
	if err := WriteTable(&out, pages, []Column{{"fitted", ours}, {"Zyte", other}}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"product-extraction-benchmark: 1 pages of 1 sites; F1 by score.py's rule",
		"price              1.000   0.000",
		"retail-pages: 1 pages of 1 sites; share of labelled pages right",
		"field              fitted\n",
		"title              1.000\n",
		"currency coverage  -\n",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("table lacks %q:\n%s", line, out.String())
		}
	}
}
