// Command guest is the built-in adapters in one WebAssembly module: `make wasm` builds it
// into adapters/builtin/builtin.wasm, which each built-in manifest names. Each instance
// serves the adapter its host names (sdk.AdapterEnv). In one module they share the Go
// runtime and the libraries they all use, which are most of their code: the host
// compiles and keeps that once instead of once per adapter.
package main

import (
	"github.com/stockroom/stockroom/adapters/amazon"
	"github.com/stockroom/stockroom/adapters/ebay"
	"github.com/stockroom/stockroom/adapters/headless"
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/magento"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/shopify"
	"github.com/stockroom/stockroom/adapters/woocommerce"
)

func init() {
	sdk.Serve(shopify.Adapter{})
	sdk.Serve(woocommerce.Adapter{})
	sdk.Serve(magento.Adapter{})
	sdk.Serve(amazon.Adapter{})
	sdk.Serve(ebay.Adapter{})
	sdk.Serve(headless.Adapter{})
	sdk.Serve(jsonld.Adapter{})
	sdk.Serve(html.Adapter{})
}

func main() {}
