package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	stockroom "github.com/stockroom/stockroom/clients/go/stockroom"
	"github.com/stockroom/stockroom/cmd/stockroom/stacktest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// commandLine runs the stockroom command in-process against a stack.
type commandLine struct {
	t     *testing.T
	stack *stacktest.Stack
}

// run runs stockroom with args, the stack's address and key and quick polling, and
// returns its exit status, stdout and stderr.
func (c commandLine) run(args ...string) (int, string, string) {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	args = append(args, "--url", c.stack.URL, "--api-key", c.stack.Key)
	switch args[0] {
	case "crawl", "extract", "search":
		args = append(args, "--poll", "50ms", "--max-poll", "200ms", "--timeout", "2m")
	}
	status := run(c.t.Context(), args, &stdout, &stderr)
	return status, stdout.String(), stderr.String()
}

// runJSON runs stockroom with --json and decodes what it prints into out.
func (c commandLine) runJSON(out any, args ...string) {
	c.t.Helper()
	status, stdout, stderr := c.run(append(args, "--json")...)
	if status != 0 {
		c.t.Fatalf("stockroom %s: exit %d\n%s", strings.Join(args, " "), status, stderr)
	}
	if stderr != "" {
		c.t.Errorf("stockroom %s --json wrote to stderr: %s", strings.Join(args, " "), stderr)
	}
	if err := json.Unmarshal([]byte(stdout), out); err != nil {
		c.t.Fatalf("stockroom %s --json: %v\n%s", strings.Join(args, " "), err, stdout)
	}
}

// The API commands crawl, extract, search, list and meter against a live service with the
// demo store, showing progress for people and printing JSON for scripts.
func TestAPICommandsAgainstTheDemoStore(t *testing.T) {
	stack := stacktest.Start(t, stacktest.Options{})
	cli := commandLine{t: t, stack: stack}
	cat := stack.Store.Catalog()

	status, stdout, stderr := cli.run("crawl", stack.Store.BaseURL)
	if status != 0 {
		t.Fatalf("crawl: exit %d\n%s", status, stderr)
	}
	if want := " completed: " + itoa(cat.Len()) + " listings in "; !strings.Contains(stdout, want) {
		t.Errorf("crawl printed %q, want %q", stdout, want)
	}
	for i, step := range []string{"Determining crawl method", "Discovering collections", "Analyzing collections", "Extracting listings"} {
		if want := "✓ [" + itoa(i+1) + "/4] " + step + "\n"; !strings.Contains(stderr, want) {
			t.Errorf("crawl progress %q lacks %q", stderr, want)
		}
	}

	// A second crawl of the same store, for a script.
	var crawl stockroom.CrawlExecution
	cli.runJSON(&crawl, "crawl", stack.Store.BaseURL)
	if crawl.Status != stockroom.ExecutionStatusCompleted || crawl.Meta.Result == nil || crawl.Meta.Result.ListingsTotal != cat.Len() {
		t.Fatalf("crawl --json: %+v", crawl)
	}

	var extract stockroom.ExtractExecution
	cli.runJSON(&extract, "extract", "--vendor", *crawl.Meta.Vendor)
	if got := extract.Meta.Result.ProductsSuccessful; got != cat.Len() {
		t.Errorf("extract --vendor: %d products, want %d", got, cat.Len())
	}

	product := cat.Product(0)
	status, stdout, stderr = cli.run("extract", stack.Store.URL("/products/"+product.Handle))
	if status != 0 || !strings.Contains(stdout, "1 of 1 products extracted") || !strings.Contains(stdout, product.Title) {
		t.Errorf("extract URL: exit %d\n%s%s", status, stdout, stderr)
	}

	profile := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(profile, []byte(`{"style": {"color": "navy"}, "budget": "any field is accepted"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var search stockroom.SearchExecution
	cli.runJSON(&search, "search", "--profile", profile, "shirt")
	if search.Status != stockroom.ExecutionStatusCompleted || search.Meta.Query != "shirt" {
		t.Errorf("search --json: %+v", search)
	}

	status, stdout, stderr = cli.run("executions", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); status != 0 || err != nil {
		t.Fatalf("executions: exit %d, %v\n%s", status, err, stderr)
	}
	var kinds []string
	for _, row := range rows {
		kinds = append(kinds, row["kind"].(string))
	}
	if !slices.Contains(kinds, "crawl") || !slices.Contains(kinds, "extract") || !slices.Contains(kinds, "search") {
		t.Errorf("executions lists the kinds %v", kinds)
	}
	if status, stdout, _ = cli.run("executions", "--kind", "crawl"); status != 0 || !strings.Contains(stdout, crawl.ExecutionID) {
		t.Errorf("executions --kind crawl: exit %d\n%s", status, stdout)
	}

	// Usage reaches ClickHouse in batches: wait for the crawls to be counted.
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, stdout, stderr = cli.run("usage", "--period", "24h")
		if status != 0 {
			t.Fatalf("usage: exit %d\n%s", status, stderr)
		}
		if strings.Contains(stdout, "/v2/crawl ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage does not count the crawls:\n%s", stdout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// The API commands read the service and key from the environment, and say what went
// wrong, with the service's error, when a call fails.
func TestAPICommandsReportErrors(t *testing.T) {
	stack := stacktest.Start(t, stacktest.Options{Products: 5})
	var stdout, stderr bytes.Buffer
	t.Setenv("STOCKROOM_URL", "")
	t.Setenv("STOCKROOM_API_KEY", "")
	if status := run(t.Context(), []string{"usage"}, &stdout, &stderr); status != 1 || !strings.Contains(stderr.String(), "set STOCKROOM_URL and STOCKROOM_API_KEY") {
		t.Errorf("no service named: exit %d, %q", status, stderr.String())
	}

	t.Setenv("STOCKROOM_URL", stack.URL)
	t.Setenv("STOCKROOM_API_KEY", "srk_not-a-key")
	stderr.Reset()
	if status := run(t.Context(), []string{"crawl", stack.Store.BaseURL}, &stdout, &stderr); status != 1 || !strings.Contains(stderr.String(), "401: Invalid API key") {
		t.Errorf("invalid key: exit %d, %q", status, stderr.String())
	}

	t.Setenv("STOCKROOM_API_KEY", stack.Key)
	stderr.Reset()
	stdout.Reset()
	// A URL that is not one is an outcome of the extraction, not an error of the call.
	if status := run(t.Context(), []string{"extract", "not a url", "--poll", "50ms"}, &stdout, &stderr); status != 0 ||
		!strings.Contains(stdout.String(), "0 of 1 products extracted (0 failed, 1 invalid)") || !strings.Contains(stdout.String(), "malformed_url") {
		t.Errorf("bad URL: exit %d, %q %q", status, stdout.String(), stderr.String())
	}
	stderr.Reset()
	if status := run(context.Background(), []string{"usage", "--period", "1y"}, &stdout, &stderr); status != 1 || !strings.Contains(stderr.String(), "400 VALIDATION_ERROR") {
		t.Errorf("bad period: exit %d, %q", status, stderr.String())
	}
}
