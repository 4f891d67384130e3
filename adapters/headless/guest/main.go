// Command guest is the headless adapter alone as a WebAssembly module, the form a
// third-party adapter ships in (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared). The
// server embeds the built-ins in one module (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/headless"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(headless.Adapter{}) }

func main() {}
