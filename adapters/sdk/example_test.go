//go:build !wasip1

package sdk_test

import (
	"context"
	"fmt"
	"log"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/core/adapter"
)

// store is a whole adapter: it reads the title and price of a product page.
type store struct{}

func (store) Info() sdk.Info { return sdk.Info{Name: "store", Version: "1.0.0"} }

func (store) Extract(c *sdk.Call) (*sdk.Product, error) {
	root := c.Page().HTML()
	title := root.TextOf("//h1")
	if title == "" {
		return nil, sdk.NonProduct("no product title")
	}
	p := &sdk.Product{Title: &title}
	if amount, ok := sdk.ParsePrice(root.SelectOne(".price").Text()); ok {
		p.Price = &sdk.Price{Current: amount, Currency: "EUR"}
	}
	return p, nil
}

// A guest program registers its adapter in init and is built as a WASI reactor:
//
//	func init() { sdk.Serve(store{}) }
//	func main() {}
//
//	// GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o store.wasm .
//
// Built natively, the same adapter runs in-process through Native, which is how adapters
// are tested and debugged.
func Example() {
	m := sdk.Native(store{})
	fmt.Println(m.Info().Name, m.Info().Capabilities)

	page := &adapter.Document{
		URL:    "https://store.example/products/kettle",
		Status: 200,
		Body:   []byte(`<html><body><h1>Kettle</h1><p class="price">12,50 €</p></body></html>`),
	}
	resp, err := m.Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: page.URL, Docs: []*adapter.Document{page}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*resp.Product.Title, resp.Product.Price.Current, resp.Product.Price.Currency)

	// A page that holds no product answers with an outcome the service reports for it.
	home := &adapter.Document{URL: "https://store.example/", Status: 200, Body: []byte(`<p>Welcome</p>`)}
	resp, err = m.Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: home.URL, Docs: []*adapter.Document{home}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Outcome, resp.Message)
	// Output:
	// store [extract]
	// Kettle 12.5 EUR
	// non_product_url no product title
}

// A platform that names its currency's sign and its language apart from the prices (a
// PrestaShop theme's prestashop.currency.sign and prestashop.language.locale) gives the
// currency by CurrencyForSymbol; an unknown locale reads "$" as USD.
func ExampleCurrencyForSymbol() {
	fmt.Println(sdk.CurrencyForSymbol("€", "fr-FR"))
	fmt.Println(sdk.CurrencyForSymbol("$", "fr-CA"))
	fmt.Println(sdk.CurrencyForSymbol("$", ""))
	fmt.Println(sdk.CurrencyForSymbol("kr", "sv-SE"))
	fmt.Println(sdk.CurrencyForSymbol("kr", "") == "")
	fmt.Println(sdk.CurrencyForSymbol("chf", "de-CH"))
	// Output:
	// EUR
	// CAD
	// USD
	// SEK
	// true
	// CHF
}
