package wasm

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/stockroom/stockroom/plugins/document"
	"github.com/stockroom/stockroom/plugins/wire"
)

// callState is what the host functions of one running call work on. It belongs to one
// instance and is reused from call to call.
type callState struct {
	session   *document.Session
	output    []byte
	outErr    error
	maxOutput int
	// pending holds a result that did not fit the guest's buffer, or an error message.
	pending []byte
	handles []document.Node
	values  []document.Value
	buf     []byte
	strs    []string
	// splices are the answer's members given as values (answer_splice).
	splices []wire.Member
}

type stateKey struct{}

func stateOf(ctx context.Context) *callState {
	st, _ := ctx.Value(stateKey{}).(*callState)
	if st == nil {
		// Only reachable if a guest calls a host function from _initialize, before any
		// call: there is nothing to answer with.
		panic("stockroom host function called outside stockroom_call")
	}
	return st
}

// ABI results (ABI.md).
const (
	resAbsent = -1
	resFailed = -2
)

func read(m api.Module, p, n uint64) []byte {
	b, ok := m.Memory().Read(uint32(p), uint32(n))
	if !ok {
		panic(fmt.Errorf("guest pointer out of range: %d+%d", p, n))
	}
	return b
}

// result hands b to the guest: written at out when it fits, kept as pending otherwise. The
// guest gets the full length either way.
func (st *callState) result(m api.Module, out, capacity uint64, b []byte) uint64 {
	if uint64(len(b)) <= capacity {
		if len(b) > 0 && !m.Memory().Write(uint32(out), b) {
			panic(fmt.Errorf("guest pointer out of range: %d+%d", out, len(b)))
		}
	} else {
		st.pending = append(st.pending[:0], b...)
	}
	return i32(int32(len(b)))
}

func (st *callState) resultString(m api.Module, out, capacity uint64, s string) uint64 {
	if uint64(len(s)) <= capacity {
		if len(s) > 0 && !m.Memory().WriteString(uint32(out), s) {
			panic(fmt.Errorf("guest pointer out of range: %d+%d", out, len(s)))
		}
	} else {
		st.pending = append(st.pending[:0], s...)
	}
	return i32(int32(len(s)))
}

func (st *callState) fail(err error) uint64 {
	st.pending = append(st.pending[:0], err.Error()...)
	return i32(resFailed)
}

func i32(v int32) uint64 { return uint64(uint32(v)) }

func handle[H ~uint32](st *callState, h H, err error) uint64 {
	if err != nil {
		return st.fail(err)
	}
	return uint64(h)
}

// handleList answers a query that found several nodes: their handles as little-endian
// u32s written to the guest's buffer (out, capacity), or the error. hs becomes the call's
// reusable handle slice.
func handleList(m api.Module, st *callState, hs []document.Node, err error, out, capacity uint64) uint64 {
	st.handles = hs
	if err != nil {
		return st.fail(err)
	}
	st.buf = st.buf[:0]
	for _, h := range hs {
		st.buf = binary.LittleEndian.AppendUint32(st.buf, uint32(h))
	}
	return st.result(m, out, uint64(uint32(capacity)), st.buf)
}

// nodeList reads count node handles, little-endian u32s, at p in the guest's memory into
// the call's reusable handle slice, with room after them for as many answers.
func (st *callState) nodeList(m api.Module, p, count uint64) []document.Node {
	raw := read(m, p, uint64(uint32(count))*4)
	st.handles = slices.Grow(st.handles[:0], 2*len(raw)/4)
	for i := 0; i+4 <= len(raw); i += 4 {
		st.handles = append(st.handles, document.Node(binary.LittleEndian.Uint32(raw[i:])))
	}
	return st.handles
}

// attrName is node_string's argument, read from the guest only for the kind that takes
// one (1, an attribute): the others ignore it, whatever it points at.
func attrName(m api.Module, kind uint32, p, n uint64) string {
	if kind != 1 {
		return ""
	}
	return string(read(m, p, n))
}

// nodeString answers node_string's question of kind about n; ok is false for an absent
// attribute.
func nodeString(s *document.Session, n document.Node, kind uint32, arg string) (v string, ok bool, err error) {
	switch kind {
	case 0:
		return s.Text(n), true, nil
	case 1:
		v, ok = s.Attr(n, arg)
		return v, ok, nil
	case 2:
		return s.Name(n), true, nil
	case 3:
		return s.OuterHTML(n), true, nil
	case 4:
		return s.InnerHTML(n), true, nil
	}
	return "", false, fmt.Errorf("unknown kind %d", kind)
}

// appendStrings appends strs to b as the host functions answer lists of strings: each a
// little-endian u32 length, then its bytes.
func appendStrings(b []byte, strs []string) []byte {
	for _, str := range strs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(str)))
		b = append(b, str...)
	}
	return b
}

// hostModuleName is the import module of the host functions.
const hostModuleName = "stockroom"

