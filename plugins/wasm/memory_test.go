package wasm

import "testing"

func TestSliceMemoryKeepsContentsAcrossGrowth(t *testing.T) {
	mem := &sliceMemory{}
	mem.Reallocate(10)[9] = 7
	if got := mem.Reallocate(1000); len(got) != 1000 || got[9] != 7 {
		t.Fatalf("grown slice memory: len %d, byte 9 = %d", len(got), got[9])
	}
}
