package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A test case is a saved page, DIR/NAME.html, and what the adapter must answer for it,
// DIR/NAME.expected.json: one member per operation tested on that page. Saved follow-up
// documents are in DIR/NAME.docs (see savedPages). adapters/ABI.md, "Authoring kit",
// documents the file; an example:
//
//	{"url": "https://shop.example/",
//	 "detect": {"platform": "shop"},
//	 "discover": {"collections": [{"url": "https://shop.example/c/mugs", "title": "Mugs"}]}}
//
// An extraction may be written at the top level as well, as {"url", "outcome",
// "product"}: the form of the kit's first cases.

// caseKeys are the members of an expected file.
var caseKeys = append([]string{"url", "final_url", "outcome", "product"}, Ops...)

// inputKeys are the members of an operation's section that say what to ask, by
// operation; the others are what the answer must hold.
var inputKeys = map[string][]string{
	"discover": {"platform"},
	"list":     {"platform", "collection", "cursor", "host_total"},
}

// check is one operation of a case: what to ask and what the answer must hold.
type check struct {
	req  Request
	want map[string]any
}

// readCase reads the expected file of the case whose page is page.
func readCase(expected, page, docs string) ([]check, error) {
	raw, err := os.ReadFile(expected)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, fmt.Errorf("%s: %w", expected, err)
	}
	for k := range members {
		if !slices.Contains(caseKeys, k) {
			return nil, fmt.Errorf("%s: unknown key %q; an expected file has %s", expected, k, strings.Join(caseKeys, ", "))
		}
	}
	var top struct {
		URL      string `json:"url"`
		FinalURL string `json:"final_url"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("%s: %w", expected, err)
	}
	if top.URL == "" {
		return nil, fmt.Errorf("%s: url: required, the saved page's address", expected)
	}
	_, outcome := members["outcome"]
	_, product := members["product"]
	if _, extract := members["extract"]; extract && (outcome || product) {
		return nil, fmt.Errorf("%s: give the extraction in \"extract\" or at the top level, not both", expected)
	}
	sections := map[string]map[string]any{}
	for _, op := range Ops {
		if rawSection, ok := members[op]; ok {
			var s map[string]any
			if err := json.Unmarshal(rawSection, &s); err != nil || s == nil {
				return nil, fmt.Errorf("%s: %s: want an object of what the answer holds", expected, op)
			}
			sections[op] = s
		}
	}
	for _, k := range []string{"outcome", "product"} {
		if v, ok := members[k]; ok {
			if sections["extract"] == nil {
				sections["extract"] = map[string]any{}
			}
			var val any
			if err := json.Unmarshal(v, &val); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", expected, k, err)
			}
			sections["extract"][k] = val
		}
	}
	if len(sections) == 0 {
		return nil, fmt.Errorf("%s: nothing to test: give one of %s", expected, strings.Join(Ops, ", "))
	}
	var checks []check
	for _, op := range Ops {
		s, ok := sections[op]
		if !ok {
			continue
		}
		req := Request{Op: op, URL: top.URL, FinalURL: top.FinalURL, File: page, Docs: docs}
		if err := takeInputs(&req, s); err != nil {
			return nil, fmt.Errorf("%s: %s.%w", expected, op, err)
		}
		switch op {
		case "extract":
			if _, ok := s["outcome"]; !ok {
				s["outcome"] = "success"
			}
		case "discover", "list":
			if _, ok := s["error"]; !ok {
				s["error"] = ""
			}
		}
		checks = append(checks, check{req: req, want: s})
	}
	return checks, nil
}

// takeInputs moves the input members of an operation's section into req.
func takeInputs(req *Request, section map[string]any) error {
	for _, k := range inputKeys[req.Op] {
		v, ok := section[k]
		if !ok {
			continue
		}
		delete(section, k)
		if k == "host_total" {
			n, ok := v.(float64)
			if !ok || n < 0 || n != float64(int(n)) {
				return fmt.Errorf("%s: want a whole number, got %s", k, compact(v))
			}
			req.HostTotal = int(n)
			continue
		}
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: want a string, got %s", k, compact(v))
		}
		switch k {
		case "platform":
			req.Platform = &s
		case "collection":
			req.Collection = s
		case "cursor":
			req.Cursor = s
		}
	}
	return nil
}

// Test runs the adapter spec names over every case in dir and writes to w a readable diff
// of each mismatch, and the operations the adapter implements that no case tests. It
// reports whether every check passed. spec is a module file (FILE.wasm) or the name of a
// built-in adapter or of one in the adapters folder; the adapter runs alone, so that its
// own answers are tested.
func (e Env) Test(ctx context.Context, w io.Writer, spec, dir string) (bool, error) {
	src, closeSrc, err := e.alone(ctx, spec)
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
	checks, failed := 0, 0
	tested := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		cs, err := readCase(f, filepath.Join(dir, name+".html"), filepath.Join(dir, name+".docs"))
		if err != nil {
			return false, err
		}
		for _, c := range cs {
			checks++
			tested[c.req.Op] = true
			got, err := e.answer(ctx, src, c.req)
			if err != nil {
				return false, fmt.Errorf("case %s, %s: %w", name, c.req.Op, err)
			}
			if diff := mismatches("", c.want, asJSON(got)); len(diff) > 0 {
				failed++
				fmt.Fprintf(w, "FAIL %s %s (%s)\n%s", name, c.req.Op, c.req.URL, strings.Join(diff, ""))
				continue
			}
			fmt.Fprintf(w, "ok   %s %s\n", name, c.req.Op)
		}
	}
	fmt.Fprintf(w, "%d cases, %d checks, %d failed\n", len(files), checks, failed)
	var untested []string
	for _, m := range src.Modules() {
		for _, op := range m.Info().Capabilities {
			if slices.Contains(Ops, string(op)) && !tested[string(op)] {
				untested = append(untested, string(op))
			}
		}
	}
	if len(untested) > 0 {
		fmt.Fprintf(w, "not tested: %s (the adapter implements it, and no case asks it)\n", strings.Join(untested, ", "))
	}
	return failed == 0, nil
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
