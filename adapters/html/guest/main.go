// Command guest is the html adapter alone as a WebAssembly module, the form of a
// third-party adapter; its tests build it. The server embeds the built-ins in one module
// (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(html.Adapter{}) }

func main() {}