// hostModule defines the "stockroom" import module of ABI v1. Every function is a
// GoModuleFunc over the raw stack: no reflection, no allocation on the common path.
func hostModule(rt wazero.Runtime) wazero.HostModuleBuilder {
	b := rt.NewHostModuleBuilder(hostModuleName)
	I32, F64 := api.ValueTypeI32, api.ValueTypeF64
	def := func(name string, params, results []api.ValueType, f func(ctx context.Context, m api.Module, st *callState, s []uint64)) {
		b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, m api.Module, s []uint64) {
			f(ctx, m, stateOf(ctx), s)
		}), params, results).Export(name)
	}
	p := func(ts ...api.ValueType) []api.ValueType { return ts }

	def("output", p(I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		if int(uint32(s[1])) > st.maxOutput {
			st.outErr = fmt.Errorf("output of %d bytes exceeds the %d-byte cap", uint32(s[1]), st.maxOutput)
			s[0] = i32(-1)
			return
		}
		st.output = append(st.output[:0], read(m, s[0], s[1])...)
		s[0] = 0
	})
	def("pending", p(I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		n := len(st.pending)
		if uint64(n) <= uint64(uint32(s[1])) && n > 0 {
			m.Memory().Write(uint32(s[0]), st.pending)
		}
		s[0] = i32(int32(n))
	})
	def("doc_body", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		d := st.session.Doc(int(uint32(s[0])))
		if d == nil {
			s[0] = i32(resAbsent)
			return
		}
		// The body is never kept as pending: the guest asks for its length first and
		// passes a buffer of exactly that size, so it crosses once.
		if uint64(len(d.Body)) <= uint64(uint32(s[2])) && len(d.Body) > 0 {
			m.Memory().Write(uint32(s[1]), d.Body)
		}
		s[0] = i32(int32(len(d.Body)))
	})
	def("doc_index", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		d := st.session.Doc(int(uint32(s[0])))
		if d == nil {
			s[0] = i32(resAbsent)
			return
		}
		s[0] = i32(int32(bytes.Index(d.Body, read(m, s[1], s[2]))))
	})
	def("doc_parse", p(I32, I32), p(I32), func(_ context.Context, _ api.Module, st *callState, s []uint64) {
		doc := int(uint32(s[0]))
		switch uint32(s[1]) {
		case 0:
			h, err := st.session.HTML(doc)
			s[0] = handle(st, h, err)
		case 1:
			h, err := st.session.JSON(doc)
			s[0] = handle(st, h, err)
		case 2:
			h, err := st.session.JSONLD(doc)
			s[0] = handle(st, h, err)
		case 3:
			h, err := st.session.Microdata(doc)
			s[0] = handle(st, h, err)
		default:
			s[0] = st.fail(fmt.Errorf("doc_parse: unknown kind %d", uint32(s[1])))
		}
	})
	def("doc_app_state", p(I32), p(I32), func(_ context.Context, _ api.Module, st *callState, s []uint64) {
		h, err := st.session.AppState(int(uint32(s[0])))
		s[0] = handle(st, h, err)
	})
	def("query_one", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		h, err := st.session.Query(document.Node(uint32(s[0])), string(read(m, s[1], s[2])))
		s[0] = handle(st, h, err)
	})
	def("query_all", p(I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		hs, err := st.session.QueryAll(document.Node(uint32(s[0])), string(read(m, s[1], s[2])), st.handles[:0])
		s[0] = handleList(m, st, hs, err, s[3], s[4])
	})
	def("query_words", p(I32, I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		words := strings.Split(string(read(m, s[2], s[3])), "\n")
		hs, err := st.session.FindWords(document.Node(uint32(s[0])), document.WordsKind(uint32(s[1])), words, st.handles[:0])
		s[0] = handleList(m, st, hs, err, s[4], s[5])
	})
	def("node_ancestor", p(I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		h, err := st.session.Ancestor(document.Node(uint32(s[0])), string(read(m, s[1], s[2])), document.Node(uint32(s[3])))
		s[0] = handle(st, h, err)
	})
	def("css_one", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		h, err := st.session.SelectOne(document.Node(uint32(s[0])), string(read(m, s[1], s[2])))
		s[0] = handle(st, h, err)
	})
	def("css_all", p(I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		hs, err := st.session.Select(document.Node(uint32(s[0])), string(read(m, s[1], s[2])), st.handles[:0])
		s[0] = handleList(m, st, hs, err, s[3], s[4])
	})
	def("node_texts", p(I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		texts, err := st.session.Texts(document.Node(uint32(s[0])), string(read(m, s[1], s[2])), st.strs[:0])
		if err != nil {
			s[0] = st.fail(err)
			return
		}
		st.strs = texts
		st.buf = appendStrings(st.buf[:0], texts)
		s[0] = st.result(m, s[3], uint64(uint32(s[4])), st.buf)
	})
	def("node_string", p(I32, I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		v, ok, err := nodeString(st.session, document.Node(uint32(s[0])), uint32(s[1]), attrName(m, uint32(s[1]), s[2], s[3]))
		switch {
		case err != nil:
			s[0] = st.fail(fmt.Errorf("node_string: %w", err))
		case !ok:
			s[0] = i32(resAbsent)
		default:
			s[0] = st.resultString(m, s[4], uint64(uint32(s[5])), v)
		}
	})
	def("nodes_select", p(I32, I32, I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		nodes := st.nodeList(m, s[0], s[1])
		above := false
		switch uint32(s[2]) {
		case 0:
		case 1:
			above = true
		default:
			s[0] = st.fail(fmt.Errorf("nodes_select: unknown kind %d", uint32(s[2])))
			return
		}
		hs, err := st.session.SelectEach(nodes, string(read(m, s[3], s[4])), above, nodes[len(nodes):])
		s[0] = handleList(m, st, hs, err, s[5], s[6])
	})
	def("nodes_string", p(I32, I32, I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		nodes := st.nodeList(m, s[0], s[1])
		kind := uint32(s[2])
		arg := attrName(m, kind, s[3], s[4])
		st.strs = st.strs[:0]
		for _, n := range nodes {
			v, _, err := nodeString(st.session, n, kind, arg)
			if err != nil {
				s[0] = st.fail(fmt.Errorf("nodes_string: %w", err))
				return
			}
			st.strs = append(st.strs, v)
		}
		st.buf = appendStrings(st.buf[:0], st.strs)
		s[0] = st.result(m, s[5], uint64(uint32(s[6])), st.buf)
	})
	def("value_get", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		h, err := st.session.Get(document.Value(uint32(s[0])), string(read(m, s[1], s[2])))
		s[0] = handle(st, h, err)
	})
	def("value_kind", p(I32), p(I32), func(_ context.Context, _ api.Module, st *callState, s []uint64) {
		s[0] = uint64(st.session.Kind(document.Value(uint32(s[0]))))
	})
	def("value_string", p(I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		v := document.Value(uint32(s[0]))
		var str string
		switch uint32(s[1]) {
		case 0:
			str = st.session.String(v)
		case 1:
			str = st.session.Raw(v)
		case 2:
			str = st.session.HTMLText(v)
		default:
			s[0] = st.fail(fmt.Errorf("value_string: unknown kind %d", uint32(s[1])))
			return
		}
		s[0] = st.resultString(m, s[2], uint64(uint32(s[3])), str)
	})
	def("value_float", p(I32), p(F64), func(_ context.Context, _ api.Module, st *callState, s []uint64) {
		f, ok := st.session.Float(document.Value(uint32(s[0])))
		if !ok {
			f = math.NaN()
		}
		s[0] = api.EncodeF64(f)
	})
	def("value_elems", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		vs, err := st.session.Elems(document.Value(uint32(s[0])), st.values[:0], nil)
		st.values = vs
		if err != nil {
			s[0] = st.fail(err)
			return
		}
		st.buf = st.buf[:0]
		for _, h := range vs {
			st.buf = binary.LittleEndian.AppendUint32(st.buf, uint32(h))
		}
		s[0] = st.result(m, s[1], uint64(uint32(s[2])), st.buf)
	})
	def("value_keys", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		var keys []string
		vs, err := st.session.Elems(document.Value(uint32(s[0])), st.values[:0], &keys)
		st.values = vs
		if err != nil {
			s[0] = st.fail(err)
			return
		}
		st.buf = appendStrings(st.buf[:0], keys)
		s[0] = st.result(m, s[1], uint64(uint32(s[2])), st.buf)
	})
	def("answer_splice", p(I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		name := string(read(m, s[0], s[1]))
		if err := wire.CheckMember(name); err != nil {
			s[0] = st.fail(err)
			return
		}
		st.splices = append(st.splices, wire.Member{Name: name, Raw: st.session.Raw(document.Value(uint32(s[2])))})
		s[0] = 0
	})
	def("value_strings", p(I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		paths := strings.Split(string(read(m, s[1], s[2])), "\n")
		st.strs = st.session.Strings(document.Value(uint32(s[0])), paths, st.strs[:0])
		st.buf = appendStrings(st.buf[:0], st.strs)
		s[0] = st.result(m, s[3], uint64(uint32(s[4])), st.buf)
	})
	def("value_shape", p(I32, I32, I32, I32, I32), p(I32), func(_ context.Context, m api.Module, st *callState, s []uint64) {
		vars := read(m, s[3], uint64(uint32(s[4]))*4)
		st.values = st.values[:0]
		for i := 0; i+4 <= len(vars); i += 4 {
			st.values = append(st.values, document.Value(binary.LittleEndian.Uint32(vars[i:])))
		}
		h, err := st.session.Shape(document.Value(uint32(s[0])), string(read(m, s[1], s[2])), st.values)
		s[0] = handle(st, h, err)
	})
	return b
}
