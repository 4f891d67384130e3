package main

import (
	"context"
	"io"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// demoStoreCommand runs the offline demo stores (`stockroom demo-store [flags]`): a
// Shopify-like store, a JSON-LD store and a plain HTML store on 127.0.0.2, .3 and .4, for
// `make run` and for crawling without the internet. See examples/demo-store/README.md.
func demoStoreCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return demostore.RunCommand(ctx, "stockroom demo-store", args, stdout, stderr)
}
