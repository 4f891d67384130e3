// Command guest is the ebay adapter alone as a WebAssembly module, the form a third-party
// adapter ships in (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared). The server
// embeds the built-ins in one module (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/ebay"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(ebay.Adapter{}) }

func main() {}
