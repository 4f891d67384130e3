//go:build wasip1

package sdk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"
)

// registered are the module's adapters and served the one this instance answers for.
// They are registered from init because a WASI reactor never runs main; that is why this
// one piece of package state exists.
var (
	registered []Adapter
	served     Adapter
)

// Serve registers a as an adapter of this guest module. Call it from init. A module
// usually holds one; one that registers several (the built-ins share a module) serves, in
// each instance, the adapter the host names in AdapterEnv.
func Serve(a Adapter) { registered = append(registered, a) }

// choose picks the adapter this instance serves.
func choose() (Adapter, error) {
	switch len(registered) {
	case 0:
		return nil, errors.New("sdk.Serve was not called from init")
	case 1:
		return registered[0], nil
	}
	want := os.Getenv(AdapterEnv)
	names := make([]string, len(registered))
	for i, a := range registered {
		names[i] = a.Info().Name
		if names[i] == want {
			return a, nil
		}
	}
	return nil, fmt.Errorf("this module holds the adapters %s; the host named %q in %s", strings.Join(names, ", "), want, AdapterEnv)
}

// The marker export: its name carries the ABI major, its result the minor. The host reads
// the name before instantiating anything.
//
//go:wasmexport stockroom_abi_v1
func abiMarker() uint32 { return ABIMinor }

// stockroom_call runs one operation. The host has decoded the request JSON natively and
// passes its handle, so the guest reads the request through the same value queries as any
// document. The answer goes back through output: 0 means success, 1 that output holds an
// error message.
//
//go:wasmexport stockroom_call
func stockroomCall(request uint32) uint32 {
	out, ok := handle(Value{request, guest{}})
	var p unsafe.Pointer
	if len(out) > 0 {
		p = unsafe.Pointer(&out[0])
	}
	if hostOutput(p, uint32(len(out))) != 0 || !ok {
		return 1
	}
	return 0
}

// outBuf is reused by every call's answer; the host copies it out before the next call.
var outBuf []byte

func handle(req Value) (out []byte, ok bool) {
	defer func() {
		// A host failure while reading the request itself.
		if p := recover(); p != nil {
			out, ok = []byte(fmt.Sprint("bad request: ", p)), false
		}
	}()
	if served == nil {
		a, err := choose()
		if err != nil {
			return []byte(err.Error()), false
		}
		served = a
	}
	// The request's fields cross in two host calls, the documents' headers only when
	// read: a call's fixed cost is paid on every round of every page.
	top := req.Strings("op", "url", "cursor", "round", "docs.#", "total")
	c := &Call{op: top[0], url: top[1], cursor: top[2]}
	c.round, _ = strconv.Atoi(top[3])
	c.total, _ = strconv.Atoi(top[5])
	if n, _ := strconv.Atoi(top[4]); n > 0 {
		paths := make([]string, 0, 4*n)
		for i := 0; i < n; i++ {
			p := "docs." + strconv.Itoa(i) + "."
			paths = append(paths, p+"url", p+"final_url", p+"status", p+"err")
		}
		f := req.Strings(paths...)
		for i := 0; i < n; i++ {
			status, _ := strconv.Atoi(f[4*i+2])
			c.docs = append(c.docs, &Doc{URL: f[4*i], FinalURL: f[4*i+1], Status: status, Err: f[4*i+3], req: req, index: i, b: guest{}})
		}
	}
	resp, err := dispatch(served, c)
	if err != nil {
		return []byte(err.Error()), false
	}
	for _, s := range resp.splices {
		if hostAnswerSplice(strPtr(s.member), uint32(len(s.member)), s.v.h) == failed {
			return pendingBytes(int(hostPending(nil, 0))), false
		}
	}
	outBuf = appendResponse(outBuf[:0], &resp)
	return outBuf, true
}

//go:wasmimport stockroom output
func hostOutput(p unsafe.Pointer, n uint32) int32

