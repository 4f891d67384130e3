package wasm_test

import (
	"context"
	"fmt"
	"log"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// Load an adapter's WebAssembly module and ask it to extract a product page.
func Example() {
	ctx := context.Background()

	// An adapter is a WebAssembly module, shipped as NAME.wasm beside its manifest. This
	// one is built from testdata/shop, an adapter written with adapters/sdk.
	module, err := sdktest.Compile("testdata/shop")
	if err != nil {
		log.Fatal(err)
	}

	// One Runtime serves every adapter of a process. Load compiles the module, checks its
	// ABI version and fills a pool of ready instances.
	rt, err := wasm.New(ctx, wasm.Config{CacheDir: sdktest.CacheDir(), PoolSize: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer rt.Close(ctx)
	shop, err := rt.Load(ctx, "shop", module)
	if err != nil {
		log.Fatal(err)
	}
	defer shop.Close(ctx)
	fmt.Println(shop.Info().Name, shop.Info().Capabilities)

	// The host fetches; the adapter only reads the documents it is given.
	page := &adapter.Document{
		URL:    "https://shop.example/products/kettle",
		Status: 200,
		Body: []byte(`<html><head><script type="application/ld+json">
			{"@type": "Product", "name": "Kettle", "offers": {"price": "12.50", "priceCurrency": "EUR"}}
			</script></head><body><h1>Kettle</h1></body></html>`),
	}
	resp, err := shop.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: page.URL, Docs: []*adapter.Document{page}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*resp.Product.Title, resp.Product.Price.Current, resp.Product.Price.Currency)

	// A page without a product is an outcome, not an error.
	home := &adapter.Document{URL: "https://shop.example/", Status: 200, Body: []byte(`<h1>Welcome</h1>`)}
	resp, err = shop.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: home.URL, Docs: []*adapter.Document{home}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Outcome, resp.Message)
	// Output:
	// shop [extract]
	// Kettle 12.5 EUR
	// non_product_url the page describes no schema.org Product
}
