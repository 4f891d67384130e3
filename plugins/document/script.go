package document

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// assignments reads the state a script assigns to a global: `window.NAME = …`,
// `window["NAME"] = …` (or self, globalThis) and `__NAME__ = …` with or without a
// declaration, where the value is strict JSON up to its balanced end or JSON.parse of a
// string literal. window.__NUXT__ may also be a JavaScript literal or Nuxt's
// function-wrapped payload. Magento 1's `new Product.Config({…})` and
// `new Product.OptionsPrice({…})` are read too.
func (sc *stateScan) assignments(text string) {
	if len(text) > maxStateText {
		return
	}
	for i := 0; i < len(text) && !sc.full(); {
		eq := strings.IndexByte(text[i:], '=')
		if eq < 0 {
			break
		}
		eq += i
		i = eq + 1
		name, ok := assignedName(text, eq)
		if !ok {
			continue
		}
		kind := stateAssignment
		if name == "__NUXT__" {
			kind = stateNuxt
		}
		if end := sc.assignedValue(kind, name, text, skipSpace(text, eq+1)); end > i {
			i = end
		}
	}
	for _, constructor := range []string{"Product.Config", "Product.OptionsPrice"} {
		call := "new " + constructor + "("
		if at := strings.Index(text, call); at >= 0 && !sc.full() {
			sc.assignedValue(stateMagento, constructor, text, skipSpace(text, at+len(call)))
		}
	}
}

// assignedName is the global that the "=" at text[eq] assigns to, when it is one the
// scan reads.
func assignedName(text string, eq int) (string, bool) {
	if eq+1 < len(text) && (text[eq+1] == '=' || text[eq+1] == '>') {
		return "", false // == and =>
	}
	j := eq - 1
	for j >= 0 && isSpace(text[j]) {
		j--
	}
	if j < 0 {
		return "", false
	}
	if text[j] == ']' {
		// window["NAME"] = …
		if j < 1 || (text[j-1] != '"' && text[j-1] != '\'') {
			return "", false
		}
		// The name is short: the quote that opens it is looked for no further back.
		from := max(0, j-1-maxNameLen-1)
		open := strings.LastIndexByte(text[from:j-1], text[j-1])
		if open < 0 {
			return "", false
		}
		if open += from; open < 1 || text[open-1] != '[' {
			return "", false
		}
		name := text[open+1 : j-1]
		return name, name != "" && globalObject(text, open-1)
	}
	end := j + 1
	for j >= 0 && identByte(text[j]) {
		j--
	}
	name := text[j+1 : end]
	switch {
	case len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"):
		return name, true
	case name != "" && j >= 0 && text[j] == '.':
		return name, globalObject(text, j)
	}
	return "", false
}

// globalObject reports whether the identifier ending just before text[at] is window,
// self or globalThis.
func globalObject(text string, at int) bool {
	j := at - 1
	for j >= 0 && identByte(text[j]) {
		j--
	}
	switch text[j+1 : at] {
	case "window", "self", "globalThis":
		return j < 0 || text[j] != '.'
	}
	return false
}

// maxNameLen bounds the name in window["NAME"].
const maxNameLen = 64

