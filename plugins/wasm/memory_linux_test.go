package wasm

import "testing"

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
