package magento

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does: every operation the adapter implements has cases.
func TestSavedPages(t *testing.T) {
	wasmFile := filepath.Join(t.TempDir(), "magento.wasm")
	if err := os.WriteFile(wasmFile, sdktest.Build(t, "guest"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := kit.Env{CacheDir: sdktest.CacheDir()}.Test(context.Background(), &out, wasmFile, "testdata")
	if err != nil || !ok || strings.Contains(out.String(), "not tested:") {
		t.Fatalf("%v\n%s", err, out.String())
	}
}

// paths runs each test through the WebAssembly guest and natively.
func paths(t *testing.T) map[string]adapter.Module {
	return map[string]adapter.Module{
		"wasm":   sdktest.Load(t, "guest", wasm.Config{}),
		"native": sdk.Native(Adapter{}),
	}
}
