// Command guest is the shopify adapter as a WebAssembly module: `make wasm` builds it
// into adapters/builtin/shopify.wasm.
package main

import (
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/shopify"
)

func init() { sdk.Serve(shopify.Adapter{}) }

func main() {}
