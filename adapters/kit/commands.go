package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/stockroom/stockroom/core/adapter"
)

// Run extracts the product at rawURL from the saved page file and writes the result as
// indented JSON to w. docsDir, when not empty, holds saved follow-up documents (see
// savedPages).
//
// With spec "" or a module file (FILE.wasm), Run answers what the service would: every
// built-in adapter runs, with the module beside them as a third-party adapter, under the
// service's merge rules (adapter.Set.Extract). With spec the name of a built-in, that
// adapter runs alone, to see its own answer.
func (e Env) Run(ctx context.Context, w io.Writer, rawURL, file, spec, docsDir string) error {
	var src adapter.Source
	var closeSrc func()
	var err error
	if spec == "" || strings.HasSuffix(spec, ".wasm") {
		src, closeSrc, err = e.serviceSource(ctx, spec)
	} else {
		src, closeSrc, err = e.source(ctx, spec)
	}
	if err != nil {
		return err
	}
	defer closeSrc()
	out, err := e.extract(ctx, src, rawURL, file, docsDir)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// Case is one saved-page test: NAME.html is the page, NAME.expected.json holds this.
type Case struct {
	// URL is the page's address.
	URL string `json:"url"`
	// Outcome is the expected outcome; default "success".
	Outcome string `json:"outcome,omitempty"`
	// Product lists the expected v2 product fields; fields left out are not checked.
	Product map[string]any `json:"product,omitempty"`
}

// Test runs the adapter module wasmPath over every case in dir and writes a readable
// diff of each mismatch to w. It reports whether every case passed. Follow-up documents
// of case NAME are read from dir/NAME.docs (see savedPages).
func (e Env) Test(ctx context.Context, w io.Writer, wasmPath, dir string) (bool, error) {
	src, closeSrc, err := e.source(ctx, wasmPath)
	if err != nil {
		return false, err
	}
	defer closeSrc()
	files, err := filepath.Glob(filepath.Join(dir, "*.expected.json"))
	if err != nil {
		return false, err
	}
	if len(files) == 0 {
		return false, fmt.Errorf("no *.expected.json cases in %s", dir)
	}
	failed := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		raw, err := os.ReadFile(f)
		if err != nil {
			return false, err
		}
		var c Case
		if err := json.Unmarshal(raw, &c); err != nil {
			return false, fmt.Errorf("%s: %w", f, err)
		}
		if c.Outcome == "" {
			c.Outcome = "success"
		}
		got, err := e.extract(ctx, src, c.URL, filepath.Join(dir, name+".html"), filepath.Join(dir, name+".docs"))
		if err != nil {
			return false, fmt.Errorf("case %s: %w", name, err)
		}
		if diff := compare(c, got); diff != "" {
			failed++
			fmt.Fprintf(w, "FAIL %s (%s)\n%s", name, c.URL, diff)
			continue
		}
		fmt.Fprintf(w, "ok   %s\n", name)
	}
	fmt.Fprintf(w, "%d cases, %d failed\n", len(files), failed)
	return failed == 0, nil
}

// compare returns the differences between a case's expectations and a result, one field
// per block, or "".
func compare(c Case, got map[string]any) string {
	var b strings.Builder
	outcome := "success"
	if o, ok := got["outcome"].(string); ok {
		outcome = o
	}
	if outcome != c.Outcome {
		fmt.Fprintf(&b, "  outcome:\n    want %s\n    got  %s %v\n", c.Outcome, outcome, got["message"])
		return b.String()
	}
	// Compare in JSON terms: numbers, nulls and nested objects as the printed output.
	var norm map[string]any
	raw, _ := json.Marshal(got)
	json.Unmarshal(raw, &norm)
	keys := make([]string, 0, len(c.Product))
	for k := range c.Product {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !reflect.DeepEqual(c.Product[k], norm[k]) {
			fmt.Fprintf(&b, "  %s:\n    want %s\n    got  %s\n", k, compact(c.Product[k]), compact(norm[k]))
		}
	}
	return b.String()
}

func compact(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(buf.String())
}

// validName reports whether name can name an adapter: lower-case letters, digits and
// dashes, starting with a letter.
func validName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	return !slices.ContainsFunc([]byte(name), func(c byte) bool {
		return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')
	})
}
