package document

import (
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
	v := s.members(r)[head]
	if tail == "" || !v.Exists() {
		return v
	}
	return v.Get(tail)
}

// plainKey reports whether a path component is a key gjson matches literally.
func plainKey(k string) bool { return k != "" && !strings.ContainsAny(k, `\*?#@|!=<>%[]{}"`) }

// members returns the index of object o's members, built on first use and kept for the
// call; the first of duplicate keys wins, as in gjson.
func (s *Session) members(o gjson.Result) map[string]gjson.Result {
	k := keyOf(o)
	if m, ok := s.indexes[k]; ok {
		return m
	}
	m := map[string]gjson.Result{}
	o.ForEach(func(key, v gjson.Result) bool {
		if _, dup := m[key.Str]; !dup {
			m[key.Str] = v
		}
		return true
	})
	if s.indexes == nil {
		s.indexes = map[textKey]map[string]gjson.Result{}
	}
	s.indexes[k] = m
	return m
}
