package ebay

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
// `stockroom adapter test` does: small pages of what the development corpora do not hold
// (the newer x- layout with a struck list price, an ended listing on ebay.de without
// microdata, a search page).
func TestSavedPages(t *testing.T) {
	wasmFile := filepath.Join(t.TempDir(), "ebay.wasm")
	if err := os.WriteFile(wasmFile, sdktest.Build(t, "guest"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := kit.Env{CacheDir: sdktest.CacheDir()}.Test(context.Background(), &out, wasmFile, "testdata")
	if err != nil || !ok {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
