package wasm

import (
	"os"
	"syscall"
	"testing"
	"unsafe"
)

func TestMappedMemoryGrowsInPlace(t *testing.T) {
	const page = 65536
	mem := allocateMapped(page, 16*page)
	if _, ok := mem.(*mappedMemory); !ok {
		t.Fatalf("allocateMapped returned %T, want a mapping", mem)
	}
	defer mem.Free()
	small := mem.Reallocate(page)
	small[page-1] = 42
	big := mem.Reallocate(4 * page)
	if len(big) != 4*page || &big[0] != &small[0] {
		t.Fatalf("growing moved or mis-sized the memory: len %d", len(big))
	}
	if big[page-1] != 42 || big[4*page-1] != 0 {
		t.Fatalf("grown memory holds %d and %d, want 42 and 0", big[page-1], big[4*page-1])
	}
	if mem.Reallocate(17*page) != nil {
		t.Fatal("memory grew past its maximum")
	}
}

// A mapped memory's grown range is in memory before the guest touches it (the kernel was
// asked to supply it in one call), and the range not grown is not.
func TestMappedMemoryIsSuppliedAsItGrows(t *testing.T) {
	const page = 65536
	if !populateSupported() {
		t.Skip("this kernel does not take MADV_POPULATE_WRITE (Linux 5.14)")
	}
	mem, ok := allocateMapped(page, 16*page).(*mappedMemory)
	if !ok {
		t.Fatal("allocateMapped did not map")
	}
	defer mem.Free()
	mem.Reallocate(page)
	mem.Reallocate(4 * page)
	if got := residentPages(t, mem.mapping[:4*page]); got != 4*page/os.Getpagesize() {
		t.Errorf("%d of the grown range's %d pages resident, want all", got, 4*page/os.Getpagesize())
	}
	if got := residentPages(t, mem.mapping[4*page:]); got != 0 {
		t.Errorf("%d pages resident beyond the grown range, want none", got)
	}
}

func populateSupported() bool {
	b, err := syscall.Mmap(-1, 0, os.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return false
	}
	defer syscall.Munmap(b)
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), madvPopulateWrite)
	return errno == 0
}

// residentPages counts the pages of b in memory (mincore).
func residentPages(t *testing.T, b []byte) int {
	t.Helper()
	ps := os.Getpagesize()
	vec := make([]byte, (len(b)+ps-1)/ps)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}
