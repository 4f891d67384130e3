// Command demo-store serves the offline demo stores: a Shopify-like store, a JSON-LD store
// and a plain HTML store, each on its own loopback address. See ../../README.md.
//
//	go run ./examples/demo-store/cmd/demo-store -products 1000
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := demostore.RunCommand(ctx, "demo-store", os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "demo-store:", err)
		os.Exit(1)
	}
}
