package jsonld

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does.
func TestSavedPages(t *testing.T) {
	wasmFile := filepath.Join(t.TempDir(), "jsonld.wasm")
	if err := os.WriteFile(wasmFile, sdktest.Build(t, "guest"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := kit.Env{CacheDir: sdktest.CacheDir()}.Test(context.Background(), &out, wasmFile, "testdata")
	if err != nil || !ok {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
