package woocommerce

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/kit/kittest"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// TestSavedPages runs the guest over testdata with the authoring kit, as
// `stockroom adapter test` does: every operation the adapter implements has cases.
func TestSavedPages(t *testing.T) {
	kittest.SavedPages(t, "guest", "woocommerce", "testdata", true)
}

// paths runs each test through the WebAssembly guest and natively.
func paths(t *testing.T) map[string]adapter.Module {
	return map[string]adapter.Module{
		"wasm":   sdktest.Load(t, "guest", wasm.Config{}),
		"native": sdk.Native(Adapter{}),
	}
}
