// Package demostore is Stockroom's offline demo shop: several kinds of storefront over a
// generated (or real, loaded) catalogue, each an http.Handler with injectable faults and
// request counters. `make run` crawls it without the internet; the crawl and extract
// tests and benchmarks use it as their target.
//
// # Stores
//
// A Store serves one Kind:
//
//   - Shopify: the storefront JSON (/products.json, /collections.json,
//     /collections/{handle}/products.json, /products/{handle}.json and .js), sitemaps split
//     at 5,000 products, robots.txt, and theme-like HTML pages with JSON-LD,
//     og:price:currency and window.Shopify; Shopify's headers on every answer.
//   - JSONLD: a non-Shopify shop whose product pages carry schema.org JSON-LD in four
//     flavours (see JSONLDFlavor), category pages with an ItemList and rel=next, a sitemap.
//   - HTML: plain markup only; category pages with "Next page" links, product pages with a
//     price by "Add to cart", a struck-out old price, stock text, SKU and related products.
//   - Sitemap: the HTML kind's pages behind a home page that links no category; only its
//     nested, partly gzipped sitemaps (announced in robots.txt) name the categories and
//     products, some of them in no category, with pictures and German pages (hreflang).
//   - WooCommerce: a German shop on WooCommerce's Storefront theme with its Store API
//     open: category archives paged /page/N/, sale prices in <del>/<ins>, variations in
//     data-product_variations, prices "1.234,56 €".
//   - Magento: a British Magento 2 shop on Luma: li.product-item tiles with
//     data-price-amount, pages ?p=N, configurable products' jsonConfig, prices "£1,234.56".
//   - Headless: a French shop on a Next.js storefront that draws little markup and carries
//     its catalogue in __NEXT_DATA__ (Storefront API shapes), pages ?page=N, "12,50 €".
//   - Script: a shop whose every page is an application shell; its script fetches the page
//     as JSON from /api/page and draws it (the JSON-LD shop's markup). Only a crawler that
//     renders pages (render.enabled) reads it.
//
// Build one with New, or start several with Launch:
//
//	fleet, err := demostore.Launch(ctx,
//		demostore.Options{Kind: demostore.Shopify, Products: 10_000},
//		demostore.Options{Kind: demostore.JSONLD, Products: 500},
//		demostore.Options{Kind: demostore.HTML, Products: 500})
//	if err != nil { ... }
//	defer fleet.Stop()
//	shop := fleet.Get(demostore.Shopify)
//	// shop.BaseURL == "http://127.0.0.2:PORT"; shop.Catalog() says what to expect;
//	// shop.Stats() says what was fetched.
//
// Each store listens on its own loopback address (127.0.0.2, .3, .4, .9, .10, .11, .12 by
// default) because Stockroom identifies a vendor by host name and ignores ports. Links are
// absolute and built from the request's Host, so a store works on any address.
//
// # Catalogues
//
// Generate makes a catalogue from a seed: product i is built from (seed, i) when it is
// asked for, so 100,000 products cost only the collection indexes. LoadShopify serves a
// real /products.json capture with its prices exactly as captured.
//
// # Faults
//
// Options.Faults adds latency, 429 bursts, a share of 5xx answers, a Cloudflare-like bot
// wall and robots.txt exclusions. Special product handles (HandleMissing, HandleMoved,
// ...) and the query parameters of FaultParams fault single requests. Every store lists
// its special URLs at /_demo/faults.json, its counters at /_demo/stats.json and its
// expected counts at /_demo/catalog.json. README.md has the full list.
package demostore
