package wasm

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"
)

// loopModule is a module with a loop, a memory and no globals: the rewriter must add the
// global section and keep the module valid.
func loopModule() []byte {
	return []byte{
		0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 4, 1, 0x60, 0, 0, // type: () -> ()
		3, 2, 1, 0, // one function of type 0
		5, 3, 1, 0, 1, // one memory of one page
		7, 5, 1, 1, 'f', 0, 0, // export "f" = func 0
		// code: loop; br 0; end; end; an endless loop
		10, 9, 1, 7, 0, 0x03, 0x40, 0x0c, 0, 0x0b, 0x0b,
	}
}

func TestInstrumentedLoopTrapsWhenFlagged(t *testing.T) {
	bin, err := instrument(loopModule())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, bin)
	if err != nil {
		t.Fatalf("instrumented module invalid: %v", err)
	}
	flag := mod.ExportedGlobal(interruptExport)
	if flag == nil {
		t.Fatal("no interrupt global exported")
	}
	flag.(interface{ Set(uint64) }).Set(1)
	if _, err := mod.ExportedFunction("f").Call(ctx); err == nil {
		t.Fatal("flagged endless loop returned without a trap")
	}
}

func FuzzInstrument(f *testing.F) {
	f.Add(loopModule())
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, bin []byte) {
		out, err := instrument(bin)
		if err != nil {
			return
		}
		// Whatever the rewriter accepts and wazero validates before must validate after.
		ctx := context.Background()
		rt := wazero.NewRuntime(ctx)
		defer rt.Close(ctx)
		if _, err := rt.CompileModule(ctx, bin); err != nil {
			return
		}
		if _, err := rt.CompileModule(ctx, out); err != nil {
			t.Fatalf("instrumenting a valid module broke it: %v", err)
		}
	})
}

func TestModuleWithoutMemoryIsNotInstrumented(t *testing.T) {
	// The loop check leaves the guest through memory.grow; without a memory it cannot.
	noMemory := []byte{
		0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 4, 1, 0x60, 0, 0,
		3, 2, 1, 0,
		7, 5, 1, 1, 'f', 0, 0,
		10, 9, 1, 7, 0, 0x03, 0x40, 0x0c, 0, 0x0b, 0x0b,
	}
	if _, err := instrument(noMemory); !errors.Is(err, errUninstrumentable) {
		t.Fatalf("err = %v, want errUninstrumentable", err)
	}
}

func TestSignedLEBOfLoopBudget(t *testing.T) {
	for _, tc := range []struct {
		v    uint32
		want []byte
	}{
		{0, []byte{0x00}}, {63, []byte{0x3f}}, {64, []byte{0xc0, 0x00}}, {4096, []byte{0x80, 0x20}}, {8192, []byte{0x80, 0xc0, 0x00}},
	} {
		if got := sleb(tc.v); !bytes.Equal(got, tc.want) {
			t.Errorf("sleb(%d) = % x, want % x", tc.v, got, tc.want)
		}
	}
}
