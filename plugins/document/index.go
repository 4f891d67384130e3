package document

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// indexAbove is the size from which an object's members are indexed. gjson finds a key by
// scanning the object's text from its start; adapters read a dozen paths of a storefront
// product (tens of kilobytes) and of every element of a list, so one scan into an index
// replaces a dozen. Smaller objects are scanned directly, which is cheaper than a map.
const indexAbove = 1024

// textKey names a value of the session by its text's address: every value is a slice of a
// document or of a text the host made, so equal keys are the same value.
type textKey struct {
	text *byte
	len  int
}

func keyOf(r gjson.Result) textKey { return textKey{unsafe.StringData(r.Raw), len(r.Raw)} }

// get is r.Get(path), through the index of r's members when r is a large object.
func (s *Session) get(r gjson.Result, path string) gjson.Result {
	head, tail, _ := strings.Cut(path, ".")
	if !plainKey(head) {
		return r.Get(path)
	}
	return s.getSplit(r, head, tail, path)
}

// getSplit is get of a path already split into its plain first key and the rest.
func (s *Session) getSplit(r gjson.Result, head, tail, path string) gjson.Result {
	if len(r.Raw) < indexAbove || !r.IsObject() {
		return r.Get(path)
	}
	v := lookupMember(s.members(r), head)
	if tail == "" || !v.Exists() {
		return v
	}
	return v.Get(tail)
}

// plainKey reports whether a path component is a key gjson matches literally.
func plainKey(k string) bool { return k != "" && !strings.ContainsAny(k, `\*?#@|!=<>%[]{}"`) }

// member is one member of an indexed object: its key, unescaped, and its value's text.
type member struct{ key, raw string }

// members returns the index of object o's members, built on first use and kept for the
// call. Values are found, not parsed: a storefront product's description alone is
// kilobytes of escaped HTML that most reads never look at, and gjson would unescape it
// to index it.
func (s *Session) members(o gjson.Result) []member {
	k := keyOf(o)
	if m, ok := s.indexes[k]; ok {
		return m
	}
	m := scanMembers(o.Raw)
	s.remember(o.Raw, m)
	return m
}

// remember keeps the members of the object whose text is raw for the rest of the call.
func (s *Session) remember(raw string, members []member) {
	if s.indexes == nil {
		s.indexes = map[textKey][]member{}
	}
	s.indexes[textKey{unsafe.StringData(raw), len(raw)}] = members
}

// lookupMember is the value of the first member named key, as gjson finds it; an object
// has a few dozen members at most, fewer than it takes for a map to pay off.
func lookupMember(members []member, key string) gjson.Result {
	for _, m := range members {
		if m.key == key {
			return gjson.Parse(m.raw)
		}
	}
	return gjson.Result{}
}

// scanMembers lists the members of obj, the text of a valid JSON object: every document
// the session parses was validated (or repaired) first, so the scan need not check.
func scanMembers(obj string) []member {
	members, _ := scanObject(obj, 0, make([]member, 0, 16))
	return members
}

// scanObject appends to dst the members of the valid JSON object that starts at s[i],
// and returns them with the object's end.
func scanObject(s string, i int, dst []member) ([]member, int) {
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] == '"' {
		end := skipString(s, i)
		key := s[i+1 : end-1]
		if strings.IndexByte(key, '\\') >= 0 {
			key = gjson.Parse(s[i:end]).Str
		}
		i = skipSpace(s, end)
		i = skipSpace(s, i+1) // the colon
		if i >= len(s) {
			return dst, len(s)
		}
		end = skipValue(s, i)
		dst = append(dst, member{key: key, raw: s[i:end]})
		i = nextItem(s, end)
	}
	return dst, min(i+1, len(s)) // past the closing brace
}

// elements returns the elements of list, for $each. A large list's large objects are
// indexed in the same pass that finds them: $each reads a dozen paths of every product
// of a storefront page, and finding where a product ends is the very walk that indexing
// it takes.
func (s *Session) elements(list gjson.Result) []gjson.Result {
	raw := list.Raw
	if len(raw) < indexAbove {
		return list.Array()
	}
	var out []gjson.Result
	var scratch []member
	for i := skipSpace(raw, 1); i < len(raw) && raw[i] != ']'; {
		var end int
		if raw[i] == '{' {
			var members []member
			members, end = scanObject(raw, i, scratch[:0])
			if end-i >= indexAbove {
				s.remember(raw[i:end], slices.Clone(members))
			}
			scratch = members
		} else {
			end = skipValue(raw, i)
		}
		out = append(out, gjson.Parse(raw[i:end]))
		i = nextItem(raw, end)
	}
	return out
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// nextItem returns where the member or element after the one ending at s[end] starts.
func nextItem(s string, end int) int {
	i := skipSpace(s, end)
	if i < len(s) && s[i] == ',' {
		i = skipSpace(s, i+1)
	}
	return i
}

// skipValue returns the end of the valid JSON value that starts at s[i].
func skipValue(s string, i int) int {
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = skipString(s, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(s)
	}
	for i < len(s) && s[i] != ',' && s[i] != '}' && s[i] != ']' && !isSpace(s[i]) {
		i++
	}
	return i
}

// skipString returns the end of the string that starts at s[i], past its closing quote.
func skipString(s string, i int) int {
	for i++; ; {
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			return len(s)
		}
		i += q
		backslashes := 0
		for j := i - 1; s[j] == '\\'; j-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i
		}
	}
}
