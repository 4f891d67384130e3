// Command guest builds the html adapter alone as a WebAssembly module, in the form a
// third-party adapter takes. The adapter's tests build it; the server runs the built-in
// adapters from one module instead (adapters/bundle/guest).
package main

import (
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/sdk"
)

func init() { sdk.Serve(html.Adapter{}) }

func main() {}
