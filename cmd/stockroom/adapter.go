package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/stockroom/stockroom/adapters/kit"
)

const adapterUsage = `usage:
  stockroom adapter run --url URL --file PAGE [--adapter NAME|FILE.wasm] [--docs DIR] [--explain]
      extract the product of a saved page as the service would: every built-in adapter, and
      FILE.wasm beside them; --adapter NAME runs that built-in alone; prints the v2 product
      JSON or {"outcome","message"}; --explain then prints, per field, the ranker's
      candidates with their source, features and score, and which won
  stockroom adapter test ADAPTER.wasm DIR
      run an adapter over DIR/NAME.html with DIR/NAME.expected.json; exit status 1 on a mismatch
  stockroom adapter new NAME [--dir DIR] [--stockroom SOURCE_DIR]
      scaffold an adapter that builds and passes its own test
`

// adapterCommand runs `stockroom adapter ...`: the adapter authoring kit.
func adapterCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, adapterUsage)
		return flag.ErrHelp
	}
	env := kit.Env{Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	fs := flag.NewFlagSet("adapter "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adapterUsage) }
	switch args[0] {
	case "run":
		url := fs.String("url", "", "the page's URL (required)")
		file := fs.String("file", "", "the saved page (required)")
		spec := fs.String("adapter", "", "an adapter module to run beside the built-ins, or a built-in adapter's name to run it alone; default all built-ins")
		docs := fs.String("docs", "", "directory of saved follow-up documents")
		explain := fs.Bool("explain", false, "also print the ranker's candidates, features and scores per field")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *url == "" || *file == "" {
			fs.Usage()
			return flag.ErrHelp
		}
		if err := env.Run(ctx, stdout, *url, *file, *spec, *docs); err != nil {
			return err
		}
		if *explain {
			return env.Explain(ctx, stdout, *url, *file)
		}
		return nil
	case "test":
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 2 {
			fs.Usage()
			return flag.ErrHelp
		}
		ok, err := env.Test(ctx, stdout, fs.Arg(0), fs.Arg(1))
		if err != nil {
			return err
		}
		if !ok {
			return exitError(1)
		}
		return nil
	case "new":
		if len(args) < 2 {
			fs.Usage()
			return flag.ErrHelp
		}
		dir := fs.String("dir", "", "where to write the adapter; default ./NAME")
		root := fs.String("stockroom", "", "the Stockroom source directory, when DIR is outside it")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		name := args[1]
		if *dir == "" {
			*dir = name
		}
		if err := kit.New(name, *dir, *root); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s; see %s/README.md\n", *dir, *dir)
		return nil
	}
	fmt.Fprintf(stderr, "stockroom adapter: unknown subcommand %q\n", args[0])
	fs.Usage()
	return flag.ErrHelp
}
