package demostore_test

import (
	"context"
	"fmt"
	"net/http"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Start the three kinds of store, each on its own loopback address, and read what a
// crawler should find from the catalogue.
func ExampleLaunch() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fleet, err := demostore.Launch(ctx,
		demostore.Options{Kind: demostore.Shopify, Products: 10_000},
		demostore.Options{Kind: demostore.JSONLD, Products: 500},
		demostore.Options{Kind: demostore.HTML, Products: 500},
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fleet.Stop()

	shop := fleet.Get(demostore.Shopify) // shop.BaseURL is http://127.0.0.2:PORT
	resp, err := http.Get(shop.URL("/products.json?limit=250"))
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println("products:", shop.Catalog().Len())
	for _, c := range shop.Catalog().Collections()[:3] {
		fmt.Printf("%s: %d products, %d pages\n", c.Handle, len(c.Products), shop.CategoryPages(c.Handle))
	}
	fmt.Println("product page:", fleet.Get(demostore.HTML).ProductPath(0))
	fmt.Println("fetched:", shop.Stats().ByRoute[demostore.RouteProductsJSON], "listing page,", shop.Stats().ProductsSeen, "products")
	// Output:
	// products: 10000
	// apparel: 1441 products, 61 pages
	// shoes: 1429 products, 60 pages
	// outdoor: 1394 products, 59 pages
	// product page: /item/wayfarer-gear-packable-stainless-steel-trekking-poles-1
	// fetched: 1 listing page, 250 products
}
