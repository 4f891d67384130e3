package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/stockroom/stockroom/adapters/kit"
	"github.com/stockroom/stockroom/configs"
)

// adapterUsage is the usage of `stockroom adapter`; each subcommand's own is in
// adapterSubcommands.
const adapterUsage = `usage: stockroom adapter COMMAND [flags]

The adapter authoring kit (adapters/ABI.md, "Authoring kit"):
  new NAME       scaffold an adapter that builds and passes its own tests
  test ADAPTER DIR
                 run an adapter over the saved pages of DIR and what each operation must answer
  run            run an operation on a saved page as the service runs it
  install FILE.wasm
                 copy an adapter into the adapters folder and write its manifest
  manifest [DIR] write the manifests (version, sha256) of the adapters folder

Run "stockroom adapter COMMAND --help" for a command's flags.
`

// adapterSubcommand is one command of the kit: its usage line and what it does with its
// flags parsed.
type adapterSubcommand struct {
	usage string
	// flags declares the command's flags on fs and returns the function that runs it
	// with the remaining arguments.
	flags func(fs *flag.FlagSet, folder *adaptersFolder) func(ctx context.Context, env kit.Env, args []string, stdout io.Writer) error
}

// adaptersFolder is the adapters folder a command works with: --adapters, else the
// configuration's adapters.dir (--config, then the environment's overrides).
type adaptersFolder struct {
	dir, config *string
}

func (f *adaptersFolder) declare(fs *flag.FlagSet) {
	f.dir = fs.String("adapters", "", "the adapters folder; default the configuration's adapters.dir")
	f.config = fs.String("config", "", "configuration file whose adapters.dir (and adapters.require_checksum) to use")
}

// apply sets env's adapters folder.
func (f *adaptersFolder) apply(env *kit.Env) error {
	if f.dir == nil {
		return nil
	}
	cfg, err := configs.Load(*f.config, os.Environ())
	if err != nil {
		return err
	}
	env.AdaptersDir, env.RequireChecksum = cfg.Adapters.Dir, cfg.Adapters.RequireChecksum
	if *f.dir != "" {
		env.AdaptersDir = *f.dir
	}
	return nil
}

