package kit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// An answer is compared key by key: an image differing in one field is reported at that
// field, a key no answer has fails by its name with the keys it could have been, and a
// list must have the expected length.
func TestMismatchesNameTheFieldThatDiffers(t *testing.T) {
	image := `{"id": "", "url": "https://s.example/a.jpg", "alt_text": "Mug", "position": 1, "width": null, "height": null, "variant_ids": [], "attributes": null}`
	got := decode(t, `{"outcome": "success", "product": {"title": "Mug", "images": [`+image+`]}}`)
	for _, tc := range []struct {
		name, want string
		diff       []string // each must be in the report; none means no mismatch
	}{
		{"fields given match", `{"product": {"images": [{"url": "https://s.example/a.jpg", "position": 1}]}}`, nil},
		{"one field of an image", `{"product": {"images": [{"url": "https://s.example/a.jpg", "alt_text": "Cup"}]}}`,
			[]string{"product.images[0].alt_text:\n    want \"Cup\"\n    got  \"Mug\""}},
		{"an unknown key of an image", `{"product": {"images": [{"alt": "Mug"}]}}`,
			[]string{"product.images[0].alt: unknown key; known here: alt_text, attributes, height, id, position, url, variant_ids, width"}},
		{"an unknown key of the product", `{"product": {"colour": "blue"}}`, []string{"product.colour: unknown key"}},
		{"a list of another length", `{"product": {"images": []}}`,
			[]string{"product.images: want 0 elements, got 1", "product.images[0]: not expected: {"}},
		{"a missing element", `{"product": {"images": [{"position": 1}, {"position": 2}]}}`,
			[]string{"product.images[1]: missing, want {\"position\":2}"}},
	} {
		diff := strings.Join(mismatches("", decode(t, tc.want), got), "")
		if len(tc.diff) == 0 && diff != "" {
			t.Errorf("%s: reported\n%s", tc.name, diff)
		}
		for _, want := range tc.diff {
			if !strings.Contains(diff, want) {
				t.Errorf("%s: report lacks %q:\n%s", tc.name, want, diff)
			}
		}
	}
}

// An error expectation matches a message that contains it; none expected matches none.
func TestMismatchesReadAnErrorAsPartOfTheMessage(t *testing.T) {
	got := decode(t, `{"error": "list https://s.example/c with shop: category page: status 404"}`)
	if d := mismatches("", decode(t, `{"error": "status 404"}`), got); len(d) != 0 {
		t.Errorf("a part of the message did not match: %v", d)
	}
	if d := mismatches("", decode(t, `{"error": ""}`), got); len(d) == 0 {
		t.Error("an error passed where none was expected")
	}
}

// The expected file's own keys, and the inputs of each operation, are checked when it is
// read: a misspelt member fails with the members it may have.
func TestReadCaseRefusesUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ file, err string }{
		{`{"url": "https://s.example/", "detection": {"platform": "shop"}}`, `unknown key "detection"; an expected file has url, final_url, outcome, product, detect, discover, list, extract`},
		{`{"url": "https://s.example/", "list": {"cursor": 2}}`, `list.cursor: want a string, got 2`},
		{`{"url": "https://s.example/", "product": {}, "extract": {}}`, `not both`},
		{`{"url": "https://s.example/"}`, `nothing to test`},
		{`{"detect": {}}`, `url: required`},
	} {
		path := filepath.Join(dir, "case.expected.json")
		if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readCase(path, "", "")
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one with %q", tc.file, err, tc.err)
		}
	}
}
