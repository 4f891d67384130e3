package html

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stockroom/stockroom/adapters/kit"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

const site = "https://corner.example"

func htmlDoc(u, body string) *adapter.Document {
	return &adapter.Document{URL: u, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(body)}
}

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does.
func TestSavedPages(t *testing.T) {
	wasmFile := filepath.Join(t.TempDir(), "html.wasm")
	if err := os.WriteFile(wasmFile, sdktest.Build(t, "guest"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := kit.Env{CacheDir: sdktest.CacheDir()}.Test(context.Background(), &out, wasmFile, "testdata")
	if err != nil || !ok {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