var adapterSubcommands = map[string]adapterSubcommand{
	"new": {
		usage: `usage: stockroom adapter new NAME [--dir DIR] [--stockroom SOURCE_DIR]
  Write an adapter named NAME into DIR (default ./NAME): a guest that builds with
  GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared, its manifest, and saved pages with
  what detect, discover, list and extract must answer, which it passes.
`,
		flags: func(fs *flag.FlagSet, _ *adaptersFolder) func(context.Context, kit.Env, []string, io.Writer) error {
			dir := fs.String("dir", "", "where to write the adapter; default ./NAME")
			root := fs.String("stockroom", "", "the Stockroom source directory, when DIR is outside it")
			return func(_ context.Context, _ kit.Env, args []string, stdout io.Writer) error {
				if len(args) != 1 {
					return errUsage
				}
				name := args[0]
				if *dir == "" {
					*dir = name
				}
				if err := kit.New(name, *dir, *root); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "wrote %s; see %s/README.md\n", *dir, *dir)
				return nil
			}
		},
	},
	"test": {
		usage: `usage: stockroom adapter test [--adapters DIR] [--config FILE] ADAPTER DIR
  Run ADAPTER alone (a module file FILE.wasm, or the name of a built-in adapter or of one in
  the adapters folder) over every case of DIR: DIR/NAME.html and DIR/NAME.expected.json,
  what each operation must answer for that page. Exit status 1 on a mismatch.
`,
		flags: func(fs *flag.FlagSet, folder *adaptersFolder) func(context.Context, kit.Env, []string, io.Writer) error {
			folder.declare(fs)
			return func(ctx context.Context, env kit.Env, args []string, stdout io.Writer) error {
				if len(args) != 2 {
					return errUsage
				}
				ok, err := env.Test(ctx, stdout, args[0], args[1])
				if err != nil {
					return err
				}
				if !ok {
					return exitError(1)
				}
				return nil
			}
		},
	},
	"run": {
		usage: `usage: stockroom adapter run --url URL --file PAGE [--op OP] [--adapter NAME|FILE.wasm] [flags]
  Run one operation on a saved page as the service runs it: every built-in adapter and every
  adapter of the adapters folder, under the service's rules, with FILE.wasm beside them
  (in place of an installed adapter of the same name); --adapter NAME runs that adapter
  alone. Prints the answer as JSON: for extract the v2 product or {"outcome","message"}.
`,
		flags: func(fs *flag.FlagSet, folder *adaptersFolder) func(context.Context, kit.Env, []string, io.Writer) error {
			folder.declare(fs)
			var req kit.Request
			op := fs.String("op", "extract", "the operation: "+strings.Join(kit.Ops, ", "))
			fs.StringVar(&req.URL, "url", "", "the saved page's URL (required)")
			fs.StringVar(&req.File, "file", "", "the saved page (required)")
			fs.StringVar(&req.FinalURL, "final-url", "", "the URL the page landed on after redirects")
			fs.StringVar(&req.Docs, "docs", "", "directory of saved follow-up documents")
			spec := fs.String("adapter", "", "a module to run beside the service's adapters, or an adapter's name to run it alone")
			platform := fs.String("platform", "", "discover, list: the platform to run for; default detected on the page")
			fs.StringVar(&req.Collection, "collection", "", "list: the collection's URL; default --url")
			fs.StringVar(&req.Cursor, "cursor", "", "list: the page position, as the previous page's next")
			fs.IntVar(&req.HostTotal, "host-total", 0, "list: the products the collection holds as far as the host knows")
			explain := fs.Bool("explain", false, "extract: also print the ranker's candidates, features and scores per field")
			return func(ctx context.Context, env kit.Env, args []string, stdout io.Writer) error {
				if len(args) != 0 || req.URL == "" || req.File == "" {
					return errUsage
				}
				if !slices.Contains(kit.Ops, *op) {
					return fmt.Errorf("--op %q: want one of %s", *op, strings.Join(kit.Ops, ", "))
				}
				req.Op = *op
				fs.Visit(func(f *flag.Flag) {
					if f.Name == "platform" {
						req.Platform = platform
					}
				})
				if err := env.Run(ctx, stdout, *spec, req); err != nil {
					return err
				}
				if *explain {
					return env.Explain(ctx, stdout, req.URL, req.File)
				}
				return nil
			}
		},
	},
	"install": {
		usage: `usage: stockroom adapter install [--adapters DIR] [--config FILE] [--priority N] FILE.wasm
  Copy the adapter module FILE.wasm into the adapters folder and write its manifest there
  (name, version, sha256, priority), checked as the service loads it. The service picks it
  up at its next look at the folder.
`,
		flags: func(fs *flag.FlagSet, folder *adaptersFolder) func(context.Context, kit.Env, []string, io.Writer) error {
			folder.declare(fs)
			priority := fs.Int("priority", 0, "the adapter's priority; default that of the manifest it replaces, else of the manifest beside FILE.wasm, else 0")
			return func(ctx context.Context, env kit.Env, args []string, stdout io.Writer) error {
				if len(args) != 1 {
					return errUsage
				}
				if env.AdaptersDir == "" {
					return errors.New("no adapters folder: pass --adapters DIR or configure adapters.dir")
				}
				var p *int
				fs.Visit(func(f *flag.Flag) {
					if f.Name == "priority" {
						p = priority
					}
				})
				return env.Install(ctx, stdout, args[0], env.AdaptersDir, p)
			}
		},
	},
	"manifest": {
		usage: `usage: stockroom adapter manifest [--config FILE] [DIR]
  Write the manifest of every adapter module in DIR (default the configuration's
  adapters.dir): each module's version and sha256, keeping the priority of its manifest,
  a new one at priority 0. Each is checked as the service loads it.
`,
		flags: func(fs *flag.FlagSet, folder *adaptersFolder) func(context.Context, kit.Env, []string, io.Writer) error {
			folder.declare(fs)
			return func(ctx context.Context, env kit.Env, args []string, stdout io.Writer) error {
				switch {
				case len(args) > 1:
					return errUsage
				case len(args) == 1:
					env.AdaptersDir = args[0]
				case env.AdaptersDir == "":
					return errors.New("no adapters folder: pass DIR or configure adapters.dir")
				}
				return env.WriteManifests(ctx, stdout, env.AdaptersDir)
			}
		},
	},
}

// errUsage is a command given the wrong arguments: its usage is printed.
var errUsage = errors.New("usage")

// adapterCommand runs `stockroom adapter ...`: the adapter authoring kit. Asked for help
// (help, -h, --help), a command prints its usage to stdout and succeeds.
func adapterCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, adapterUsage)
		return flag.ErrHelp
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, adapterUsage)
		return nil
	}
	sub, ok := adapterSubcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "stockroom adapter: unknown command %q\n\n%s", args[0], adapterUsage)
		return flag.ErrHelp
	}
	fs := flag.NewFlagSet("stockroom adapter "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	usage := func(w io.Writer) {
		fmt.Fprint(w, sub.usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fs.Usage = func() {} // the usage is printed below, to stdout when asked for
	var folder adaptersFolder
	run := sub.flags(fs, &folder)
	rest, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		usage(stdout)
		return nil
	}
	if err != nil {
		usage(stderr) // after the flag package's message naming the flag
		return flag.ErrHelp
	}
	env := kit.Env{Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	if err := folder.apply(&env); err != nil {
		return err
	}
	if err := run(ctx, env, rest, stdout); errors.Is(err, errUsage) {
		usage(stderr)
		return flag.ErrHelp
	} else if err != nil {
		return err
	}
	return nil
}

// parseInterspersed parses flags given before, between and after the arguments
// (`adapter new NAME --dir DIR`, `adapter test --adapters DIR x.wasm testdata`), and
// returns the arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
