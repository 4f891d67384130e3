package document

import (
	"github.com/tidwall/gjson"
)

// devalue reads Nuxt 3's payload (script#__NUXT_DATA__), written by the devalue library:
// a flat JSON array whose first element is the root, where each array element and object
// member is the index of its value in the array, and a value such as ["Reactive", 4] or
// ["Date", "…"] is a typed one. It returns the payload as plain JSON: wrappers (Reactive,
// Ref and the like) give way to what they hold, dates to their text, a set to an array of
// its elements and a map to an array of its keys and values in turn; undefined, holes,
// numbers JSON cannot write and types it does not know are null. A value shared by several parents is written at each; the result is bounded
// by maxStateText and its nesting by maxStateDepth, past which the payload is not read.
func devalue(text string) (string, bool) {
	if !validText(text) {
		return "", false
	}
	root := gjson.Parse(text)
	if !root.IsArray() {
		return "", false
	}
	d := devaluer{vals: root.Array()}
	if len(d.vals) == 0 || !d.value(0, 0) {
		return "", false
	}
	return string(d.out), true
}

type devaluer struct {
	vals []gjson.Result
	out  []byte
}

// Indexes that stand for values no array element holds (devalue's constants).
const (
	devalueUndefined    = -1
	devalueHole         = -2
	devalueNegativeZero = -6
)

// value writes the value at index i.
func (d *devaluer) value(i int64, depth int) bool {
	if depth > maxStateDepth || len(d.out) > maxStateText {
		return false
	}
	if i < 0 {
		switch i {
		case devalueNegativeZero:
			d.out = append(d.out, '0')
		case devalueUndefined, devalueHole, -3, -4, -5: // NaN and the infinities
			d.out = append(d.out, "null"...)
		default:
			return false
		}
		return true
	}
	if i >= int64(len(d.vals)) {
		return false
	}
	v := d.vals[i]
	switch {
	case v.IsObject():
		d.out = append(d.out, '{')
		ok, first := true, true
		v.ForEach(func(k, e gjson.Result) bool {
			if !first {
				d.out = append(d.out, ',')
			}
			first = false
			d.out = append(d.out, k.Raw...)
			d.out = append(d.out, ':')
			ok = e.Type == gjson.Number && d.value(e.Int(), depth+1)
			return ok
		})
		d.out = append(d.out, '}')
		return ok
	case v.IsArray():
		return d.array(v, depth)
	}
	d.out = append(d.out, v.Raw...)
	return true
}

// array writes an array of indexes, or a typed value: an array whose first element is the
// name of its type.
func (d *devaluer) array(v gjson.Result, depth int) bool {
	elems := v.Array()
	if len(elems) > 0 && elems[0].Type == gjson.String {
		kind, rest := elems[0].Str, elems[1:]
		switch kind {
		case "Reactive", "ShallowReactive", "Ref", "ShallowRef", "EmptyRef", "EmptyShallowRef":
			if len(rest) == 1 && rest[0].Type == gjson.Number {
				return d.value(rest[0].Int(), depth+1)
			}
			d.out = append(d.out, "null"...)
			return true
		case "Date", "RegExp", "BigInt", "URL":
			if len(rest) > 0 && rest[0].Type == gjson.String {
				d.out = append(d.out, rest[0].Raw...)
			} else {
				d.out = append(d.out, "null"...)
			}
			return true
		case "null":
			// An object without a prototype: ["null", key, index, key, index…].
			d.out = append(d.out, '{')
			for j := 0; j+1 < len(rest); j += 2 {
				if j > 0 {
					d.out = append(d.out, ',')
				}
				d.out = appendString(d.out, rest[j].String())
				d.out = append(d.out, ':')
				if !d.value(rest[j+1].Int(), depth+1) {
					return false
				}
			}
			d.out = append(d.out, '}')
			return true
		case "Set", "Map":
			// A set's elements, or a map's keys and values in turn, as one array.
			elems = rest
		default:
			d.out = append(d.out, "null"...)
			return true
		}
	}
	d.out = append(d.out, '[')
	for j, e := range elems {
		if j > 0 {
			d.out = append(d.out, ',')
		}
		if e.Type != gjson.Number || !d.value(e.Int(), depth+1) {
			return false
		}
	}
	d.out = append(d.out, ']')
	return true
}
