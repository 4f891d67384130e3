package document

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/plugins/jsonvalid"
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

func keyOf(r gjson.Result) textKey { return keyOfText(r.Raw) }

func keyOfText(raw string) textKey { return textKey{unsafe.StringData(raw), len(raw)} }

// get is r.Get(path); see find.
func (s *Session) get(r gjson.Result, path string) gjson.Result { return s.find(r, parsePath(path)) }

// A path is a gjson path read for the session's walk (see find).
type path struct {
	text string
	// walk: every component is a plain key or index (steps), perhaps but for a final "#"
	// (count); gjson reads the path otherwise.
	walk  bool
	steps []step
	count bool
}

// step is one component of a walked path: a key, and the array index it reads as (-1 for
// none).
type step struct {
	key   string
	index int
}

func parsePath(text string) path {
	p := path{text: text}
	prefix := text
	if t, ok := strings.CutSuffix(text, "#"); ok && (t == "" || len(t) > 1 && strings.HasSuffix(t, ".")) {
		prefix, p.count = strings.TrimSuffix(t, "."), true
	}
	if prefix == "" {
		p.walk = p.count
		return p
	}
	for part := range strings.SplitSeq(prefix, ".") {
		if !plainKey(part) {
			return path{text: text}
		}
		index, ok := arrayIndex(part)
		if !ok {
			index = -1
		}
		p.steps = append(p.steps, step{part, index})
	}
	p.walk = true
	return p
}

// find is r.Get(p.text). A path of plain keys and array indexes, perhaps ending in "#"
// (a list's length), which is what adapters ask, is walked by the session's own scan: it
// stops at the element it wants without finding where that one ends when the path goes
// on below it, whereas gjson reads to the end of a list whose first element lacks the
// key. Adapters read a dozen paths below the first image and variant of every product of
// a page. Large objects' members and large lists' elements are looked up in their
// indexes, small objects' in the recent ones' members. Any other path (modifiers,
// wildcards, queries, escapes) is gjson's.
func (s *Session) find(r gjson.Result, p path) gjson.Result {
	raw, walked := s.walk(r, p)
	if !walked {
		return r.Get(p.text)
	}
	return gjson.Parse(raw)
}

// findText is the text of find(r, p), "" when it is missing or null, without reading
// the value: a template that copies a product's description or price into its result
// needs its text, not the string unescaped or the number parsed.
func (s *Session) findText(r gjson.Result, p path) string {
	raw, walked := s.walk(r, p)
	switch {
	case !walked:
		return presentText(r.Get(p.text))
	case raw == "null": // a walked value's text is exactly the value's
		return ""
	}
	return raw
}

// walk is the text of the value find(r, p) finds ("" when there is none), or false when
// gjson is to read the path.
func (s *Session) walk(r gjson.Result, p path) (string, bool) {
	if !p.walk {
		return "", false
	}
	// exact: raw ends where the value does; otherwise it runs on past it, to the end of
	// the text it was found in, which reading further down needs no more.
	raw, exact := r.Raw[skipSpace(r.Raw, 0):], true
	for i, st := range p.steps {
		open := p.count || i < len(p.steps)-1
		var found bool
		switch {
		case raw == "":
			return "", true
		case raw[0] == '{' && exact && len(raw) >= indexAbove:
			raw, found = lookupMember(s.members(raw), st.key)
		case raw[0] == '{':
			raw, found = lookupMember(s.recent.members(raw), st.key)
			exact = true
		case raw[0] == '[':
			if st.index < 0 {
				return "", false
			}
			if elems, ok := s.lists[keyOfText(raw)]; ok && exact {
				if found = st.index < len(elems); found {
					raw = elems[st.index].Raw
				}
				break
			}
			raw, found = findElement(raw, st.index, open)
			exact = !open
		}
		if !found {
			return "", true
		}
	}
	if !p.count {
		return raw, true
	}
	switch {
	case raw != "" && raw[0] == '{':
		return "", false // gjson reads "#" as a key
	case raw == "" || raw[0] != '[':
		return "", true
	}
	n, ok := 0, false
	if exact {
		var elems []gjson.Result
		elems, ok = s.lists[keyOfText(raw)]
		n = len(elems)
	}
	if !ok {
		n = countElements(raw)
	}
	return strconv.Itoa(n), true
}