func identByte(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// assignedValue reads the value of an assignment that starts at text[at] as a source,
// and returns where it ends (at when nothing was read).
func (sc *stateScan) assignedValue(kind, name, text string, at int) int {
	if at >= len(text) {
		return at
	}
	switch c := text[at]; {
	case c == '{' || c == '[':
		end := skipValue(text, at)
		if !sc.spend(end - at) {
			return end
		}
		if value := text[at:end]; validText(value) {
			sc.walkSource(kind, name, gjson.Parse(value))
			return end
		}
		if kind == stateNuxt && sc.spend(len(text)-end) {
			if payload, end, ok := readJSLiteral(text, at, nil, nil); ok {
				sc.walkSource(kind, name, gjson.Parse(payload))
				return end
			}
		}
		// Not JSON: its end may have been misread (a quote inside a JavaScript string), so
		// the scan goes on from just after its start.
		return at
	case strings.HasPrefix(text[at:], "JSON.parse("):
		q := skipSpace(text, at+len("JSON.parse("))
		value, end, ok := jsString(text, q)
		if ok && sc.spend(len(value)) && validText(value) {
			sc.walkSource(kind, name, gjson.Parse(value))
		}
		return end
	case kind == stateNuxt && (c == '(' || strings.HasPrefix(text[at:], "function")):
		if !sc.spend(len(text) - at) {
			return at
		}
		if payload, end, ok := nuxtPayload(text, at); ok {
			sc.walkSource(kind, name, gjson.Parse(payload))
			return end
		}
	}
	return at
}

// nuxtPayload reads Nuxt 2's function-wrapped state at text[at]:
// `(function(a,b){return {…}}("x",1))`, the literal after return with each parameter
// replaced by its argument, as JSON. A body that does more than return a literal is not
// read.
func nuxtPayload(text string, at int) (string, int, bool) {
	i := at
	if text[i] == '(' {
		i = skipSpace(text, i+1)
	}
	if !strings.HasPrefix(text[i:], "function") {
		return "", at, false
	}
	i = skipSpace(text, i+len("function"))
	if i >= len(text) || text[i] != '(' {
		return "", at, false
	}
	var params []string
	for i = skipSpace(text, i+1); i < len(text) && text[i] != ')'; {
		start := i
		for i < len(text) && identByte(text[i]) {
			i++
		}
		if i == start {
			return "", at, false
		}
		params = append(params, text[start:i])
		if i = skipSpace(text, i); i < len(text) && text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	if i = skipSpace(text, i+1); i >= len(text) || text[i] != '{' {
		return "", at, false
	}
	if i = skipSpace(text, i+1); !strings.HasPrefix(text[i:], "return") {
		return "", at, false
	}
	body := skipSpace(text, i+len("return"))
	// The arguments follow the body: skip it once to find them, then read it with them.
	_, i, ok := readJSLiteral(text, body, params, nil)
	if !ok {
		return "", at, false
	}
	if i = skipSpace(text, i); i < len(text) && text[i] == ';' {
		i = skipSpace(text, i+1)
	}
	if i >= len(text) || text[i] != '}' {
		return "", at, false
	}
	if i = skipSpace(text, i+1); i < len(text) && text[i] == ')' {
		i = skipSpace(text, i+1) // (function(){…})(args)
	}
	if i >= len(text) || text[i] != '(' {
		return "", at, false
	}
	args := make([]string, 0, len(params))
	for i = skipSpace(text, i+1); i < len(text) && text[i] != ')'; {
		var arg string
		if arg, i, ok = readJSLiteral(text, i, nil, nil); !ok {
			return "", at, false
		}
		args = append(args, arg)
		if i = skipSpace(text, i); i < len(text) && text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	payload, _, ok := readJSLiteral(text, body, params, args)
	return payload, i, ok
}

// readJSLiteral reads the JavaScript literal at text[at] (objects, arrays, strings,
// numbers, true, false, null, undefined, void 0, !0 and !1) as JSON, and returns where it
// ends. An identifier must be one of params: with args it becomes the argument at the
// same position (a parameter without one is undefined, so null); without, the literal is
// only checked. Anything else fails the read.
func readJSLiteral(text string, at int, params, args []string) (string, int, bool) {
	r := jsReader{text: text, params: params, args: args, render: args != nil || params == nil}
	end, ok := r.value(at, 0)
	if !ok {
		return "", at, false
	}
	return string(r.out), end, true
}

// jsReader reads a JavaScript literal, writing it as JSON to out when render is set.
type jsReader struct {
	text   string
	params []string
	args   []string
	render bool
	out    []byte
}

func (r *jsReader) write(s string) {
	if r.render {
		r.out = append(r.out, s...)
	}
}

// value reads the value at text[i] and returns where it ends.
func (r *jsReader) value(i, depth int) (int, bool) {
	i = skipSpace(r.text, i)
	if i >= len(r.text) || depth > maxStateDepth || len(r.out) > maxStateText {
		return i, false
	}
	switch c := r.text[i]; {
	case c == '{':
		return r.object(i, depth)
	case c == '[':
		return r.array(i, depth)
	case c == '"' || c == '\'':
		s, end, ok := jsString(r.text, i)
		if ok && r.render {
			r.out = appendString(r.out, s)
		}
		return end, ok
	case c == '-' || c == '.' || '0' <= c && c <= '9':
		return r.number(i)
	case c == '!' && i+1 < len(r.text) && r.text[i+1] == '0':
		r.write("true")
		return i + 2, true
	case c == '!' && i+1 < len(r.text) && r.text[i+1] == '1':
		r.write("false")
		return i + 2, true
	}
	start := i
	for i < len(r.text) && identByte(r.text[i]) {
		i++
	}
	switch word := r.text[start:i]; word {
	case "":
		return i, false
	case "true", "false", "null":
		r.write(word)
	case "undefined", "NaN", "Infinity":
		r.write("null")
	case "void":
		j := skipSpace(r.text, i)
		if j >= len(r.text) || r.text[j] != '0' {
			return i, false
		}
		r.write("null")
		return j + 1, true
	default:
		p := indexOf(r.params, word)
		if p < 0 {
			return i, false
		}
		if p < len(r.args) {
			r.write(r.args[p])
		} else {
			r.write("null")
		}
	}
	return i, true
}

func indexOf(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}

// object reads {key: value, …}; keys are identifiers, strings or numbers.
func (r *jsReader) object(i, depth int) (int, bool) {
	r.write("{")
	first := true
	for i = skipSpace(r.text, i+1); i < len(r.text) && r.text[i] != '}'; {
		var key string
		switch c := r.text[i]; {
		case c == '"' || c == '\'':
			var ok bool
			if key, i, ok = jsString(r.text, i); !ok {
				return i, false
			}
		default:
			start := i
			for i < len(r.text) && (identByte(r.text[i]) || r.text[i] == '.') {
				i++
			}
			if key = r.text[start:i]; key == "" {
				return i, false
			}
		}
		if i = skipSpace(r.text, i); i >= len(r.text) || r.text[i] != ':' {
			return i, false
		}
		if !first {
			r.write(",")
		}
		first = false
		if r.render {
			r.out = appendString(r.out, key)
			r.out = append(r.out, ':')
		}
		var ok bool
		if i, ok = r.value(i+1, depth+1); !ok {
			return i, false
		}
		if i = skipSpace(r.text, i); i < len(r.text) && r.text[i] == ',' {
			i = skipSpace(r.text, i+1)
		} else if i < len(r.text) && r.text[i] != '}' {
			return i, false
		}
	}
	if i >= len(r.text) {
		return i, false
	}
	r.write("}")
	return i + 1, true
}

// array reads [value, …].
func (r *jsReader) array(i, depth int) (int, bool) {
	r.write("[")
	first := true
	for i = skipSpace(r.text, i+1); i < len(r.text) && r.text[i] != ']'; {
		if !first {
			r.write(",")
		}
		first = false
		var ok bool
		if i, ok = r.value(i, depth+1); !ok {
			return i, false
		}
		if i = skipSpace(r.text, i); i < len(r.text) && r.text[i] == ',' {
			i = skipSpace(r.text, i+1)
		} else if i < len(r.text) && r.text[i] != ']' {
			return i, false
		}
	}
	if i >= len(r.text) {
		return i, false
	}
	r.write("]")
	return i + 1, true
}

// number reads a decimal number, written as JSON writes it (".5" as 0.5).
func (r *jsReader) number(i int) (int, bool) {
	start := i
	for i < len(r.text) && strings.IndexByte("+-.0123456789eE", r.text[i]) >= 0 {
		i++
	}
	f, err := strconv.ParseFloat(r.text[start:i], 64)
	if err != nil {
		return i, false
	}
	if r.render {
		if lit := r.text[start:i]; validText(lit) {
			r.out = append(r.out, lit...)
		} else {
			r.out = strconv.AppendFloat(r.out, f, 'g', -1, 64)
		}
	}
	return i, true
}

// jsString reads the JavaScript string literal at s[i], quoted with ' or ", and returns
// its value and where it ends.
func jsString(s string, i int) (string, int, bool) {
	if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
		return "", i, false
	}
	quote := s[i]
	var b []byte
	for i++; i < len(s); {
		c := s[i]
		switch {
		case c == quote:
			return string(b), i + 1, true
		case c == '\n':
			return "", i, false
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", i, false
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'v':
			b = append(b, '\v')
		case '0':
			b = append(b, 0)
		case '\n':
			// A line continuation.
		case 'x', 'u':
			n := 2
			if e == 'u' {
				n = 4
			}
			if e == 'u' && i < len(s) && s[i] == '{' {
				end := strings.IndexByte(s[i:], '}')
				if end < 0 {
					return "", i, false
				}
				r, err := strconv.ParseUint(s[i+1:i+end], 16, 32)
				if err != nil {
					return "", i, false
				}
				b = utf8.AppendRune(b, rune(r))
				i += end + 1
				continue
			}
			if i+n > len(s) {
				return "", i, false
			}
			r, err := strconv.ParseUint(s[i:i+n], 16, 32)
			if err != nil {
				return "", i, false
			}
			i += n
			if utf16.IsSurrogate(rune(r)) && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if low, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
					if pair := utf16.DecodeRune(rune(r), rune(low)); pair != utf8.RuneError {
						r = uint64(pair)
						i += 6
					}
				}
			}
			b = utf8.AppendRune(b, rune(r))
		default:
			b = append(b, e)
		}
	}
	return "", i, false
}
