package demostore_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// BenchmarkServe measures handler throughput per page kind on a 100,000-product store
// (no network; see BenchmarkServeLoopback for the whole HTTP path).
func BenchmarkServe(b *testing.B) {
	stores := map[demostore.Kind]*demostore.Store{}
	for _, k := range demostore.Kinds {
		st, err := demostore.New(demostore.Options{Kind: k, Products: 100_000})
		if err != nil {
			b.Fatal(err)
		}
		stores[k] = st
	}
	cases := []struct {
		name string
		kind demostore.Kind
		path func(*demostore.Store, int) string
	}{
		{"shopify/products.json-250", demostore.Shopify, func(_ *demostore.Store, i int) string { return "/products.json?limit=250&page=" + itoa(1+i%100) }},
		{"shopify/product-page", demostore.Shopify, func(s *demostore.Store, i int) string { return s.ProductPath(i % 100_000) }},
		{"shopify/product.js", demostore.Shopify, func(s *demostore.Store, i int) string { return s.ProductPath(i%100_000) + ".js" }},
		{"shopify/sitemap-5000", demostore.Shopify, func(_ *demostore.Store, i int) string { return "/sitemap_products_" + itoa(1+i%20) + ".xml" }},
		{"jsonld/product-page", demostore.JSONLD, func(s *demostore.Store, i int) string { return s.ProductPath(i % 100_000) }},
		{"jsonld/category-page", demostore.JSONLD, func(_ *demostore.Store, i int) string { return "/category/apparel?page=" + itoa(1+i%500) }},
		{"html/product-page", demostore.HTML, func(s *demostore.Store, i int) string { return s.ProductPath(i % 100_000) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			st := stores[c.kind]
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				w := httptest.NewRecorder()
				st.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.2"+c.path(st, i*7919), nil))
				if w.Code != 200 {
					b.Fatalf("%s: %d", c.path(st, i*7919), w.Code)
				}
				i++
			}
		})
	}
}

// BenchmarkServeLoopback fetches product pages over loopback HTTP in parallel.
func BenchmarkServeLoopback(b *testing.B) {
	st := start(b, demostore.Options{Kind: demostore.HTML, Products: 10_000}).Get(demostore.HTML)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			resp, err := client.Get(st.URL(st.ProductPath(i % 10_000)))
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			i++
		}
	})
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
