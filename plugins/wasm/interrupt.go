package wasm

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// interruptExport names the global the host adds to every guest so a deadline can stop a
// running call; see RATIONALE.md, "Stopping a runaway guest".
const interruptExport = "stockroom_host_interrupt"

// budgetExport and tripsExport name the countdown to the next trip into Go and the trips
// taken: together they count the loop heads a guest has passed (see Module.GuestLoops).
const (
	budgetExport = "stockroom_host_budget"
	tripsExport  = "stockroom_host_trips"
)

// errUninstrumentable means the module uses instructions the rewriter does not know; it
// then runs under wazero's own (slower) interruption.
var errUninstrumentable = errors.New("module cannot be instrumented")

// instrument returns a copy of the module bin with an exported mutable i32 global,
// interruptExport, and at the head of every loop a countdown: every yieldEvery iterations
// the guest runs `memory.grow 0`, which wazero serves in Go, and then traps if the global
// is not zero. Setting the global from another goroutine stops the guest within
// yieldEvery loop iterations, for a few register operations per iteration: an order of
// magnitude cheaper than wazero's context checks, which call out of the guest at every
// loop head.
//
// The trip into Go is what keeps the process alive: compiled guest code has no
// preemption points, so a garbage collection that starts while a guest spins waits for it
// to leave; without the trip, it waited forever and with it every goroutine of the server,
// including the timer that raises the flag (RATIONALE.md, "Stopping a runaway guest").
func instrument(bin []byte) ([]byte, error) {
	sections, err := readSections(bin)
	if err != nil {
		return nil, err
	}

	var imports imported
	definedGlobals := uint32(0)
	hasGlobal, hasExport, hasMemory := false, false, false
	for _, s := range sections {
		switch s.id {
		case 2:
			var err error
			if imports, err = scanImports(s.body); err != nil {
				return nil, err
			}
		case 5:
			hasMemory = (&reader{b: s.body}).u32() > 0
		case 6:
			hasGlobal = true
			definedGlobals = (&reader{b: s.body}).u32()
		case 7:
			hasExport = true
		case 13:
			return nil, fmt.Errorf("%w: exception tags", errUninstrumentable)
		}
	}
	if !hasExport {
		return nil, fmt.Errorf("%w: no export section", errUninstrumentable)
	}
	if !hasMemory && imports.memories == 0 {
		return nil, fmt.Errorf("%w: no memory to grow", errUninstrumentable)
	}
	interrupt := imports.globals + definedGlobals
	budget, trips := interrupt+1, interrupt+2
	check := loopCheck(interrupt, budget, trips)
	// Three mutable i32 globals: the interrupt flag (0), the countdown (yieldEvery) and the
	// trips taken (0).
	newGlobals := append([]byte{0x7f, 0x01, 0x41, 0x00, 0x0b, 0x7f, 0x01, 0x41}, append(sleb(yieldEvery), 0x0b, 0x7f, 0x01, 0x41, 0x00, 0x0b)...)
	exported := []struct {
		name   string
		global uint32
	}{{interruptExport, interrupt}, {budgetExport, budget}, {tripsExport, trips}}

	out := append([]byte(nil), bin[:8]...)
	emit := func(id byte, body []byte) { out = appendSection(out, id, body) }
	for _, s := range sections {
		switch s.id {
		case 6:
			r := reader{b: s.body}
			n := r.u32()
			emit(6, append(append(uleb(n+3), s.body[r.pos:]...), newGlobals...))
		case 7:
			if !hasGlobal {
				emit(6, append(uleb(3), newGlobals...))
			}
			r := reader{b: s.body}
			n := r.u32()
			body := append(uleb(n+uint32(len(exported))), s.body[r.pos:]...)
			for _, e := range exported {
				body = append(body, byte(len(e.name)))
				body = append(body, e.name...)
				body = append(body, 0x03)
				body = append(body, uleb(e.global)...)
			}
			emit(7, body)
		case 10:
			body, err := instrumentCode(s.body, check)
			if err != nil {
				return nil, err
			}
			emit(10, body)
		default:
			emit(s.id, s.body)
		}
	}
	return out, nil
}

