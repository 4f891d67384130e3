package wasm

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
)

// loopModule is a module with a loop and no globals: the rewriter must add the global
// section and keep the module valid.
func loopModule() []byte {
	return []byte{
		0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 4, 1, 0x60, 0, 0, // type: () -> ()
		3, 2, 1, 0, // one function of type 0
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
