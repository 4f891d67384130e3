package main

import (
	"context"
	"io"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// demoStoreCommand runs the offline demo stores (`stockroom demo-store [flags]`): a
// Shopify-like store, a JSON-LD store, a plain HTML store, a WooCommerce store, a Magento
// store, a headless (Next.js) store and a store drawn by script on 127.0.0.2, .3, .4, .10,
// .11, .12 and .13, for crawling without the internet. See
// examples/demo-store/README.md.
func demoStoreCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return demostore.RunCommand(ctx, "stockroom demo-store", args, stdout, stderr)
}
