package wasm

import (
	"bytes"
	"context"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/stockroom/stockroom/adapters/builtin"
)

// segment is a data segment as a test writes it: flags 0 (active, memory 0) unless set.
type segment struct {
	flags  byte
	offset int32
	init   string
}

// dataModule is a module with pages of memory, exported as "memory", holding segments;
// extra sections (id, body) go after the data section.
func dataModule(pages byte, segments []segment, extra ...[]byte) []byte {
	bin := []byte{
		0, 'a', 's', 'm', 1, 0, 0, 0,
		5, 3, 1, 0, pages, // one memory
		7, 10, 1, 6, 'm', 'e', 'm', 'o', 'r', 'y', 2, 0, // export it
	}
	body := uleb(uint32(len(segments)))
	for _, s := range segments {
		body = append(body, s.flags)
		if s.flags == 0 {
			body = append(body, 0x41)
			body = appendSleb32(body, s.offset)
			body = append(body, 0x0b)
		}
		body = append(body, uleb(uint32(len(s.init)))...)
		body = append(body, s.init...)
	}
	for _, e := range extra {
		if e[0] == 12 { // the data count section goes before code and data
			bin = append(bin, e...)
		}
	}
	bin = append(bin, 11)
	bin = append(bin, uleb(uint32(len(body)))...)
	return append(bin, body...)
}

// initialMemory instantiates bin and returns its memory as the data segments left it.
func initialMemory(t *testing.T, bin []byte) []byte {
	t.Helper()
	mem, err := instantiatedMemory(bin)
	if err != nil {
		t.Fatalf("instantiate: %v", err)
	}
	return mem
}

