// Command shop is the adapter that plugins/wasm's Example loads: it reads a product's name
// and price from the schema.org Product a page describes in JSON-LD. Build it as any guest:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o shop.wasm .
package main

import "github.com/stockroom/stockroom/adapters/sdk"

type shop struct{}

func (shop) Info() sdk.Info { return sdk.Info{Name: "shop", Version: "1.0.0"} }

func (shop) Extract(c *sdk.Call) (*sdk.Product, error) {
	for _, e := range c.Page().JSONLD().Array() {
		if e.Get("@type").String() != "Product" {
			continue
		}
		name := e.Get("name").String()
		amount, _ := e.Get("offers.price").Float()
		return &sdk.Product{Title: &name, Price: &sdk.Price{Current: amount, Currency: e.Get("offers.priceCurrency").String()}}, nil
	}
	return nil, sdk.NonProduct("the page describes no schema.org Product")
}

func init() { sdk.Serve(shop{}) }

func main() {}
