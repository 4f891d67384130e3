package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"strconv"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/adapters/shopify"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/registry"
)

// builtinOrder loads the built-in adapters natively in the order their manifests'
// priorities give the service.
func builtinOrder() (sdktest.Modules, error) {
	natives := map[string]sdk.Adapter{"shopify": shopify.Adapter{}, "jsonld": jsonld.Adapter{}, "html": html.Adapter{}}
	type entry struct {
		name     string
		priority int
	}
	var order []entry
	for name := range natives {
		var m registry.Manifest
		b, err := fs.ReadFile(builtin.FS, name+".json")
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s.json: %w", name, err)
		}
		order = append(order, entry{name, m.Priority})
	}
	sort.Slice(order, func(i, j int) bool { return order[i].priority > order[j].priority })
	var mods sdktest.Modules
	for _, e := range order {
		mods = append(mods, sdk.Native(natives[e.name]))
	}
	return mods, nil
}

// adapterPredictions extracts every page with the built-in adapters in the service's
// order, natively, and returns what they say of each field.
func adapterPredictions(ctx context.Context, pages []labelledPage) ([]prediction, error) {
	mods, err := builtinOrder()
	if err != nil {
		return nil, err
	}
	set := &adapter.Set{Source: mods, Fetcher: sdktest.Pages{}}
	out := make([]prediction, len(pages))
	for i, p := range pages {
		doc := &adapter.Document{URL: p.URL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: p.Body}
		res, err := set.Extract(ctx, p.URL, doc)
		if err != nil {
			return nil, err
		}
		pr := res.Product
		if pr == nil {
			continue
		}
		if pr.Price != nil {
			out[i][rank.Price] = strconv.FormatFloat(pr.Price.Current, 'f', -1, 64)
			out[i][rank.Currency] = pr.Price.Currency
		}
		if pr.Title != nil {
			out[i][rank.Title] = *pr.Title
		}
		if pr.SKU != nil {
			out[i][rank.SKU] = *pr.SKU
		}
		if pr.IsAvailable != nil {
			out[i][rank.Availability] = rank.OutOfStock
			if *pr.IsAvailable {
				out[i][rank.Availability] = rank.InStock
			}
		}
	}
	return out, nil
}
