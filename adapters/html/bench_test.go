package html

import (
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
)

// BenchmarkPages compares the CPU time per page of the WebAssembly guest with that of the
// native build, on the pages of the product extraction benchmark. RATIONALE.md gives the
// bar the guest must meet.
func BenchmarkPages(b *testing.B) { sdktest.BenchmarkPages(b, "guest", sdk.Native(Adapter{})) }
