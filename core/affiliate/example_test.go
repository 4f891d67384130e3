package affiliate_test

import (
	"fmt"

	"github.com/stockroom/stockroom/core/affiliate"
)

func ExampleNetwork_Links() {
	n, err := affiliate.New(affiliate.Options{
		Template: "https://go.example-network.com/?id=42&dc={host}&url={url_encoded}",
		Vendors:  []string{"nike.com", "*.adidas.com"},
	})
	if err != nil {
		panic(err)
	}
	batch, _ := n.Links([]string{
		"https://www.nike.com/t/air-force-1",
		"https://shop.adidas.com/gazelle",
		"https://www.puma.com/suede",
		"puma.com/suede",
	})
	for _, r := range batch.Results {
		if r.Err != nil {
			fmt.Println(r.OriginalURL, "->", r.Err)
			continue
		}
		fmt.Println(r.OriginalURL, "->", r.Link)
	}
	fmt.Println(batch.Successful, "links,", batch.Failed, "failed")
	// Output:
	// https://www.nike.com/t/air-force-1 -> https://go.example-network.com/?id=42&dc=www.nike.com&url=https%3A%2F%2Fwww.nike.com%2Ft%2Fair-force-1
	// https://shop.adidas.com/gazelle -> https://go.example-network.com/?id=42&dc=shop.adidas.com&url=https%3A%2F%2Fshop.adidas.com%2Fgazelle
	// https://www.puma.com/suede -> vendor is not in the affiliate network: puma.com
	// puma.com/suede -> malformed URL: URL must start with http:// or https://
	// 2 links, 2 failed
}