// yieldEvery is how many loop iterations a guest runs between two trips into Go (and
// checks of the interrupt flag): a few microseconds of a tight loop.
const yieldEvery = 4096

// loopCheck is the code added at every loop head:
//
//	budget -= 1
//	if budget == 0 {
//		budget = yieldEvery
//		trips += 1
//		drop(memory.grow(0))  // into Go: a preemption point
//		if interrupt { unreachable }
//	}
func loopCheck(interrupt, budget, trips uint32) []byte {
	get := func(g uint32) []byte { return append([]byte{0x23}, uleb(g)...) }
	set := func(g uint32) []byte { return append([]byte{0x24}, uleb(g)...) }
	var c []byte
	c = append(c, get(budget)...)
	c = append(c, 0x41, 0x01, 0x6b) // i32.const 1; i32.sub
	c = append(c, set(budget)...)
	c = append(c, get(budget)...)
	c = append(c, 0x45, 0x04, 0x40) // i32.eqz; if
	c = append(c, 0x41)
	c = append(c, sleb(yieldEvery)...)
	c = append(c, set(budget)...)
	c = append(c, get(trips)...)
	c = append(c, 0x41, 0x01, 0x6a) // i32.const 1; i32.add
	c = append(c, set(trips)...)
	c = append(c, 0x41, 0x00, 0x40, 0x00, 0x1a) // i32.const 0; memory.grow 0; drop
	c = append(c, get(interrupt)...)
	c = append(c, 0x04, 0x40, 0x00, 0x0b) // if; unreachable; end
	return append(c, 0x0b)                // end
}

// imported counts the globals and memories a module imports.
type imported struct{ globals, memories uint32 }

func scanImports(body []byte) (imported, error) {
	r := reader{b: body}
	n := r.u32()
	var im imported
	for i := uint32(0); i < n && r.err == nil; i++ {
		r.bytes(int(r.u32())) // module
		r.bytes(int(r.u32())) // name
		switch kind := r.byte(); kind {
		case 0x00: // function
			r.u32()
		case 0x01: // table
			r.byte()
			r.limits()
		case 0x02: // memory
			r.limits()
			im.memories++
		case 0x03: // global
			r.byte()
			r.byte()
			im.globals++
		default:
			return im, fmt.Errorf("%w: import kind %#x", errUninstrumentable, kind)
		}
	}
	return im, r.err
}

func instrumentCode(body []byte, check []byte) ([]byte, error) {
	r := reader{b: body}
	n := r.u32()
	out := uleb(n)
	var fn []byte
	for i := uint32(0); i < n; i++ {
		size := r.u32()
		code := r.bytes(int(size))
		if r.err != nil {
			return nil, r.err
		}
		var err error
		if fn, err = instrumentFunction(fn[:0], code, check); err != nil {
			return nil, fmt.Errorf("function %d: %w", i, err)
		}
		out = append(out, uleb(uint32(len(fn)))...)
		out = append(out, fn...)
	}
	return out, nil
}

