// Command guest is the woocommerce adapter alone as a WebAssembly module, the form a
// third-party adapter ships in (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared). The
// server embeds the built-ins in one module (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/woocommerce"
)

func init() { sdk.Serve(woocommerce.Adapter{}) }

func main() {}