//go:wasmimport stockroom pending
func hostPending(p unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom doc_body
func hostDocBody(doc uint32, p unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom doc_index
func hostDocIndex(doc uint32, needle unsafe.Pointer, needleLen uint32) int32

//go:wasmimport stockroom doc_parse
func hostDocParse(doc, kind uint32) int32

//go:wasmimport stockroom doc_app_state
func hostDocAppState(doc uint32) int32

//go:wasmimport stockroom query_one
func hostQueryOne(node uint32, expr unsafe.Pointer, exprLen uint32) int32

//go:wasmimport stockroom query_all
func hostQueryAll(node uint32, expr unsafe.Pointer, exprLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom query_words
func hostQueryWords(node, kind uint32, words unsafe.Pointer, wordsLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom node_ancestor
func hostNodeAncestor(node uint32, css unsafe.Pointer, cssLen, within uint32) int32

//go:wasmimport stockroom css_one
func hostCSSOne(node uint32, css unsafe.Pointer, cssLen uint32) int32

//go:wasmimport stockroom css_all
func hostCSSAll(node uint32, css unsafe.Pointer, cssLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom node_texts
func hostNodeTexts(node uint32, css unsafe.Pointer, cssLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom node_string
func hostNodeString(node, what uint32, arg unsafe.Pointer, argLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom nodes_select
func hostNodesSelect(nodes unsafe.Pointer, count, kind uint32, css unsafe.Pointer, cssLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom nodes_string
func hostNodesString(nodes unsafe.Pointer, count, what uint32, arg unsafe.Pointer, argLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom value_get
func hostValueGet(v uint32, path unsafe.Pointer, pathLen uint32) int32

//go:wasmimport stockroom value_kind
func hostValueKind(v uint32) uint32

//go:wasmimport stockroom value_string
func hostValueString(v, what uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom value_float
func hostValueFloat(v uint32) float64

//go:wasmimport stockroom value_elems
func hostValueElems(v uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom value_keys
func hostValueKeys(v uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom answer_splice
func hostAnswerSplice(member unsafe.Pointer, memberLen uint32, v uint32) int32

//go:wasmimport stockroom value_strings
func hostValueStrings(v uint32, paths unsafe.Pointer, pathsLen uint32, out unsafe.Pointer, capacity uint32) int32

//go:wasmimport stockroom value_shape
func hostValueShape(v uint32, template unsafe.Pointer, templateLen uint32, vars unsafe.Pointer, count uint32) int32

// Results of the byte-returning host functions (ABI.md): n >= 0 is the full length,
// written only when it fits; absent and failed are the two negative answers.
const (
	absent = -1
	failed = -2
)

// answers holds the strings and lists made of host answers (see answerArena).
var answers answerArena

// scratch receives host results; most fit, so most queries cost one host call and one
// copy. It grows to the largest result seen. A guest runs one call at a time.
var scratch = make([]byte, 4096)

func strPtr(s string) unsafe.Pointer { return unsafe.Pointer(unsafe.StringData(s)) }

// bytesResult turns a byte-returning host function's answer into bytes, fetching them
// with pending when they did not fit.
func bytesResult(n int32, capacity int) ([]byte, bool) {
	switch {
	case n == absent:
		return nil, false
	case n == failed:
		panic(hostError{string(pendingBytes(int(hostPending(nil, 0))))})
	case int(n) <= capacity:
		return scratch[:n], true
	}
	if int(n) > len(scratch) {
		scratch = make([]byte, n)
	}
	hostPending(unsafe.Pointer(&scratch[0]), uint32(len(scratch)))
	return scratch[:n], true
}

// stringResult is bytesResult for strings: a large result lands in its own buffer, which
// becomes the string without another copy.
func stringResult(n int32) (string, bool) {
	switch {
	case n == absent:
		return "", false
	case n == failed:
		panic(hostError{string(pendingBytes(int(hostPending(nil, 0))))})
	case int(n) <= len(scratch):
		return answers.string(scratch[:n]), true
	}
	b := pendingBytes(int(n))
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

func pendingBytes(n int) []byte {
	if n <= 0 {
		return nil
	}
	b := make([]byte, n)
	hostPending(unsafe.Pointer(&b[0]), uint32(n))
	return b
}

func handleResult(n int32) uint32 {
	if n == failed {
		panic(hostError{string(pendingBytes(int(hostPending(nil, 0))))})
	}
	if n < 0 {
		return 0
	}
	return uint32(n)
}

// handleBuf holds the handles of the last multi-handle answer; the backend contract lets
// it be reused, since every caller copies them into Nodes or Values at once.
var handleBuf []uint32

func handles(b []byte) []uint32 {
	handleBuf = handleBuf[:0]
	for i := 0; i+4 <= len(b); i += 4 {
		handleBuf = append(handleBuf, binary.LittleEndian.Uint32(b[i:]))
	}
	return handleBuf
}

// guest is the backend over host functions.
type guest struct{}

func (guest) body(doc int) []byte {
	n := hostDocBody(uint32(doc), nil, 0)
	if n <= 0 {
		return nil
	}
	// The body goes straight into its own buffer: one copy, however large.
	b := make([]byte, n)
	hostDocBody(uint32(doc), unsafe.Pointer(&b[0]), uint32(n))
	return b
}

func (guest) index(doc int, needle string) int {
	n := hostDocIndex(uint32(doc), strPtr(needle), uint32(len(needle)))
	if n < 0 {
		return -1
	}
	return int(n)
}

func (guest) parse(doc int, k parseKind) uint32 {
	return handleResult(hostDocParse(uint32(doc), uint32(k)))
}

func (guest) appState(doc int) uint32 { return handleResult(hostDocAppState(uint32(doc))) }

func (guest) queryAll(node uint32, expr string) []uint32 {
	n := hostQueryAll(node, strPtr(expr), uint32(len(expr)), unsafe.Pointer(&scratch[0]), uint32(len(scratch)))
	b, _ := bytesResult(n, len(scratch))
	return handles(b)
}

func (guest) queryWords(node uint32, kind wordsKind, words string) []uint32 {
	n := hostQueryWords(node, uint32(kind), strPtr(words), uint32(len(words)), unsafe.Pointer(&scratch[0]), uint32(len(scratch)))
	b, _ := bytesResult(n, len(scratch))
	return handles(b)
}

func (guest) query(node uint32, expr string) uint32 {
	return handleResult(hostQueryOne(node, strPtr(expr), uint32(len(expr))))
}

func (guest) ancestor(node uint32, css string, within uint32) uint32 {
	return handleResult(hostNodeAncestor(node, strPtr(css), uint32(len(css)), within))
}

func (guest) cssOne(node uint32, css string) uint32 {
	return handleResult(hostCSSOne(node, strPtr(css), uint32(len(css))))
}

func (guest) cssAll(node uint32, css string) []uint32 {
	n := hostCSSAll(node, strPtr(css), uint32(len(css)), unsafe.Pointer(&scratch[0]), uint32(len(scratch)))
	b, _ := bytesResult(n, len(scratch))
	return handles(b)
}

func (guest) texts(node uint32, except string) []string {
	b, _ := bytesResult(hostNodeTexts(node, strPtr(except), uint32(len(except)), unsafe.Pointer(&scratch[0]), uint32(len(scratch))), len(scratch))
	return lengthPrefixed(b)
}

func (guest) nodeString(node uint32, what nodeWhat, arg string) (string, bool) {
	return stringResult(hostNodeString(node, uint32(what), strPtr(arg), uint32(len(arg)), unsafe.Pointer(&scratch[0]), uint32(len(scratch))))
}

func (guest) nodesSelect(nodes []uint32, above bool, css string) []uint32 {
	kind := uint32(0)
	if above {
		kind = 1
	}
	n := hostNodesSelect(unsafe.Pointer(&nodes[0]), uint32(len(nodes)), kind, strPtr(css), uint32(len(css)), unsafe.Pointer(&scratch[0]), uint32(len(scratch)))
	b, _ := bytesResult(n, len(scratch))
	return handles(b)
}

func (guest) nodesString(nodes []uint32, what nodeWhat, arg string) []string {
	n := hostNodesString(unsafe.Pointer(&nodes[0]), uint32(len(nodes)), uint32(what), strPtr(arg), uint32(len(arg)), unsafe.Pointer(&scratch[0]), uint32(len(scratch)))
	b, _ := bytesResult(n, len(scratch))
	return lengthPrefixed(b)
}

func (guest) get(v uint32, path string) uint32 {
	return handleResult(hostValueGet(v, strPtr(path), uint32(len(path))))
}

func (guest) kind(v uint32) Kind { return Kind(hostValueKind(v)) }

func (guest) nodeList(n int) []Node { return answers.nodeList(n) }

func (guest) valueString(v uint32, what valueWhat) string {
	str, _ := stringResult(hostValueString(v, uint32(what), unsafe.Pointer(&scratch[0]), uint32(len(scratch))))
	return str
}

func (guest) float(v uint32) float64 { return hostValueFloat(v) }

func (guest) elems(v uint32) []uint32 {
	b, _ := bytesResult(hostValueElems(v, unsafe.Pointer(&scratch[0]), uint32(len(scratch))), len(scratch))
	return handles(b)
}

func (guest) keys(v uint32) []string {
	b, _ := bytesResult(hostValueKeys(v, unsafe.Pointer(&scratch[0]), uint32(len(scratch))), len(scratch))
	return lengthPrefixed(b)
}

// lengthPrefixed reads the strings of a host answer, each a little-endian u32 length
// followed by its bytes. The strings are slices of one string, and the list is sized by a
// first pass, so the whole answer takes two pieces of the answer arena's chunks however
// many strings it holds. Growing the list as it filled was a visible part of listing a
// page.
func lengthPrefixed(b []byte) []string {
	n := 0
	for at := 0; at+4 <= len(b); at += 4 + int(binary.LittleEndian.Uint32(b[at:])) {
		n++
	}
	all := answers.string(b)
	out := answers.list(n)[:0]
	for at := 0; at+4 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[at:]))
		out = append(out, all[at+4:at+4+n])
		at += 4 + n
	}
	return out
}

func (guest) shape(v uint32, template string, vars []uint32) uint32 {
	var p unsafe.Pointer
	if len(vars) > 0 {
		p = unsafe.Pointer(&vars[0])
	}
	return handleResult(hostValueShape(v, strPtr(template), uint32(len(template)), p, uint32(len(vars))))
}

func (guest) strs(v uint32, paths []string) []string {
	joinBuf = joinBuf[:0]
	for i, p := range paths {
		if i > 0 {
			joinBuf = append(joinBuf, '\n')
		}
		joinBuf = append(joinBuf, p...)
	}
	b, _ := bytesResult(hostValueStrings(v, unsafe.Pointer(unsafe.SliceData(joinBuf)), uint32(len(joinBuf)), unsafe.Pointer(&scratch[0]), uint32(len(scratch))), len(scratch))
	// One string for all the fields, sliced: one allocation however many fields.
	all := answers.string(b)
	out := answers.list(len(paths))
	for i, at := 0, 0; i < len(out) && at+4 <= len(b); i++ {
		n := int(binary.LittleEndian.Uint32(b[at:]))
		out[i] = all[at+4 : at+4+n]
		at += 4 + n
	}
	return out
}

// joinBuf holds the paths of a value_strings call; reused, as strings.Join would allocate
// for every call.
var joinBuf []byte
