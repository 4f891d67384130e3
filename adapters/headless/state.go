package headless

import (
	"encoding/json"
	"html"
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// state is a page's embedded application state.
type state struct {
	// framework wrote the state ("next.js", "nuxt"); source names where it was found.
	framework, source string
	// data is the part holding the page's data: Next.js's props.pageProps, Nuxt's
	// payload.
	data gjson.Result
}

// readState finds the page's embedded state: Next.js's __NEXT_DATA__ script, Nuxt 3's
// __NUXT_DATA__ payload, or Nuxt 2's window.__NUXT__ when it is written as plain JSON.
func readState(page *sdk.Doc) (state, bool) {
	if !page.Contains("__NEXT_DATA__") && !page.Contains("__NUXT") {
		return state{}, false
	}
	root := page.HTML()
	if raw := scriptText(root.SelectOne(`script#__NEXT_DATA__`)); gjson.Valid(raw) {
		return state{"next.js", "__NEXT_DATA__", gjson.Parse(raw).Get("props.pageProps")}, true
	}
	if raw := scriptText(root.SelectOne(`script#__NUXT_DATA__`)); raw != "" {
		if payload, ok := unflatten(raw); ok {
			return state{"nuxt", "__NUXT_DATA__", payload}, true
		}
	}
	for _, text := range sdk.Nodes(root.Select(`script:not([src])`)).Text() {
		rest, found := strings.CutPrefix(strings.TrimSpace(text), "window.__NUXT__")
		if !found {
			continue
		}
		rest = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "=")), ";")
		if gjson.Valid(rest) {
			return state{"nuxt", "window.__NUXT__", gjson.Parse(rest)}, true
		}
	}
	return state{}, false
}

// scriptText is a script's text as written. Text() would collapse the white space in
// its strings, and InnerHTML() escapes it as markup.
func scriptText(script sdk.Node) string { return html.UnescapeString(script.InnerHTML()) }

// unflatten rebuilds the value Nuxt 3 serialised into __NUXT_DATA__ with devalue: a JSON
// array whose first element is the root and whose arrays and objects hold the indexes
// of their members; an array starting with a type name ("Reactive", "Ref", "Date",
// "Set", "Map") wraps a value; negative indexes stand for undefined, NaN and the like.
func unflatten(raw string) (gjson.Result, bool) {
	var values []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &values); err != nil || len(values) == 0 {
		return gjson.Result{}, false
	}
	d := devalue{values: values, done: map[int]any{}}
	out, err := json.Marshal(d.value(0, 0))
	if err != nil {
		return gjson.Result{}, false
	}
	return gjson.ParseBytes(out), true
}

type devalue struct {
	values []json.RawMessage
	done   map[int]any
}

// maxDepth bounds nesting: a payload that refers to itself is cut there.
const maxDepth = 64

func (d devalue) value(i, depth int) any {
	if i < 0 || i >= len(d.values) || depth > maxDepth {
		return nil
	}
	if v, ok := d.done[i]; ok {
		return v
	}
	raw := d.values[i]
	var out any
	switch strings.TrimSpace(string(raw))[0] {
	case '[':
		var items []json.RawMessage
		_ = json.Unmarshal(raw, &items)
		var kind string
		if len(items) > 0 && json.Unmarshal(items[0], &kind) == nil {
			out = d.wrapped(kind, items[1:], depth)
			break
		}
		list := make([]any, 0, len(items))
		for _, it := range items {
			list = append(list, d.value(index(it), depth+1))
		}
		out = list
	case '{':
		var members map[string]json.RawMessage
		_ = json.Unmarshal(raw, &members)
		obj := make(map[string]any, len(members))
		for k, v := range members {
			obj[k] = d.value(index(v), depth+1)
		}
		out = obj
	default:
		_ = json.Unmarshal(raw, &out)
	}
	d.done[i] = out
	return out
}

// wrapped is the value of a typed entry: Nuxt's reactive wrappers and devalue's own
// types, each reduced to the plain value it holds.
func (d devalue) wrapped(kind string, args []json.RawMessage, depth int) any {
	switch kind {
	case "Date", "RegExp", "BigInt":
		var s any
		if len(args) > 0 {
			_ = json.Unmarshal(args[0], &s)
		}
		return s
	case "Set":
		list := make([]any, 0, len(args))
		for _, a := range args {
			list = append(list, d.value(index(a), depth+1))
		}
		return list
	case "Map", "null":
		obj := map[string]any{}
		for k := 0; k+1 < len(args); k += 2 {
			if key, ok := d.value(index(args[k]), depth+1).(string); ok {
				obj[key] = d.value(index(args[k+1]), depth+1)
			}
		}
		return obj
	}
	if len(args) == 0 {
		return nil // EmptyRef and the like
	}
	return d.value(index(args[0]), depth+1) // Reactive, ShallowReactive, Ref, Object, ...
}

// index reads a member's index; anything else is an index that resolves to nothing.
func index(raw json.RawMessage) int {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) {
		return -1
	}
	return int(f)
}
