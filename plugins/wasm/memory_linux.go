package wasm

import (
	"syscall"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
)

// memoryAllocator backs each instance's linear memory with an anonymous mapping of its
// largest size, reserved but not committed, whose pages the kernel supplies as the memory
// grows (see Reallocate). wazero's default keeps the memory in a Go slice, and each
// memory.grow (a fresh instance grows a dozen times over its first calls) copies all of
// it into new pages that must be faulted in, leaving the old ones to the garbage
// collector, which made warming up instances a noticeable part of a short crawl. Here
// growing lengthens a slice, and a closed instance's memory returns to the system at once.
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
type mappedMemory struct {
	mapping []byte
	// populated is how much of the mapping has been handed to the kernel to fill.
	populated uint64
}

// madvPopulateWrite (Linux 5.14) has the kernel supply a range's pages in one call.
const madvPopulateWrite = 23

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.mapping)) {
		return nil
	}
	if size > m.populated {
		// The guest's runtime grows its memory when it needs more and soon uses most of
		// what it grew. Asking the kernel for the grown pages in one call is much cheaper
		// than taking a page fault for each page when the guest first touches it, at the
		// price of the grown but untouched pages being resident meanwhile. An older kernel
		// refuses the advice, and the pages come as faults as before.
		grown := m.mapping[m.populated:size]
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&grown[0])), uintptr(len(grown)), madvPopulateWrite)
		m.populated = size
	}
	return m.mapping[:size:size]
}

func (m *mappedMemory) Free() {
	if m.mapping != nil {
		_ = syscall.Munmap(m.mapping)
		m.mapping = nil
	}
}
