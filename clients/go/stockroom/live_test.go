package stockroom_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	stockroom "github.com/stockroom/stockroom/clients/go/stockroom"
	"github.com/stockroom/stockroom/cmd/stockroom/stacktest"
	"github.com/stockroom/stockroom/server/openapi/openapitest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// quick is the interface's polling advice, scaled down for a test.
var quick = stockroom.Waiting{FirstInterval: 50 * time.Millisecond, MaxInterval: 200 * time.Millisecond, Timeout: 2 * time.Minute}

// newClient is a client of the stack with key whose every response is also checked
// against the OpenAPI document.
func newClient(t *testing.T, stack *stacktest.Stack, key string) *stockroom.ClientWithResponses {
	t.Helper()
	checker, err := openapitest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	client, err := stockroom.NewClientWithResponses(stack.URL,
		stockroom.WithAPIKey(key),
		stockroom.WithHTTPClient(&http.Client{Transport: checker.Transport(t, nil)}))
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// The helpers crawl a store, extract its products and search them against a live
// service, reporting each step on the way.
func TestClientAgainstALiveService(t *testing.T) {
	stack := stacktest.Start(t, stacktest.Options{})
	client := newClient(t, stack, stack.Key)
	ctx := t.Context()
	products := stack.Store.Catalog().Len()

	var reads []stockroom.Progress
	waiting := quick
	waiting.Progress = func(p stockroom.Progress) { reads = append(reads, p) }
	crawl, err := client.Crawl(ctx, stack.Store.BaseURL, waiting)
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	if crawl.Status != stockroom.ExecutionStatusCompleted || crawl.Meta.Result.ListingsTotal != products {
		t.Fatalf("crawl ended %s with %+v, want %d listings", crawl.Status, crawl.Meta.Result, products)
	}
	last := reads[len(reads)-1]
	var steps []string
	for _, step := range last.Steps {
		steps = append(steps, step.Name)
	}
	wantSteps := []string{"Determining crawl method", "Discovering collections", "Analyzing collections", "Extracting listings"}
	if !slices.Equal(steps, wantSteps) || last.Done != products || last.Unit != "listings" {
		t.Errorf("last progress %+v, want the four steps and %d listings", last, products)
	}

	vendor := crawl.Meta.Vendor
	extract, err := client.Extract(ctx, stockroom.ExtractRequest{Vendor: vendor}, quick)
	if err != nil {
		t.Fatalf("extract: %v", err)
	}
	if got := extract.Meta.Result.ProductsSuccessful; got != products || len(extract.Data) != products {
		t.Errorf("extracted %d products with %d on the first page, want %d", got, len(extract.Data), products)
	}

	search, err := client.Search(ctx, stockroom.SearchStart{Query: "shirt"}, quick)
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	if search.Status != stockroom.ExecutionStatusCompleted || search.Meta.Query != "shirt" {
		t.Errorf("search ended %s for %q", search.Status, search.Meta.Query)
	}

	// The generated requests reach every other operation the same way.
	period := stockroom.PeriodN24H
	usage, err := client.GetUsageV2WithResponse(ctx, &stockroom.GetUsageV2Params{Period: &period})
	if err != nil || usage.JSON200 == nil {
		t.Fatalf("usage: %v, %s", err, usage.Body)
	}
}

// Errors come back typed: the documented code, message and request id, or the flat 401.
func TestClientErrorsAreTyped(t *testing.T) {
	stack := stacktest.Start(t, stacktest.Options{Products: 5})
	ctx := t.Context()

	_, err := newClient(t, stack, stack.Key).WaitCrawl(ctx, "crawl-nowhere.example-0", quick)
	var apiErr *stockroom.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound || apiErr.Code != stockroom.ErrorCodeNOTFOUND || apiErr.RequestID == "" || apiErr.Message == "" {
		t.Fatalf("unknown crawl: got %#v", err)
	}

	_, err = newClient(t, stack, "srk_not-a-key").Extract(ctx, stockroom.ExtractRequest{Urls: &[]string{stack.Store.BaseURL + "/products/x"}}, quick)
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized || apiErr.Code != "" || apiErr.Message != "Invalid API key" {
		t.Fatalf("invalid key: got %#v", err)
	}

	_, err = newClient(t, stack, stack.Key).Extract(ctx, stockroom.ExtractRequest{}, quick)
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || (apiErr.Code != stockroom.ErrorCodeINVALIDREQUEST && apiErr.Code != stockroom.ErrorCodeVALIDATIONERROR) {
		t.Fatalf("extract of nothing: got %#v", err)
	}

	// A canceled execution is an ExecutionError.
	client := newClient(t, stack, stack.Key)
	started, err := client.StartExtractV2WithResponse(ctx, stockroom.ExtractRequest{Urls: &[]string{stack.Store.BaseURL + "/products/x"}})
	if err != nil || started.JSON202 == nil {
		t.Fatalf("start: %v %s", err, started.Body)
	}
	id := started.JSON202.ExecutionID
	if canceled, err := client.CancelExtractV2WithResponse(ctx, id); err != nil || (canceled.JSON200 == nil && canceled.JSON409 == nil) {
		t.Fatalf("cancel: %v %s", err, canceled.Body)
	} else if canceled.JSON409 != nil {
		t.Skip("the extraction ended before it could be canceled")
	}
	var failed *stockroom.ExecutionError
	if _, err := client.WaitExtract(context.WithoutCancel(ctx), id, quick); !errors.As(err, &failed) || failed.Message != "canceled" {
		t.Fatalf("canceled extraction: got %v", err)
	}
}
