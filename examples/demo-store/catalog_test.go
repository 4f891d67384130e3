package demostore_test

import (
	"reflect"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestSameSeedSameCatalog(t *testing.T) {
	a, b := demostore.Generate(7, 500), demostore.Generate(7, 500)
	for i := range a.Len() {
		if !reflect.DeepEqual(a.Product(i), b.Product(i)) {
			t.Fatalf("product %d differs between two catalogues of seed 7", i)
		}
	}
	if !reflect.DeepEqual(a.Collections(), b.Collections()) {
		t.Fatal("collections differ between two catalogues of seed 7")
	}
	// A product does not depend on the catalogue size.
	if !reflect.DeepEqual(a.Product(42), demostore.Generate(7, 100_000).Product(42)) {
		t.Fatal("product 42 depends on the catalogue size")
	}
	if reflect.DeepEqual(a.Product(0).Title, demostore.Generate(8, 1).Product(0).Title) &&
		reflect.DeepEqual(a.Product(1).Title, demostore.Generate(8, 2).Product(1).Title) {
		t.Fatal("seeds 7 and 8 give the same products")
	}
}

func TestHandlesAreUniqueAndLookUp(t *testing.T) {
	c := demostore.Generate(1, 3000)
	seen := map[string]bool{}
	for i := range c.Len() {
		h := c.Product(i).Handle
		if seen[h] {
			t.Fatalf("handle %q repeats", h)
		}
		seen[h] = true
		if j, ok := c.Lookup(h); !ok || j != i {
			t.Fatalf("Lookup(%q) = %d, %v; want %d", h, j, ok, i)
		}
	}
	for _, h := range []string{"", "nope", "ridgeback-insulated-sneaker-0", "x-3001", c.Product(5).Handle + "x"} {
		if _, ok := c.Lookup(h); ok {
			t.Errorf("Lookup(%q) found a product", h)
		}
	}
}

func TestCategoriesPartitionTheCatalog(t *testing.T) {
	const n = 10_000
	c := demostore.Generate(1, n)
	inCategory := make([]int, n)
	inSeveral := 0
	memberships := make([]int, n)
	for _, col := range c.Collections() {
		if len(col.Products) == 0 {
			t.Errorf("collection %s is empty", col.Handle)
		}
		for _, i := range col.Products {
			memberships[i]++
			if p := c.Product(int(i)); p.Category == col.Handle {
				inCategory[i]++
			}
		}
	}
	for i := range n {
		if inCategory[i] != 1 {
			t.Fatalf("product %d is in %d category collections, want 1", i, inCategory[i])
		}
		if memberships[i] > 1 {
			inSeveral++
		}
	}
	if inSeveral < n/5 {
		t.Errorf("only %d of %d products are in more than one collection", inSeveral, n)
	}
}

func TestGeneratedProductsLookReal(t *testing.T) {
	c := demostore.Generate(1, 2000)
	var onSale, soldOutVariants, withOptions, multiImage int
	for i := range c.Len() {
		p := c.Product(i)
		if p.Title == "" || p.Vendor == "" || p.ProductType == "" || p.BodyHTML == "" || len(p.Tags) == 0 {
			t.Fatalf("product %d lacks text: %+v", i, p)
		}
		if len(p.Variants) == 0 || len(p.Variants) > 100 || len(p.Options) > 3 {
			t.Fatalf("product %d: %d variants, %d options", i, len(p.Variants), len(p.Options))
		}
		for _, im := range p.Images {
			if im.Width == 0 || im.Height == 0 || im.Src == "" {
				t.Fatalf("product %d image without size: %+v", i, im)
			}
		}
		if len(p.Images) > 1 {
			multiImage++
		}
		if p.Options[0].Name != "Title" {
			withOptions++
		}
		for _, v := range p.Variants {
			if v.Price <= 0 {
				t.Fatalf("product %d variant %d has price %v", i, v.ID, v.Price)
			}
			if v.CompareAtPrice != 0 {
				onSale++
				if v.CompareAtPrice <= v.Price {
					t.Fatalf("product %d: compare-at %v not above price %v", i, v.CompareAtPrice, v.Price)
				}
			}
			if !v.Available {
				soldOutVariants++
			}
			if len(v.OptionValues) != len(p.Options) {
				t.Fatalf("product %d variant %q has %d option values for %d options", i, v.Title, len(v.OptionValues), len(p.Options))
			}
		}
	}
	if onSale == 0 || soldOutVariants == 0 || withOptions < 1000 || multiImage == 0 {
		t.Errorf("too uniform: %d variants on sale, %d sold out, %d products with options, %d with several images",
			onSale, soldOutVariants, withOptions, multiImage)
	}
}

func TestMoneyIsExact(t *testing.T) {
	for _, s := range []string{"0.00", "0.01", "19.99", "520.00", "1234567.89"} {
		m, err := demostore.ParseMoney(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseMoney(%q) = %v, %v", s, m, err)
		}
	}
	if m, _ := demostore.ParseMoney("49.9"); m != 4990 {
		t.Errorf("ParseMoney(49.9) = %d", m)
	}
	for _, s := range []string{"", "1.234", "abc", "-1.00"} {
		if _, err := demostore.ParseMoney(s); err == nil {
			t.Errorf("ParseMoney(%q) succeeded", s)
		}
	}
}