func dataSegments(t *testing.T, bin []byte) int {
	t.Helper()
	sections, err := readSections(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sections {
		if s.id == 11 {
			return int((&reader{b: s.body}).u32())
		}
	}
	return 0
}

func TestCoalesceDataJoinsSegmentsAcrossShortGaps(t *testing.T) {
	// Out of order in the file, as Go's linker writes them. Segments 64 zero bytes or
	// less apart join (0 to 168), 65 apart do not (233); an offset past 65,535 takes a
	// three-byte LEB128.
	bin := dataModule(2, []segment{
		{offset: 100, init: "cd"}, // 22 after "gh"
		{offset: 0, init: "ab"},
		{offset: 10, init: "ef"},  // 8 after "ab"
		{offset: 76, init: "gh"},  // 64 after "ef"
		{offset: 166, init: "ij"}, // 64 after "cd"
		{offset: 233, init: "kl"}, // 65 after "ij"
		{offset: 70000, init: "far"},
	})
	out := coalesceData(bin)
	if got := dataSegments(t, out); got != 3 {
		t.Errorf("%d segments after joining, want 3 (0-167, 233, 70000)", got)
	}
	if !bytes.Equal(initialMemory(t, out), initialMemory(t, bin)) {
		t.Error("joined segments leave another initial memory")
	}
}

func TestCoalesceDataLeavesOtherModulesAlone(t *testing.T) {
	for name, bin := range map[string][]byte{
		// The later segment overwrites part of the earlier one: their order matters.
		"overlapping": dataModule(1, []segment{{offset: 0, init: "abcd"}, {offset: 2, init: "XY"}}),
		// memory.init names segments by index.
		"passive":    dataModule(1, []segment{{offset: 0, init: "ab"}, {flags: 1, init: "cd"}}),
		"data count": dataModule(1, []segment{{offset: 0, init: "ab"}, {offset: 4, init: "cd"}}, []byte{12, 1, 2}),
		"apart":      dataModule(1, []segment{{offset: 0, init: "ab"}, {offset: 1000, init: "cd"}}),
		"one":        dataModule(1, []segment{{offset: 0, init: "ab"}}),
		"truncated":  dataModule(1, []segment{{offset: 0, init: "ab"}, {offset: 4, init: "cd"}})[:30],
		"not wasm":   []byte("not a module"),
	} {
		if out := coalesceData(bin); !bytes.Equal(out, bin) {
			t.Errorf("%s: module changed", name)
		}
	}
}

func TestSleb32RoundTrips(t *testing.T) {
	for _, v := range []int32{0, 1, 63, 64, -1, -64, -65, 127, 128, 65535, 70000, 1<<31 - 1, -1 << 31} {
		r := reader{b: appendSleb32(nil, v)}
		if got := r.s32(); got != v || r.err != nil || r.pos != len(r.b) {
			t.Errorf("%d: read back %d (%v, %d of %d bytes)", v, got, r.err, r.pos, len(r.b))
		}
	}
}

// The built-in adapters' module, as Go's linker wrote it, ends with a few dozen segments at
// most and the same initial memory.
func TestCoalesceDataJoinsTheBuiltinAdapters(t *testing.T) {
	for _, name := range []string{"builtin.wasm"} {
		bin, err := builtin.FS.ReadFile(name)
		if err != nil {
			t.Skipf("%s not built (make wasm): %v", name, err)
		}
		out := coalesceData(bin)
		before, after := dataSegments(t, bin), dataSegments(t, out)
		t.Logf("%s: %d data segments, %d joined; %d bytes, %d", name, before, after, len(bin), len(out))
		if after > 100 || after*100 > before {
			t.Errorf("%s: %d segments of %d left", name, after, before)
		}
		if !bytes.Equal(memoryImage(t, out), memoryImage(t, bin)) {
			t.Errorf("%s: joined segments write another initial memory", name)
		}
		ctx := context.Background()
		rt := wazero.NewRuntime(ctx)
		if _, err := rt.CompileModule(ctx, out); err != nil {
			t.Errorf("%s: joined module invalid: %v", name, err)
		}
		rt.Close(ctx)
	}
}

// memoryImage is the memory a module's data segments write, up to the last byte they
// write, applied in order (the module's imports left aside).
func memoryImage(t *testing.T, bin []byte) []byte {
	t.Helper()
	sections, err := readSections(bin)
	if err != nil {
		t.Fatal(err)
	}
	var image []byte
	for _, sec := range sections {
		if sec.id != 11 {
			continue
		}
		segments, ok := readDataSegments(sec.body)
		if !ok {
			t.Fatal("data section not of active segments")
		}
		for _, s := range segments {
			if end := int(s.offset) + len(s.init); end > len(image) {
				image = append(image, make([]byte, end-len(image))...)
			}
			copy(image[s.offset:], s.init)
		}
	}
	return image
}

// Whatever module wazero instantiates (with a few pages of memory at most), joined, it
// instantiates too, with the same initial memory.
func FuzzCoalesceData(f *testing.F) {
	f.Add(dataModule(2, []segment{{offset: 100, init: "cd"}, {offset: 0, init: "ab"}, {offset: 10, init: "ef"}, {offset: 70000, init: "far"}}))
	f.Add(dataModule(1, []segment{{offset: 0, init: "abcd"}, {offset: 2, init: "XY"}}))
	f.Add(dataModule(1, []segment{{offset: 0, init: "ab"}, {flags: 1, init: "cd"}}))
	f.Fuzz(func(t *testing.T, bin []byte) {
		out := coalesceData(bin)
		if bytes.Equal(out, bin) {
			return
		}
		before, err := instantiatedMemory(bin)
		if err != nil {
			return
		}
		after, err := instantiatedMemory(out)
		if err != nil {
			t.Fatalf("joined module does not instantiate: %v", err)
		}
		if !bytes.Equal(after, before) {
			t.Fatal("joined segments write another initial memory")
		}
	})
}

// instantiatedMemory instantiates bin with at most 64 pages of memory and returns its
// memory, nil when it has none.
func instantiatedMemory(bin []byte) ([]byte, error) {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithMemoryLimitPages(64))
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, bin)
	if err != nil {
		return nil, err
	}
	if mod.Memory() == nil {
		return nil, nil
	}
	mem, _ := mod.Memory().Read(0, mod.Memory().Size())
	return bytes.Clone(mem), nil
}
