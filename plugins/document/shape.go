package document

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/plugins/jsonvalid"
)

// Shape builds a new JSON value from v by a template (ABI 1.2, value_shape) and returns
// its handle. A guest that would otherwise read a product's images or a page's listings
// field by field, one host call each, states once what it wants and splices the result
// into its answer: the walk over the source runs here, natively. vars are further values
// the template names as "$1", "$2"…
//
// The template language is documented in adapters/ABI.md. A result with nothing in it
// yields 0, like any missing value.
func (s *Session) Shape(v Value, template string, vars []Value) (Value, error) {
	t, err := s.compiledShape(template)
	if err != nil {
		return 0, err
	}
	sh := shaper{s: s, root: s.value(v), vars: make([]gjson.Result, len(vars))}
	for i, h := range vars {
		sh.vars[i] = s.value(h)
	}
	// The result starts at the size of this template's last one: grown by append from
	// nothing, a Shopify page's listings (a few hundred kilobytes) cost five times their
	// size in growing copies.
	out, ok := sh.eval(t, sh.root, 0, make([]byte, 0, t.lastOutput+t.lastOutput/4))
	t.lastOutput = len(out)
	if sh.err != nil {
		return 0, sh.err
	}
	if !ok {
		return 0, nil
	}
	// Valid by construction, not checked: paths copy the text of values every one of
	// which is valid JSON (documents are validated when parsed, the host encodes the
	// rest), and the evaluator writes the remainder itself. FuzzShape holds it to that.
	// A view of out, not a copy: nothing else holds it, and a Shopify page's listings
	// shaped are a few hundred kilobytes.
	return s.addValue(gjson.Parse(unsafe.String(unsafe.SliceData(out), len(out))))
}

// maxCachedShapes bounds a session's compiled templates. Templates that embed data (a
// store's currency, a product's option names) vary, so the cache is emptied when full.
const maxCachedShapes = 256

func (s *Session) compiledShape(template string) (*shapeNode, error) {
	if t, ok := s.shapes[template]; ok {
		return t, nil
	}
	t, err := compileShape(template)
	if err != nil {
		return nil, err
	}
	if s.shapes == nil || len(s.shapes) >= maxCachedShapes {
		s.shapes = make(map[string]*shapeNode)
	}
	s.shapes[template] = t
	return t, nil
}

// Bounds on what one template may ask, so that a guest cannot make the host loop or
// allocate without limit outside the call's deadline.
const (
	maxShapeTemplate = 64 << 10
	maxShapeDepth    = 32
	maxShapeOutput   = 32 << 20
)

type shapeOp uint8

const (
	shapePath shapeOp = iota
	shapeConst
	shapeObject
	shapeArray
	shapeString
	shapeNumber
	shapeBool
	shapeText
	shapeFirst
	shapeConcat
	shapeEach
	shapeIndex
	shapeLookup
)

// shapeNode is a compiled template.
type shapeNode struct {
	op shapeOp
	// path: the gjson path, and which value it starts from (0 the current one, n the
	// var "$n").
	path path
	from int
	// raw is a const's JSON; index's base.
	raw  string
	base int
	args []*shapeNode
	// Object members: keys hold their JSON-encoded names.
	keys     []string
	required []bool
	// each and lookup: the list and what each element maps to; lookup's key and match.
	list, mapTo, key *shapeNode
	on               string
	// lastOutput is the size of the last result of a template's root (see Shape).
	lastOutput int
}

var shapeOperators = map[string]shapeOp{
	"$const": shapeConst, "$string": shapeString, "$number": shapeNumber, "$bool": shapeBool,
	"$text": shapeText, "$first": shapeFirst, "$concat": shapeConcat, "$each": shapeEach,
	"$index": shapeIndex, "$lookup": shapeLookup,
}

func compileShape(template string) (*shapeNode, error) {
	if len(template) > maxShapeTemplate {
		return nil, fmt.Errorf("shape: template of %d bytes exceeds %d", len(template), maxShapeTemplate)
	}
	if !jsonvalid.Valid([]byte(template)) {
		return nil, errors.New("shape: template is not valid JSON")
	}
	n, err := compileNode(gjson.Parse(template), 0)
	if err != nil {
		return nil, fmt.Errorf("shape: %w", err)
	}
	return n, nil
}

