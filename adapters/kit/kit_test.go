package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// TestScaffoldBuildsAndPassesItsOwnTest walks the authoring kit end to end: new, build,
// test, run, and a broken expectation that must fail with a readable diff.
func TestScaffoldBuildsAndPassesItsOwnTest(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	root, _ := filepath.Abs("../..")
	dir := filepath.Join(t.TempDir(), "acme")
	if err := New("acme", dir, root); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", "acme.wasm", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("scaffold does not build: %v\n%s", err, out)
	}
	env := Env{CacheDir: sdktest.CacheDir()}
	ctx := context.Background()
	wasmFile := filepath.Join(dir, "acme.wasm")

	var out bytes.Buffer
	ok, err := env.Test(ctx, &out, wasmFile, filepath.Join(dir, "testdata"))
	if err != nil || !ok {
		t.Fatalf("scaffold fails its own test: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "not tested:") {
		t.Errorf("the scaffold's cases leave operations untested:\n%s", out.String())
	}

	if _, err := builtin.FS.Open("builtin.wasm"); err != nil {
		t.Skip("built-in modules not built (run make wasm): run needs them beside the adapter")
	}
	out.Reset()
	if err := env.Run(ctx, &out, wasmFile, Request{URL: "https://shop.example/products/example-mug", File: filepath.Join(dir, "testdata/example.html")}); err != nil {
		t.Fatal(err)
	}
	var product map[string]any
	if err := json.Unmarshal(out.Bytes(), &product); err != nil {
		t.Fatalf("run printed no JSON: %v\n%s", err, out.String())
	}
	if product["title"] != "Example mug" || product["sku"] != "MUG-1" || product["platform"] != "acme" || product["gtin"] != nil {
		t.Fatalf("run printed %s", out.String())
	}
	for _, field := range []string{"mpn", "attributes", "min_price", "store_canonical_url", "variants"} {
		if _, present := product[field]; !present {
			t.Errorf("field %s missing: fields are always present", field)
		}
	}

	out.Reset()
	if err := env.Run(ctx, &out, wasmFile, Request{URL: "https://shop.example/category/mugs", File: filepath.Join(dir, "testdata/category.html")}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"outcome": "non_product_url"`) {
		t.Fatalf("run beside the built-ins made a product of the category page:\n%s", out.String())
	}

	expected := filepath.Join(dir, "testdata/example.expected.json")
	raw, _ := os.ReadFile(expected)
	os.WriteFile(expected, bytes.Replace(raw, []byte(`"MUG-1"`), []byte(`"MUG-2"`), 1), 0o644)
	out.Reset()
	ok, err = env.Test(ctx, &out, wasmFile, filepath.Join(dir, "testdata"))
	if err != nil || ok || !strings.Contains(out.String(), `want "MUG-2"`) || !strings.Contains(out.String(), `got  "MUG-1"`) {
		t.Fatalf("a broken expectation passed or printed no diff: %v %v\n%s", ok, err, out.String())
	}
}

func TestRunReportsOutcomes(t *testing.T) {
	if _, err := builtin.FS.Open("builtin.wasm"); err != nil {
		t.Skip("built-in modules not built (run make wasm)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "home.html")
	os.WriteFile(page, []byte(`<html><body><h1>Welcome</h1></body></html>`), 0o644)
	env := Env{CacheDir: sdktest.CacheDir()}
	for _, tc := range []struct{ url, outcome string }{
		{"shop.example/products/x", "malformed_url"},
		{"https://shop.example/", "non_product_url"},
	} {
		var out bytes.Buffer
		if err := env.Run(context.Background(), &out, "", Request{URL: tc.url, File: page}); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		json.Unmarshal(out.Bytes(), &got)
		if got["outcome"] != tc.outcome || got["message"] == "" {
			t.Errorf("%s: printed %s, want outcome %s with a message", tc.url, out.String(), tc.outcome)
		}
	}
}

// TestRunAnswersAsTheServiceDoes runs a Shopify collection page through the kit: the
// built-ins together under the service's merge rules, where the Shopify adapter's
// verdict (no product) stands over the generic adapters' reading of its product tiles.
func TestRunAnswersAsTheServiceDoes(t *testing.T) {
	if _, err := builtin.FS.Open("builtin.wasm"); err != nil {
		t.Skip("built-in modules not built (run make wasm)")
	}
	env := Env{CacheDir: sdktest.CacheDir()}
	const page = "../shopify/testdata/collection.html"
	const url = "https://harbour-pottery.example/collections/mugs"
	run := func(spec string) map[string]any {
		var out bytes.Buffer
		if err := env.Run(context.Background(), &out, spec, Request{URL: url, File: page}); err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("run printed no JSON: %v\n%s", err, out.String())
		}
		return got
	}
	if got := run(""); got["outcome"] != "non_product_url" {
		t.Errorf("the built-ins together made %v of a collection page, want outcome non_product_url", got)
	}
	// The jsonld adapter alone reads the first product tile: that is what the rule keeps
	// out of the service's answer.
	if got := run("jsonld"); got["title"] != "Speckled mug" {
		t.Errorf("jsonld alone answered %v, want the first tile's product", got)
	}
}

// TestExplainShowsEachFieldsCandidatesAndWinner explains a saved page: every field is
// named with its winner, candidates carry their source and features, and a struck price
// shows the rule that ruled it out.
func TestExplainShowsEachFieldsCandidatesAndWinner(t *testing.T) {
	page := filepath.Join(t.TempDir(), "lamp.html")
	html := `<title>Trail lamp | Lumen</title><div class="product"><h1>Trail lamp</h1>
<del class="price">39,90 €</del> <span class="price">29,90 €</span><button class="add-to-cart">Add to cart</button></div>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (Env{}).Explain(context.Background(), &out, "https://lumen.example/p/lamp", page); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{`price: "29.9"`, `title: "Trail lamp"`, "currency:", "availability:", "sku:",
		"from_element", "ruled out: a former or reference price", "*"} {
		if !strings.Contains(got, want) {
			t.Errorf("explanation lacks %q:\n%s", want, got)
		}
	}
}
