package quality

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/adapters/shopify"
	"github.com/stockroom/stockroom/core/adapter"
)

// panics records the adapter failures a Set logs whose error is a panic.
type panics struct {
	mu   sync.Mutex
	msgs []string
}

func (p *panics) Enabled(context.Context, slog.Level) bool { return true }
func (p *panics) WithAttrs([]slog.Attr) slog.Handler       { return p }
func (p *panics) WithGroup(string) slog.Handler            { return p }
func (p *panics) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" && strings.Contains(a.Value.String(), "panicked") {
			p.mu.Lock()
			p.msgs = append(p.msgs, a.Value.String())
			p.mu.Unlock()
		}
		return true
	})
	return nil
}

// FuzzExtract hands arbitrary bytes to the built-in adapters through the Set, as a crawl
// hands it whatever a store answered. The adapters run natively (the same source as the
// guests, on the same host document library) so the fuzzer sees their panics: none may
// panic, the Set never errors on a page, and a product's prices are finite numbers.
// The seeds are the adapters' saved pages; without -fuzz they run as a normal test.
func FuzzExtract(f *testing.F) {
	for _, dir := range []string{"../html/testdata", "../jsonld/testdata"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`<script type="application/ld+json">[{"@type":["Product"],"offers":{"@type":"AggregateOffer","lowPrice":"1.299,00 €","offers":[{"price":1e308}]}},]</script>`))
	f.Add([]byte(`<div itemscope itemtype="http://schema.org/Product"><span itemprop="offers" itemscope><b itemprop="price" content="NaN">x</b></span></div>`))
	f.Add([]byte("<h1>\u200eSKU\u200f: </h1><span class=price>9\u00a0999,9</span><button>Add to cart</button>"))
	f.Add([]byte("\xff\xfe<html><meta property=og:type content=product>"))
	rec := &panics{}
	set := &adapter.Set{
		Source:  sdktest.Modules{sdk.Native(shopify.Adapter{}), sdk.Native(jsonld.Adapter{}), sdk.Native(html.Adapter{})},
		Fetcher: sdktest.Pages{},
		Logger:  slog.New(rec),
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		const u = "https://shop.example/p/1"
		doc := &adapter.Document{URL: u, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: body}
		res, err := set.Extract(context.Background(), u, doc)
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		rec.mu.Lock()
		msgs := rec.msgs
		rec.msgs = nil
		rec.mu.Unlock()
		if len(msgs) > 0 {
			t.Fatalf("an adapter panicked: %s", msgs[0])
		}
		if res.Product == nil {
			if res.Outcome == adapter.Success || res.Outcome == "" {
				t.Fatalf("no product and outcome %q", res.Outcome)
			}
			return
		}
		for _, pr := range []*sdk.Price{res.Product.Price} {
			if pr != nil && (math.IsNaN(pr.Current) || math.IsInf(pr.Current, 0) || pr.Current < 0) {
				t.Fatalf("price %v", pr.Current)
			}
		}
	})
}