func compileNode(t gjson.Result, depth int) (*shapeNode, error) {
	if depth > maxShapeDepth {
		return nil, fmt.Errorf("template nested deeper than %d", maxShapeDepth)
	}
	switch {
	case t.Type == gjson.String:
		return compilePath(t.Str)
	case t.IsArray():
		n := &shapeNode{op: shapeArray}
		for _, e := range t.Array() {
			c, err := compileNode(e, depth+1)
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, c)
		}
		return n, nil
	case t.IsObject():
		return compileObject(t, depth)
	}
	return &shapeNode{op: shapeConst, raw: t.Raw}, nil
}

func compilePath(p string) (*shapeNode, error) {
	n := &shapeNode{op: shapePath, path: parsePath(p)}
	if !strings.HasPrefix(p, "$") {
		return n, nil
	}
	digits := 1
	for digits < len(p) && p[digits] >= '0' && p[digits] <= '9' {
		digits++
	}
	var err error
	if n.from, err = strconv.Atoi(p[1:digits]); err != nil || n.from < 1 {
		return nil, fmt.Errorf("path %q: a path starting with $ names a var, $1 or later", p)
	}
	rest := p[digits:]
	switch {
	case rest == "":
	case rest[0] == '.':
		rest = rest[1:]
	default:
		return nil, fmt.Errorf("path %q: a var is followed by a dot", p)
	}
	n.path = parsePath(rest)
	return n, nil
}

