// Command guest is the amazon adapter alone as a WebAssembly module, the form a
// third-party adapter ships in (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared). The
// server embeds the built-ins in one module (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/amazon"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(amazon.Adapter{}) }

func main() {}
