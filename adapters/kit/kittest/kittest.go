// Package kittest runs an adapter's saved-page cases from a Go test.
package kittest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// SavedPages builds the guest in guestDir as the module name.wasm and runs the authoring
// kit's cases in dir over it, as `stockroom adapter test` does. With everyOperation, an
// operation the adapter implements but no case asks fails the test too.
func SavedPages(t *testing.T, guestDir, name, dir string, everyOperation bool) {
	t.Helper()
	wasmFile := filepath.Join(t.TempDir(), name+".wasm")
	if err := os.WriteFile(wasmFile, sdktest.Build(t, guestDir), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := kit.Env{CacheDir: sdktest.CacheDir()}.Test(context.Background(), &out, wasmFile, dir)
	if err != nil || !ok || (everyOperation && strings.Contains(out.String(), "not tested:")) {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
}