func compileObject(t gjson.Result, depth int) (*shapeNode, error) {
	var op string
	members := map[string]gjson.Result{}
	t.ForEach(func(k, v gjson.Result) bool {
		if _, ok := shapeOperators[k.Str]; ok && op == "" {
			op = k.Str
		}
		members[k.Str] = v
		return true
	})
	if op == "" {
		return compileMembers(t, depth)
	}
	sub := func(key string) (*shapeNode, error) {
		v, ok := members[key]
		if !ok {
			return nil, fmt.Errorf("%s needs %s", op, key)
		}
		return compileNode(v, depth+1)
	}
	allow := func(keys ...string) error {
		for k := range members {
			if !strings.Contains(" "+strings.Join(keys, " ")+" ", " "+k+" ") {
				return fmt.Errorf("%s does not take %q", op, k)
			}
		}
		return nil
	}
	n := &shapeNode{op: shapeOperators[op]}
	var err error
	switch n.op {
	case shapeConst:
		n.raw = members[op].Raw
		err = allow(op)
	case shapeString, shapeNumber, shapeBool, shapeText:
		var arg *shapeNode
		if arg, err = sub(op); err == nil {
			n.args = []*shapeNode{arg}
			err = allow(op)
		}
	case shapeFirst, shapeConcat:
		if !members[op].IsArray() {
			return nil, fmt.Errorf("%s takes an array", op)
		}
		var list *shapeNode
		if list, err = sub(op); err == nil {
			n.args = list.args
			err = allow(op)
		}
	case shapeIndex:
		if members[op].Type != gjson.Number {
			return nil, fmt.Errorf("$index takes a number, the first index")
		}
		n.base = int(members[op].Int())
		err = allow(op)
	case shapeEach:
		if n.list, err = sub("$each"); err == nil {
			if n.mapTo, err = sub("$map"); err == nil {
				err = allow("$each", "$map")
			}
		}
	case shapeLookup:
		if members["$on"].Type != gjson.String {
			return nil, errors.New("$lookup needs $on, the path of the key in each element")
		}
		n.on = members["$on"].Str
		if n.list, err = sub("$lookup"); err == nil {
			if n.key, err = sub("$key"); err == nil {
				if n.mapTo, err = sub("$value"); err == nil {
					err = allow("$lookup", "$on", "$key", "$value")
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

func compileMembers(t gjson.Result, depth int) (*shapeNode, error) {
	n := &shapeNode{op: shapeObject}
	var required []string
	var err error
	t.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "$required" {
			for _, r := range v.Array() {
				required = append(required, r.Str)
			}
			return true
		}
		if strings.HasPrefix(k.Str, "$") {
			err = fmt.Errorf("unknown operator %q", k.Str)
			return false
		}
		var c *shapeNode
		if c, err = compileNode(v, depth+1); err != nil {
			return false
		}
		n.keys = append(n.keys, k.Raw)
		n.args = append(n.args, c)
		n.required = append(n.required, false)
		return true
	})
	if err != nil {
		return nil, err
	}
	for _, r := range required {
		found := false
		for i, k := range n.keys {
			if gjson.Parse(k).Str == r {
				n.required[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("$required names %q, which is not a member", r)
		}
	}
	return n, nil
}

// shaper evaluates one template over one source.
type shaper struct {
	s    *Session
	root gjson.Result
	vars []gjson.Result
	// lookups holds, per $lookup node and list, the list indexed by key: built on first
	// use, so a lookup per element of a long list stays linear.
	lookups map[lookupKey]map[string]gjson.Result
	err     error
}

// eval appends n's result over cur to out; false (out unchanged) when it is absent. index
// is the position of cur in the list an enclosing $each walks.
func (sh *shaper) eval(n *shapeNode, cur gjson.Result, index int, out []byte) ([]byte, bool) {
	if sh.err != nil {
		return out, false
	}
	if len(out) > maxShapeOutput {
		sh.err = fmt.Errorf("shape: result exceeds %d bytes", maxShapeOutput)
		return out, false
	}
	switch n.op {
	case shapePath:
		raw := sh.resolveText(n, cur)
		if raw == "" {
			return out, false
		}
		return append(out, raw...), true
	case shapeConst:
		return append(out, n.raw...), true
	case shapeIndex:
		return strconv.AppendInt(out, int64(index+n.base), 10), true
	case shapeObject:
		return sh.object(n, cur, index, out)
	case shapeArray:
		return sh.array(len(n.args), func(i int, out []byte) ([]byte, bool) { return sh.eval(n.args[i], cur, index, out) }, out)
	case shapeFirst:
		for _, a := range n.args {
			if o, ok := sh.eval(a, cur, index, out); ok {
				return o, true
			}
		}
		return out, false
	case shapeEach:
		list := sh.value(n.list, cur, index)
		if !list.IsArray() {
			return out, false
		}
		elems := sh.s.elements(list)
		return sh.array(len(elems), func(i int, out []byte) ([]byte, bool) { return sh.eval(n.mapTo, elems[i], i, out) }, out)
	case shapeLookup:
		key, ok := sh.text(n.key, cur, index)
		if !ok {
			return out, false
		}
		found, ok := sh.lookup(n, cur, index)[key]
		if !ok {
			return out, false
		}
		return sh.eval(n.mapTo, found, index, out)
	case shapeConcat:
		start := len(out)
		out = append(out, '"')
		for _, a := range n.args {
			s, ok := sh.text(a, cur, index)
			if !ok {
				return out[:start], false
			}
			out = appendStringBody(out, s)
		}
		return append(out, '"'), true
	}
	// The conversions: of their argument's value.
	r := sh.value(n.args[0], cur, index)
	switch n.op {
	case shapeString:
		if r.Type != gjson.String && r.Type != gjson.Number {
			return out, false
		}
		// Stores pad and blank their fields; an answer wants neither.
		str := strings.TrimSpace(r.String())
		if str == "" {
			return out, false
		}
		return appendString(out, str), true
	case shapeNumber:
		f, ok := 0.0, r.Type == gjson.Number
		switch r.Type {
		case gjson.Number:
			f = r.Num
		case gjson.String:
			f, ok = parseNumber(r.Str)
		}
		if !ok || f != f || f > 1e300 || f < -1e300 {
			return out, false
		}
		return strconv.AppendFloat(out, f, 'f', -1, 64), true
	case shapeBool:
		return strconv.AppendBool(out, r.Type == gjson.True || (r.Type == gjson.String && r.Str == "true")), true
	case shapeText:
		if r.Type != gjson.String {
			return out, false
		}
		t := FragmentText(r.Str)
		if t == "" {
			return out, false
		}
		return appendString(out, t), true
	}
	sh.err = fmt.Errorf("shape: unknown operation %d", n.op)
	return out, false
}

func (sh *shaper) resolve(n *shapeNode, cur gjson.Result) gjson.Result {
	base, ok := sh.base(n, cur)
	if !ok || n.path.text == "" {
		return base
	}
	return sh.s.find(base, n.path)
}

// resolveText is the text of resolve(n, cur), "" when it is missing or null: a path
// copied into the result need not be read.
func (sh *shaper) resolveText(n *shapeNode, cur gjson.Result) string {
	base, ok := sh.base(n, cur)
	if !ok || n.path.text == "" {
		return presentText(base)
	}
	return sh.s.findText(base, n.path)
}

// presentText is r's text, "" when it is missing or null.
func presentText(r gjson.Result) string {
	if !r.Exists() || r.Type == gjson.Null {
		return ""
	}
	return r.Raw
}

// base is the value n's path starts from: cur, or the var it names.
func (sh *shaper) base(n *shapeNode, cur gjson.Result) (gjson.Result, bool) {
	if n.from == 0 {
		return cur, true
	}
	if n.from > len(sh.vars) {
		return gjson.Result{}, false
	}
	return sh.vars[n.from-1], true
}

// value evaluates n and parses its result again: the conversions and $each read a value,
// not text. A plain path, by far the common case, skips the round trip.
func (sh *shaper) value(n *shapeNode, cur gjson.Result, index int) gjson.Result {
	if n.op == shapePath {
		return sh.resolve(n, cur)
	}
	b, ok := sh.eval(n, cur, index, nil)
	if !ok {
		return gjson.Result{}
	}
	return gjson.ParseBytes(b)
}

// text is a value read as a string: a string's contents or a number's text.
func (sh *shaper) text(n *shapeNode, cur gjson.Result, index int) (string, bool) {
	r := sh.value(n, cur, index)
	if r.Type != gjson.String && r.Type != gjson.Number {
		return "", false
	}
	return r.String(), true
}

func (sh *shaper) lookup(n *shapeNode, cur gjson.Result, index int) map[string]gjson.Result {
	list := sh.value(n.list, cur, index)
	// A list read from the source is named by its text's address: the key costs no hashing
	// of the text.
	k := lookupKey{n, keyOf(list)}
	if m, ok := sh.lookups[k]; ok {
		return m
	}
	m := map[string]gjson.Result{}
	list.ForEach(func(_, e gjson.Result) bool {
		k := e.Get(n.on)
		if k.Type == gjson.String || k.Type == gjson.Number {
			if _, dup := m[k.String()]; !dup {
				m[k.String()] = e
			}
		}
		return true
	})
	if sh.lookups == nil {
		sh.lookups = map[lookupKey]map[string]gjson.Result{}
	}
	sh.lookups[k] = m
	return m
}

type lookupKey struct {
	n *shapeNode
	textKey
}

func (sh *shaper) object(n *shapeNode, cur gjson.Result, index int, out []byte) ([]byte, bool) {
	start := len(out)
	out = append(out, '{')
	present := 0
	for i, c := range n.args {
		mark := len(out)
		if present > 0 {
			out = append(out, ',')
		}
		out = append(out, n.keys[i]...)
		out = append(out, ':')
		var ok bool
		if out, ok = sh.eval(c, cur, index, out); !ok {
			if n.required[i] {
				return out[:start], false
			}
			out = out[:mark]
			continue
		}
		present++
	}
	if present == 0 {
		return out[:start], false
	}
	return append(out, '}'), true
}

func (sh *shaper) array(count int, elem func(int, []byte) ([]byte, bool), out []byte) ([]byte, bool) {
	start := len(out)
	out = append(out, '[')
	present := 0
	for i := 0; i < count; i++ {
		mark := len(out)
		if present > 0 {
			out = append(out, ',')
		}
		var ok bool
		if out, ok = elem(i, out); !ok {
			out = out[:mark]
			continue
		}
		present++
	}
	if present == 0 {
		return out[:start], false
	}
	return append(out, ']'), true
}

// plainJSONByte reports whether c stands for itself in a JSON string: ASCII, neither a
// control character, a quote nor a backslash.
func plainJSONByte(c byte) bool { return c >= ' ' && c < utf8.RuneSelf && c != '"' && c != '\\' }

func appendString(out []byte, s string) []byte {
	out = append(out, '"')
	out = appendStringBody(out, s)
	return append(out, '"')
}

// appendStringBody appends s escaped for a JSON string; invalid UTF-8 becomes U+FFFD so
// the result is always valid JSON.
func appendStringBody(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		// Most of a store's text needs no escaping: it is appended a run at a time.
		run := i
		for run < len(s) && plainJSONByte(s[run]) {
			run++
		}
		out = append(out, s[i:run]...)
		if i = run; i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				out = append(out, '\\', c)
			case c < 0x20:
				out = append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\ufffd"...)
		} else {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return out
}
