package kit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// mismatches returns how got differs from want, one readable block per difference, both
// values as JSON decodes them. An object is compared key by key, for the keys want names
// only: a key that got does not have is a mistake in the expected file, and is reported
// as an unknown key with the keys got has. An array is compared element by element, and
// its length must match. An "error" member of the answer (path "error") matches when
// got contains want, and want "" when got is "" too.
func mismatches(path string, want, got any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		var out []string
		for _, k := range sortedKeys(w) {
			at := join(path, k)
			v, present := g[k]
			if !present {
				out = append(out, fmt.Sprintf("  %s: unknown key; known here: %s\n", at, strings.Join(sortedKeys(g), ", ")))
				continue
			}
			out = append(out, mismatches(at, w[k], v)...)
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		var out []string
		if len(w) != len(g) {
			out = append(out, fmt.Sprintf("  %s: want %d elements, got %d\n", path, len(w), len(g)))
		}
		for i := range max(len(w), len(g)) {
			at := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(g):
				out = append(out, fmt.Sprintf("  %s: missing, want %s\n", at, compact(w[i])))
			case i >= len(w):
				out = append(out, fmt.Sprintf("  %s: not expected: %s\n", at, compact(g[i])))
			default:
				out = append(out, mismatches(at, w[i], g[i])...)
			}
		}
		return out
	case string:
		if g, ok := got.(string); ok && path == "error" && (w == "" && g == "" || w != "" && strings.Contains(g, w)) {
			return nil
		}
	}
	if path == "error" || !reflect.DeepEqual(want, got) {
		return []string{fmt.Sprintf("  %s:\n    want %s\n    got  %s\n", path, compact(want), compact(got))}
	}
	return nil
}

// asJSON is v as JSON decodes it into an any: numbers as float64, structs as maps.
func asJSON(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return v
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func compact(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(buf.String())
}
