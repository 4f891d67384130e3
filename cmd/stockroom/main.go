// Command stockroom is the Stockroom service and its administration tool.
//
//	stockroom serve [--config FILE]          run the API
//	stockroom migrate [--config FILE]        bring Postgres and ClickHouse schemas up to date
//	stockroom orgs create|list|set ...       manage organizations and credits
//	stockroom keys create|list|revoke ...    manage API keys
//	stockroom local run|exec ...             local databases for `make run` and `make test`
//	stockroom adapter new|test|run|install|manifest ...   the adapter authoring kit
//	stockroom demo-store [flags]             the offline demo stores
//	stockroom crawl|extract|search|executions|usage ...   call a running service (STOCKROOM_URL, STOCKROOM_API_KEY)
//	stockroom completion bash|zsh            shell completion
//	stockroom version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"serve":      {"run the API server", serveCommand},
		"migrate":    {"migrate Postgres (and River) and ClickHouse schemas", migrateCommand},
		"orgs":       {"manage organizations: create, list, set", orgsCommand},
		"keys":       {"manage API keys: create, list, revoke", keysCommand},
		"local":      {"run with local Postgres and ClickHouse: run, exec", localCommand},
		"adapter":    {"adapter authoring kit: new, test, run, install, manifest", adapterCommand},
		"demo-store": {"serve the offline demo stores (Shopify-like, JSON-LD, plain HTML)", demoStoreCommand},
		"crawl":      {"crawl a store through a running service, with progress", crawlCommand},
		"extract":    {"extract products (URLs, or --vendor HOST) through a running service", extractCommand},
		"search":     {"search products in natural language through a running service", searchCommand},
		"executions": {"list the executions of a running service", executionsCommand},
		"usage":      {"show API calls per endpoint of a running service", usageCommand},
		"completion": {"print shell completion: bash or zsh", completionCommand},
		"version": {"print the version", func(_ context.Context, _ []string, stdout, _ io.Writer) error {
			_, err := fmt.Fprintln(stdout, "stockroom", version)
			return err
		}},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stderr, cmds)
		return 2
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "stockroom: unknown command %q\n", args[0])
		printUsage(stderr, cmds)
		return 2
	}
	if err := cmd.run(ctx, args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 2
		}
		var exit exitError
		if errors.As(err, &exit) {
			return int(exit)
		}
		fmt.Fprintf(stderr, "stockroom %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// exitError ends the command with a status and no further message (it has said its piece).
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// commandOrder is the order in which the usage lists the commands: the service's
// administration first, then the API commands.
var commandOrder = []string{"serve", "migrate", "orgs", "keys", "local", "adapter", "demo-store",
	"crawl", "extract", "search", "executions", "usage", "completion", "version"}

func printUsage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: stockroom COMMAND [flags]\n\ncommands:")
	for _, name := range commandOrder {
		fmt.Fprintf(w, "  %-10s %s\n", name, cmds[name].summary)
	}
	fmt.Fprintln(w, "\nThe API commands (crawl to usage) call the service at $STOCKROOM_URL with $STOCKROOM_API_KEY.")
}

// newFlags is a flag set that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("stockroom "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}
