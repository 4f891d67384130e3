package enrich

import "sort"

// propertyKeys are the schema.org Product properties that state attributes directly.
var propertyKeys = []string{"color", "material", "pattern", "size", "suggestedGender", "suggestedAge", "audienceType"}

// PropertiesFromJSONLD returns the stated properties of the first Product (or
// ProductGroup) in the decoded JSON-LD documents: its color, material, pattern and size,
// its audience's suggestedGender, suggestedAge and audienceType, and each
// additionalProperty PropertyValue (name, value; unitText appended). Documents are
// decoded with encoding/json into any.
func PropertiesFromJSONLD(jsonld []any) []Property {
	var nodes []map[string]any
	for _, doc := range jsonld {
		collect(doc, &nodes, 0)
	}
	for _, n := range nodes {
		if !hasType(n, "Product") && !hasType(n, "ProductGroup") {
			continue
		}
		var out []Property
		add := func(name string, v any) {
			for _, x := range asList(v) {
				if s := squash(str(x)); s != "" {
					out = append(out, Property{Name: name, Value: s})
				}
			}
		}
		for _, k := range propertyKeys {
			add(k, n[k])
		}
		for _, a := range asList(n["audience"]) {
			if m, ok := a.(map[string]any); ok {
				add("suggestedGender", m["suggestedGender"])
				add("audienceType", m["audienceType"])
				if age, ok := m["suggestedAge"].(map[string]any); ok {
					add("suggestedAge", age["name"])
				}
			}
		}
		for _, p := range asList(n["additionalProperty"]) {
			m, ok := p.(map[string]any)
			if !ok {
				continue
			}
			name, value := squash(str(m["name"])), squash(str(m["value"]))
			if u := squash(str(m["unitText"])); u != "" && value != "" {
				value += " " + u
			}
			if name != "" && value != "" {
				out = append(out, Property{Name: name, Value: value})
			}
		}
		return out
	}
	return nil
}

func sortStrings(s []string) { sort.Strings(s) }
