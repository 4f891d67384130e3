package quality

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// TestBuiltinsAgreeOnSavedPages runs every saved page of the built-in adapters through all
// their guests together, as production does, and expects each page's outcome: a page one
// adapter calls no product (a category, a blog post, a listing) must not become a product
// because another adapter's looser heuristics fill in, and product pages stay products.
func TestBuiltinsAgreeOnSavedPages(t *testing.T) {
	set := &adapter.Set{Source: everyBuiltin(t), Fetcher: sdktest.Pages{}}
	cases, _ := filepath.Glob("../*/testdata/*.expected.json")
	if len(cases) == 0 {
		t.Fatal("no saved pages")
	}
	for _, file := range cases {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// A case says what its extraction gives at the top level or in its "extract"
		// member (adapters/ABI.md, "Authoring kit"); a case without one (a home page's
		// detect and discover) says nothing of it.
		var want struct {
			URL     string          `json:"url"`
			Outcome string          `json:"outcome"`
			Product json.RawMessage `json:"product"`
			Extract *struct {
				Outcome string `json:"outcome"`
			} `json:"extract"`
		}
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if want.Extract != nil {
			want.Outcome = want.Extract.Outcome
		} else if want.Outcome == "" && want.Product == nil {
			continue
		}
		body, err := os.ReadFile(strings.TrimSuffix(file, ".expected.json") + ".html")
		if err != nil {
			continue // a case without a page (fetched documents only)
		}
		if want.Outcome == "" {
			want.Outcome = string(adapter.Success)
		}
		doc := &adapter.Document{URL: want.URL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: body}
		res, err := set.Extract(context.Background(), want.URL, doc)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if string(res.Outcome) != want.Outcome {
			t.Errorf("%s: outcome %s (%s), want %s", file, res.Outcome, res.Message, want.Outcome)
		}
	}
}

// everyBuiltin loads the guest of every built-in adapter, the platform adapters among
// them: a page drawn by a storefront application (the headless adapter's) shows the
// generic adapters nothing, and production runs them all.
func everyBuiltin(t testing.TB) sdktest.Modules {
	var mods sdktest.Modules
	for _, name := range []string{"shopify", "woocommerce", "magento", "amazon", "ebay", "headless", "jsonld", "html"} {
		mods = append(mods, sdktest.Load(t, filepath.Join("..", name, "guest"), wasm.Config{}))
	}
	return mods
}
