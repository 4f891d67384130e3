package jsonld

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// BenchmarkPages compares CPU per page of the WebAssembly guest and the native build on
// the product-extraction-benchmark pages; the issue allows the guest 1.25x.
func BenchmarkPages(b *testing.B) { sdktest.BenchmarkPages(b, "guest", sdk.Native(Adapter{})) }
