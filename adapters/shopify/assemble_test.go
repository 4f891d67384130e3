package shopify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/product"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// TestAssembleGivesWhatExtractGives builds every product of the real catalogs twice from a
// demo store serving them: from its listing's record (Assemble, as a vendor's extraction
// does) and from its page (Extract with the generic adapters after it, as a URL's
// extraction does), and wants the same product, field for field. Assembling asks the
// store for its home page once, and for nothing else.
func TestAssembleGivesWhatExtractGives(t *testing.T) {
	for path, m := range paths(t) {
		for _, file := range []string{"mylubie-products.json", "kiidskingdom-products.json", "stanley1913-products.json"} {
			t.Run(path+"/"+file, func(t *testing.T) {
				catalog, err := demostore.LoadShopify(filepath.Join(corpusDir, file))
				if err != nil {
					t.Skipf("corpus %s: %v", file, err)
				}
				fleet, err := demostore.Launch(context.Background(), demostore.Options{Kind: demostore.Shopify, Catalog: catalog})
				if err != nil {
					t.Fatal(err)
				}
				defer fleet.Stop()
				base := fleet.Get(demostore.Shopify).BaseURL
				fetcher := &countingFetcher{}
				set := &adapter.Set{Source: sdktest.Modules{m, sdk.Native(jsonld.Adapter{}), sdk.Native(html.Adapter{})}, Fetcher: fetcher}
				ctx := context.Background()

				var listings []adapter.Listing
				var lister string
				for cursor := ""; ; {
					page, err := set.List(ctx, "shopify", base+"/collections/all", cursor, catalog.Len())
					if err != nil {
						t.Fatal(err)
					}
					listings, cursor = append(listings, page.Listings...), page.Next
					if page.Adapter != "" {
						lister = page.Adapter
					}
					if cursor == "" {
						break
					}
				}
				if len(listings) != catalog.Len() {
					t.Fatalf("listed %d products, the catalog has %d", len(listings), catalog.Len())
				}

				shared := adapter.NewSharedDocuments(fetcher)
				before := fetcher.count
				for _, l := range listings {
					if l.Record == nil {
						t.Fatalf("%s: listing without a record", l.URL)
					}
					assembled, err := set.Assemble(ctx, lister, l.URL, l.Record, shared)
					if err != nil || assembled.Product == nil {
						t.Fatalf("%s: assemble: %+v, %v", l.URL, assembled, err)
					}
					extracted, err := set.Extract(ctx, l.URL, nil)
					if err != nil || extracted.Product == nil {
						t.Fatalf("%s: extract: %+v, %v", l.URL, extracted, err)
					}
					if diff := fieldDiff(assembled.Product, extracted.Product); diff != "" {
						t.Fatalf("%s: assembled and extracted products differ: %s", l.URL, diff)
					}
				}
				// The extractions' own fetches (three a product) are counted too.
				if got, want := fetcher.count-before, 1+3*len(listings); got != want {
					t.Errorf("%d fetches for %d products, want %d: the home page once for all, and each extraction's three", got, len(listings), want)
				}
			})
		}
	}
}

// fieldDiff names the fields in which a and b differ, with both values, or is "".
func fieldDiff(a, b *product.Product) string {
	var fields [2]map[string]json.RawMessage
	for i, p := range []*product.Product{a, b} {
		raw, _ := json.Marshal(p)
		_ = json.Unmarshal(raw, &fields[i])
	}
	var diff []string
	for name := range merged(fields[0], fields[1]) {
		if !reflect.DeepEqual(fields[0][name], fields[1][name]) {
			diff = append(diff, fmt.Sprintf("%s: %.300s / %.300s", name, fields[0][name], fields[1][name]))
		}
	}
	return strings.Join(diff, "; ")
}

func merged(a, b map[string]json.RawMessage) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// countingFetcher fetches over HTTP and counts its fetches. The tests use it one product
// at a time.
type countingFetcher struct{ count int }

func (f *countingFetcher) Fetch(ctx context.Context, url string) (*adapter.Document, error) {
	f.count++
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return &adapter.Document{URL: url, Err: fmt.Sprintf("fetch %s: %v", url, err)}, nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return &adapter.Document{URL: url, Err: fmt.Sprintf("read %s: %v", url, err)}, nil
	}
	return &adapter.Document{URL: url, Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}
