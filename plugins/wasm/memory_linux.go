package wasm

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// memoryAllocator backs each instance's linear memory with an anonymous mapping of its
// largest size, reserved but not committed: the kernel supplies pages as the guest first
// touches them. wazero's default keeps the memory in a Go slice, and each memory.grow (a
// fresh instance grows a dozen times over its first calls) copies the whole of it into
// pages that must be faulted in, leaving the old ones to the garbage collector; that
// warm-up was a tenth of a short crawl's CPU. Here growing lengthens a slice, and a closed
// instance's memory returns to the system at once.
func memoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(allocateMapped)
}

func allocateMapped(capacity, max uint64) experimental.LinearMemory {
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|syscall.MAP_NORESERVE)
	if err != nil {
		return &sliceMemory{buf: make([]byte, 0, capacity)}
	}
	return &mappedMemory{mapping: buf}
}

// mappedMemory is a linear memory inside one mapping of its maximum size.
type mappedMemory struct{ mapping []byte }

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.mapping)) {
		return nil
	}
	return m.mapping[:size:size]
}

func (m *mappedMemory) Free() {
	if m.mapping != nil {
		_ = syscall.Munmap(m.mapping)
		m.mapping = nil
	}
}
