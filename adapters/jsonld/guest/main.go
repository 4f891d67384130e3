// Command guest is the jsonld adapter as a WebAssembly module: `make wasm` builds it into
// adapters/builtin/jsonld.wasm.
package main

import (
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(jsonld.Adapter{}) }

func main() {}
