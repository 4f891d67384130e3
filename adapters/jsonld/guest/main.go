// Command guest is the jsonld adapter alone as a WebAssembly module, the form of a
// third-party adapter; its tests build it. The server embeds the built-ins in one module
// (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(jsonld.Adapter{}) }

func main() {}