// arrayIndex is part read as an array index: digits, short enough not to overflow.
func arrayIndex(part string) (int, bool) {
	if len(part) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(part); i++ {
		if part[i] < '0' || part[i] > '9' {
			return 0, false
		}
		n = n*10 + int(part[i]-'0')
	}
	return n, true
}

// plainKey reports whether a path component is a key gjson matches literally.
func plainKey(k string) bool { return k != "" && !strings.ContainsAny(k, `\*?#@|!=<>%[]{}"`) }

// member is one member of an indexed object: its key, unescaped, and its value's text.
type member struct{ key, raw string }

// members returns the index of the members of the object whose text is obj, built on
// first use and kept for the call. Values are found, not parsed: a storefront product's
// description alone is kilobytes of escaped HTML that most reads never look at, and
// gjson would unescape it to index it. The large lists among the values are split into
// their elements on the way (see split): a storefront page is one member, its list of
// products, and finding where that list ends is the very walk that splits it.
func (s *Session) members(obj string) []member {
	if m, ok := s.indexes[keyOfText(obj)]; ok {
		return m
	}
	m, _ := scanObject(obj, 0, make([]member, 0, 16), s.skipSplitting)
	s.remember(obj, m)
	return m
}

// remember keeps the members of the object whose text is raw for the rest of the call.
func (s *Session) remember(raw string, members []member) {
	if s.indexes == nil {
		s.indexes = map[textKey][]member{}
	}
	s.indexes[keyOfText(raw)] = members
}

// recentObjects keeps the members of the last few objects below indexAbove that paths
// went through. A template reads a handful of fields of the first image and the first
// variant of every product ("images.0.src", "images.0.width"…): scanned once, each
// further field is a look through ten keys instead of a scan that skips the values
// before it.
type recentObjects struct {
	objects [8]recentObject
	next    int
}

type recentObject struct {
	// text is the object's text. Holding it keeps its memory from being reused while the
	// entry lives, so its address names the object: an object is reached by several paths,
	// with text running on past its end or not, always from the same first byte.
	text    string
	members []member
}

// members returns the members of the valid JSON object whose text starts obj.
func (r *recentObjects) members(obj string) []member {
	start := unsafe.StringData(obj)
	for i := range r.objects {
		if o := &r.objects[i]; o.text != "" && unsafe.StringData(o.text) == start {
			return o.members
		}
	}
	o := &r.objects[r.next]
	r.next = (r.next + 1) % len(r.objects)
	var end int
	o.members, end = scanObject(obj, 0, o.members[:0], skipValue)
	o.text = obj[:end]
	return o.members
}

// clear forgets every object, and with them the documents they are in.
func (r *recentObjects) clear() {
	for i := range r.objects {
		r.objects[i].text = ""
		clear(r.objects[i].members)
		r.objects[i].members = r.objects[i].members[:0]
	}
}

// lookupMember is the text of the value of the first member named key, as gjson finds
// it; an object has a few dozen members at most, fewer than it takes for a map to pay off.
func lookupMember(members []member, key string) (string, bool) {
	for _, m := range members {
		if m.key == key {
			return m.raw, true
		}
	}
	return "", false
}

// findElement is the text of element n of the list whose text starts list. With open,
// the element's text runs on to the end of list.
func findElement(list string, n int, open bool) (string, bool) {
	i := skipSpace(list, 1)
	for k := 0; i < len(list) && list[i] != ']'; k++ {
		if k == n {
			return valueAt(list, i, open), true
		}
		i = nextItem(list, skipValue(list, i))
	}
	return "", false
}

// valueAt is the text of the value that starts at s[i]: to its end, or with open to the
// end of s, which saves finding its end when a path reads on below it.
func valueAt(s string, i int, open bool) string {
	if open {
		return s[i:]
	}
	return s[i:skipValue(s, i)]
}

