package product

import "testing"

func ptr[T any](v T) *T { return &v }

func TestMergeFillsOnlyGapsAndRecordsSources(t *testing.T) {
	dst := &Product{
		Title:    ptr("Platform title"),
		Price:    &Price{Current: 10},
		Variants: []Variant{{ID: "1", Price: &Price{Current: 10}}},
	}
	Merge(dst, &Product{Title: ptr("Other"), Price: &Price{Current: 12, Currency: "EUR"}}, "shopify")
	Merge(dst, &Product{
		Title:  ptr("Generic"),
		Brand:  ptr("Acme"),
		Price:  &Price{Current: 99, Currency: "USD"},
		Images: []Image{{URL: "https://x/a.jpg"}},
	}, "jsonld")

	if *dst.Title != "Platform title" {
		t.Errorf("title = %q, want the first source's", *dst.Title)
	}
	if dst.Price.Current != 10 || dst.Price.Currency != "EUR" {
		t.Errorf("price = %+v, want 10 EUR (currency filled from the next source)", *dst.Price)
	}
	if dst.Variants[0].Price.Currency != "EUR" {
		t.Errorf("variant currency = %q, want EUR", dst.Variants[0].Price.Currency)
	}
	if got := dst.Sources["brand"]; got != "jsonld" {
		t.Errorf("sources[brand] = %q, want jsonld", got)
	}
	if got := dst.Sources["images"]; got != "jsonld" {
		t.Errorf("sources[images] = %q, want jsonld", got)
	}
	if _, ok := dst.Sources["title"]; ok {
		t.Errorf("sources[title] set although dst already had a title")
	}
}

func TestMinMaxPrice(t *testing.T) {
	p := &Product{Variants: []Variant{{Price: &Price{Current: 5}}, {}, {Price: &Price{Current: 2.5}}}}
	min, max, ok := p.MinMaxPrice()
	if !ok || min != 2.5 || max != 5 {
		t.Fatalf("MinMaxPrice = %v %v %v, want 2.5 5 true", min, max, ok)
	}
}
