package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// TestSavedPages builds the adapter as an author would and runs `stockroom adapter test`
// over testdata, whose cases ask every operation the adapter implements.
func TestSavedPages(t *testing.T) {
	wasmFile := t.TempDir() + "/woocommerce-example.wasm"
	if err := os.WriteFile(wasmFile, sdktest.Build(t, "."), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := kit.Env{CacheDir: sdktest.CacheDir()}.Test(context.Background(), &out, wasmFile, "testdata")
	if err != nil || !ok || strings.Contains(out.String(), "not tested:") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
}
