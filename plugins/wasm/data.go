package wasm

import (
	"bytes"
	"cmp"
	"slices"
)

// maxDataGap is the longest run of zero bytes coalesceData writes out to join two data
// segments. Go's linker ends a segment at every run of eight zero bytes or more; joining
// across runs of up to 64 leaves a Go adapter with a handful of segments for a small
// amount of extra initial memory (plugins/RATIONALE.md has the figures).
const maxDataGap = 64

// dataSegment is an active data segment of memory 0.
type dataSegment struct {
	offset uint32
	init   []byte
}

// coalesceData returns bin with its data segments joined where only a few zero bytes
// separate them, or bin itself when it has nothing to join or its segments are not the
// plain kind that can be joined without changing the module's initial memory: every one
// active on memory 0 at a constant offset, none overlapping another, and no data count
// section (whose memory.init and data.drop name segments by index).
//
// Go's linker writes a module's initial memory as tens of thousands of segments, and
// wazero keeps a decoded segment for each in the compiled module and a slice per segment
// in every instance. That is megabytes of Go heap per adapter, and the garbage collector
// lets the heap grow to twice what is live.
func coalesceData(bin []byte) []byte {
	sections, err := readSections(bin)
	if err != nil {
		return bin
	}
	data := -1 // the data section's index
	for i, s := range sections {
		switch s.id {
		case 12:
			return bin
		case 11:
			data = i
		}
	}
	if data < 0 {
		return bin
	}
	segments, ok := readDataSegments(sections[data].body)
	if !ok || len(segments) < 2 {
		return bin
	}
	slices.SortStableFunc(segments, func(a, b dataSegment) int { return cmp.Compare(a.offset, b.offset) })
	var joined []dataSegment
	for _, s := range segments {
		if n := len(joined); n > 0 {
			last := &joined[n-1]
			end := uint64(last.offset) + uint64(len(last.init))
			if uint64(s.offset) < end {
				return bin // overlapping segments: which one wins depends on their order
			}
			if gap := uint64(s.offset) - end; gap <= maxDataGap {
				last.init = append(append(last.init, make([]byte, gap)...), s.init...)
				continue
			}
		}
		joined = append(joined, dataSegment{s.offset, bytes.Clone(s.init)})
	}
	if len(joined) == len(segments) {
		return bin
	}
	body := uleb(uint32(len(joined)))
	for _, s := range joined {
		body = append(body, 0x00, 0x41) // active on memory 0, at i32.const
		body = appendSleb32(body, int32(s.offset))
		body = append(body, 0x0b)
		body = append(body, uleb(uint32(len(s.init)))...)
		body = append(body, s.init...)
	}
	sections[data].body = body
	out := append(make([]byte, 0, len(bin)+len(body)), bin[:8]...)
	for _, s := range sections {
		out = appendSection(out, s.id, s.body)
	}
	return out
}

// readDataSegments decodes a data section whose segments are all active on memory 0 at
// an i32.const offset; ok is false for any other.
func readDataSegments(body []byte) (segments []dataSegment, ok bool) {
	r := reader{b: body}
	n := r.u32()
	for range n {
		if r.u32() != 0 || r.byte() != 0x41 { // flags 0: active, memory 0; i32.const
			return nil, false
		}
		offset := r.s32()
		if r.byte() != 0x0b { // end of the offset expression
			return nil, false
		}
		init := r.bytes(int(r.u32()))
		if r.err != nil {
			return nil, false
		}
		segments = append(segments, dataSegment{uint32(offset), init})
	}
	return segments, r.err == nil && r.pos == len(body)
}

// appendSleb32 appends v as a signed LEB128.
func appendSleb32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