// countElements is the length of the list whose text starts list.
func countElements(list string) int {
	n := 0
	for i := skipSpace(list, 1); i < len(list) && list[i] != ']'; n++ {
		i = nextItem(list, skipValue(list, i))
	}
	return n
}

// scanObject appends to dst the members of the valid JSON object that starts at s[i],
// and returns them with the object's end. skip finds the end of each value.
func scanObject(s string, i int, dst []member, skip func(s string, i int) int) ([]member, int) {
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] == '"' {
		var key string
		if key, i = readKey(s, i); i >= len(s) {
			return dst, len(s)
		}
		end := skip(s, i)
		dst = append(dst, member{key: key, raw: s[i:end]})
		i = nextItem(s, end)
	}
	return dst, min(i+1, len(s)) // past the closing brace
}

// readKey reads the member key that starts at s[i], unescaped, and returns it with where
// the member's value starts.
func readKey(s string, i int) (string, int) {
	end := jsonvalid.StringEnd(s, i)
	key := s[i+1 : end-1]
	if strings.IndexByte(key, '\\') >= 0 {
		key = gjson.Parse(s[i:end]).Str
	}
	i = skipSpace(s, end)
	return key, skipSpace(s, i+1) // past the colon
}

// elements returns the elements of list, for $each: those split when the list was
// passed, or found now.
func (s *Session) elements(list gjson.Result) []gjson.Result {
	raw := list.Raw
	if len(raw) < indexAbove {
		return list.Array()
	}
	if elems, ok := s.lists[keyOf(list)]; ok {
		return elems
	}
	elems, _ := s.split(raw, 0, nil, skipValue)
	s.keepList(raw, elems)
	return elems
}

// skipSplitting is skipValue that keeps the elements of a large list it passes, and of
// the large lists in their objects: a storefront page's products, and each product's
// variants and images, which $each walks.
func (s *Session) skipSplitting(raw string, i int) int {
	return s.skipKeeping(raw, i, &s.listScratch, s.skipSplittingInner)
}

// skipSplittingInner is skipSplitting one level down, where it stops.
func (s *Session) skipSplittingInner(raw string, i int) int {
	return s.skipKeeping(raw, i, &s.innerListScratch, skipValue)
}

// skipKeeping is skipValue that keeps the elements of a large list it passes, found in
// scratch and their objects' members by skip.
func (s *Session) skipKeeping(raw string, i int, scratch *[]gjson.Result, skip func(string, int) int) int {
	if raw[i] != '[' {
		return skipValue(raw, i)
	}
	elems, end := s.split(raw, i, (*scratch)[:0], skip)
	if end-i >= indexAbove {
		s.keepList(raw[i:end], slices.Clone(elems))
	}
	clear(elems)
	*scratch = elems[:0]
	return end
}

// split appends to dst the elements of the valid JSON list that starts at raw[i], and
// returns them with the list's end. Its large objects are indexed in the same pass that
// finds them: $each reads a dozen paths of every product of a storefront page, and
// finding where a product ends is the very walk that indexing it takes.
// skip finds the end of each member of its objects.
func (s *Session) split(raw string, i int, dst []gjson.Result, skip func(string, int) int) ([]gjson.Result, int) {
	var scratch []member
	for i = skipSpace(raw, i+1); i < len(raw) && raw[i] != ']'; {
		var end int
		if raw[i] == '{' {
			var members []member
			members, end = scanObject(raw, i, scratch[:0], skip)
			if end-i >= indexAbove {
				s.remember(raw[i:end], slices.Clone(members))
			}
			scratch = members
		} else {
			end = skipValue(raw, i)
		}
		dst = append(dst, gjson.Parse(raw[i:end]))
		i = nextItem(raw, end)
	}
	return dst, min(i+1, len(raw)) // past the closing bracket
}

// keepList keeps the elements of the list whose text is raw for the rest of the call.
func (s *Session) keepList(raw string, elems []gjson.Result) {
	if s.lists == nil {
		s.lists = map[textKey][]gjson.Result{}
	}
	s.lists[keyOfText(raw)] = elems
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
		return jsonvalid.StringEnd(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				i = jsonvalid.StringEnd(s, i)
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