// instrumentFunction copies one function body, adding check after every loop header. It
// decodes every instruction, because immediates can hold any byte value.
func instrumentFunction(out, code, check []byte) ([]byte, error) {
	r := reader{b: code}
	groups := r.u32()
	for i := uint32(0); i < groups; i++ {
		r.u32()
		r.byte()
	}
	out = append(out, code[:r.pos]...)
	for r.pos < len(r.b) && r.err == nil {
		start := r.pos
		op := r.byte()
		switch {
		case op == 0x03: // loop
			r.blockType()
			out = append(out, code[start:r.pos]...)
			out = append(out, check...)
			continue
		case op == 0x02 || op == 0x04: // block, if
			r.blockType()
		case op == 0x00 || op == 0x01 || op == 0x05 || op == 0x0b || op == 0x0f || op == 0x1a || op == 0x1b || op == 0xd1:
		case op == 0x0c || op == 0x0d || op == 0x10 || op == 0x12 || (op >= 0x20 && op <= 0x26) || op == 0xd2:
			r.u32()
		case op == 0x0e: // br_table
			for n := r.u32() + 1; n > 0 && r.err == nil; n-- {
				r.u32()
			}
		case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect
			r.u32()
			r.u32()
		case op == 0x1c: // select t*
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				r.byte()
			}
		case op >= 0x28 && op <= 0x3e: // loads and stores: memarg
			r.u32()
			r.u32()
		case op == 0x3f || op == 0x40 || op == 0xd0: // memory.size, memory.grow, ref.null
			r.byte()
		case op == 0x41 || op == 0x42:
			r.u32() // LEB of any width: skipped the same way
		case op == 0x43:
			r.bytes(4)
		case op == 0x44:
			r.bytes(8)
		case op >= 0x45 && op <= 0xc4:
		case op == 0xfc:
			switch sub := r.u32(); {
			case sub <= 7:
			case sub == 8:
				r.u32()
				r.byte()
			case sub == 9 || sub == 13 || sub == 15 || sub == 16 || sub == 17:
				r.u32()
			case sub == 10:
				r.byte()
				r.byte()
			case sub == 11:
				r.byte()
			case sub == 12 || sub == 14:
				r.u32()
				r.u32()
			default:
				return nil, fmt.Errorf("%w: opcode 0xfc %d", errUninstrumentable, sub)
			}
		default:
			return nil, fmt.Errorf("%w: opcode %#x", errUninstrumentable, op)
		}
		out = append(out, code[start:r.pos]...)
	}
	return out, r.err
}

// section is one section of a module: its id and its contents.
type section struct {
	id   byte
	body []byte
}

// readSections splits a module into its sections, in order; their bodies are views of bin.
func readSections(bin []byte) ([]section, error) {
	if len(bin) < 8 || !bytes.Equal(bin[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	var sections []section
	r := reader{b: bin, pos: 8}
	for r.pos < len(r.b) {
		id := r.byte()
		size := r.u32()
		body := r.bytes(int(size))
		if r.err != nil {
			return nil, r.err
		}
		sections = append(sections, section{id, body})
	}
	return sections, nil
}

// appendSection appends a section, id then size then body, to a module being written.
func appendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = append(out, uleb(uint32(len(body)))...)
	return append(out, body...)
}

// reader decodes the WebAssembly binary format; the first error sticks.
type reader struct {
	b   []byte
	pos int
	err error
}

var errTruncated = errors.New("truncated WebAssembly module")

func (r *reader) byte() byte {
	if r.err != nil || r.pos >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.pos+n > len(r.b) {
		r.err = errTruncated
		return nil
	}
	b := r.b[r.pos : r.pos+n]
	r.pos += n
	return b
}

// u32 reads an unsigned LEB128; it also skips signed ones of any width.
func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; ; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if shift < 32 {
			v |= uint32(c&0x7f) << shift
		}
		if c&0x80 == 0 {
			return v
		}
		if shift > 63 {
			r.err = errors.New("LEB128 too long")
			return 0
		}
	}
}

// s32 reads a signed LEB128 of at most 32 bits.
func (r *reader) s32() int32 {
	var v int32
	for shift := 0; ; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if shift > 28 && c&0x80 != 0 {
			r.err = errors.New("LEB128 too long")
			return 0
		}
		v |= int32(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 32 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v
		}
	}
}

func (r *reader) limits() {
	flags := r.byte()
	r.u32()
	if flags&1 != 0 {
		r.u32()
	}
}

func (r *reader) blockType() {
	if r.pos >= len(r.b) {
		r.err = errTruncated
		return
	}
	switch c := r.b[r.pos]; c {
	case 0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		r.pos++
	default:
		r.u32() // s33 type index
	}
}

func uleb(v uint32) []byte { return binary.AppendUvarint(nil, uint64(v)) }

// sleb encodes a non-negative i32 immediate (signed LEB128).
func sleb(v uint32) []byte {
	out := uleb(v)
	if out[len(out)-1]&0x40 != 0 {
		// The sign bit of the last group is set: mark the number positive with one more group.
		out[len(out)-1] |= 0x80
		out = append(out, 0x00)
	}
	return out
}
