package shopify

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// BenchmarkExtract measures CPU per product through the WebAssembly guest (deadlines on,
// as in production) and natively; the issue allows the guest 1.25x the native time. Each
// iteration extracts one product of the stanley1913 catalog from fresh documents, so
// host-side parsing is counted on both paths, with one of two product pages:
//
//   - "min": a minimal page holding only what the adapter reads (currency, canonical link,
//     platform markers). The host's work is then the least it can be, so this is the
//     ratio of a call dominated by the guest's fixed costs.
//   - "real": the corpus's one Shopify product page (a 454 KB storefront page of
//     product-extraction-benchmark), as a crawl fetches it, with the catalog's JSON.
func BenchmarkExtract(b *testing.B) {
	products := loadCatalogB(b, "stanley1913-products.json")
	pages := map[string][]byte{"min": nil}
	if real := shopifyCorpusPage(b); real != nil {
		pages["real"] = real
	}
	for _, page := range []string{"min", "real"} {
		body, ok := pages[page]
		if !ok {
			continue
		}
		for _, bc := range []struct {
			name string
			mod  func() adapter.Module
		}{
			{"native", func() adapter.Module { return sdk.Native(Adapter{}) }},
			{"wasm", func() adapter.Module { return sdktest.Load(b, "guest", wasm.Config{}) }},
			{"wasm-context-interrupt", func() adapter.Module {
				return sdktest.Load(b, "guest", wasm.Config{Interrupt: wasm.InterruptContext})
			}},
			{"wasm-no-interrupt", func() adapter.Module { return sdktest.Load(b, "guest", wasm.Config{Interrupt: wasm.InterruptNone}) }},
		} {
			b.Run(page+"/"+bc.name, func(b *testing.B) {
				m := bc.mod()
				extract := func(i int) {
					p := products[i%len(products)]
					pageURL, docs := pagesFor(p)
					if body != nil {
						docs[pageURL].Body = body
					}
					set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: docs}
					if res, err := set.Extract(context.Background(), pageURL, docs[pageURL]); err != nil || res.Product == nil {
						b.Fatal(res, err)
					}
				}
				sdktest.WarmUp(len(products), extract)
				b.ReportAllocs()
				cpu := sdktest.StartCPU(b)
				for i := 0; i < b.N; i++ {
					extract(i)
				}
				cpu.Stop(b)
			})
		}
	}
}

// shopifyCorpusPage returns the body of the benchmark corpus's Shopify product page, or nil.
func shopifyCorpusPage(b *testing.B) []byte {
	if _, err := os.Stat(sdktest.BenchmarkCorpus); err != nil {
		return nil
	}
	for _, p := range sdktest.CorpusPages(b) {
		if bytes.Contains(p.Body, []byte("cdn.shopify.com")) && strings.Contains(p.URL, "/products/") {
			return p.Body
		}
	}
	return nil
}

// BenchmarkPages compares CPU per page of the WebAssembly guest and the native build on
// the product-extraction-benchmark pages (none of them a Shopify store: this is the cost of
// detection, which runs on every page); the issue allows the guest 1.25x.
func BenchmarkPages(b *testing.B) { sdktest.BenchmarkPages(b, "guest", sdk.Native(Adapter{})) }

// BenchmarkList measures CPU per products.json page listed with its records, natively:
// the host's Shape of listingsTemplate over a page of 250 products of the stanley1913
// catalog, as the crawl lists it, from a fresh document each time.
func BenchmarkList(b *testing.B) {
	products := loadCatalogB(b, "stanley1913-products.json")
	body := []byte(`{"products":[`)
	for i, p := range products[:min(PageSize, len(products))] {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, p.raw...)
	}
	body = append(body, "]}"...)
	collection := shop + "/collections/all"
	pageURL := collection + "/products.json?limit=" + strconv.Itoa(PageSize) + "&page=1"
	m := sdk.Native(Adapter{})
	list := func(int) {
		docs := sdktest.Pages{pageURL: {URL: pageURL, Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}}
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: docs}
		page, err := set.List(context.Background(), "shopify", collection, "", 0)
		if err != nil || len(page.Listings) != PageSize || page.Listings[0].Record == nil {
			b.Fatal(len(page.Listings), err)
		}
	}
	for i := 0; i < 3; i++ {
		list(i)
	}
	b.ReportAllocs()
	cpu := sdktest.StartCPU(b)
	for i := 0; i < b.N; i++ {
		list(i)
	}
	cpu.Stop(b)
}

// BenchmarkListDemoStore is BenchmarkList over a page of the demo store that
// BenchmarkCrawl (bench/) crawls: 250 generated products, about a megabyte.
func BenchmarkListDemoStore(b *testing.B) {
	fleet, err := demostore.Launch(context.Background(), demostore.Options{Kind: demostore.Shopify, Products: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	defer fleet.Stop()
	collection := fleet.Get(demostore.Shopify).BaseURL + "/collections/all"
	pageURL := collection + "/products.json?limit=" + strconv.Itoa(PageSize) + "&page=1"
	page, err := (&countingFetcher{}).Fetch(context.Background(), pageURL)
	if err != nil || page.Status != http.StatusOK {
		b.Fatal(page, err)
	}
	m := sdk.Native(Adapter{})
	list := func() {
		docs := sdktest.Pages{pageURL: {URL: pageURL, Status: 200, Header: page.Header, Body: page.Body}}
		set := &adapter.Set{Source: sdktest.Modules{m}, Fetcher: docs}
		listed, err := set.List(context.Background(), "shopify", collection, "", 0)
		if err != nil || len(listed.Listings) != PageSize || listed.Listings[0].Record == nil {
			b.Fatal(len(listed.Listings), err)
		}
	}
	list()
	b.ReportAllocs()
	cpu := sdktest.StartCPU(b)
	for i := 0; i < b.N; i++ {
		list()
	}
	cpu.Stop(b)
}
