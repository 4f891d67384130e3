// Command guest is the html adapter as a WebAssembly module: `make wasm` builds it into
// adapters/builtin/html.wasm.
package main

import (
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(html.Adapter{}) }

func main() {}
