package wasm

import "github.com/tetratelabs/wazero/experimental"

// sliceMemory is a linear memory in a Go slice, as wazero keeps one by default: the
// fallback where memory cannot be mapped.
type sliceMemory struct{ buf []byte }

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > uint64(cap(m.buf)) {
		m.buf = append(m.buf[:cap(m.buf)], make([]byte, size-uint64(cap(m.buf)))...)
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }

var _ experimental.LinearMemory = (*sliceMemory)(nil)
