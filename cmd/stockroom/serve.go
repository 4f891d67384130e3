package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/stockroom/stockroom/cmd/stockroom/app"
	"github.com/stockroom/stockroom/cmd/stockroom/internal/devstack"
	"github.com/stockroom/stockroom/configs"
)

// loadConfig reads the configuration file (empty: the defaults) under the environment's
// overrides, and requires a database to be configured.
func loadConfig(path string) (*configs.Config, error) {
	cfg, err := configs.Load(path, os.Environ())
	if err != nil {
		return nil, err
	}
	return cfg, cfg.RequireDatabase()
}

func serveCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	configPath := fs.String("config", "", "configuration file (see configs/default.yaml)")
	migrate := fs.Bool("migrate", false, "migrate the schemas before serving")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return err
	}
	app.SetGCPercent(cfg.Server.GCPercent, os.LookupEnv)
	svc, err := app.New(ctx, cfg, app.Options{Version: version})
	if err != nil {
		return err
	}
	defer svc.Close()
	if *migrate {
		if err := svc.Migrate(ctx); err != nil {
			return err
		}
	}
	return svc.Run(ctx)
}

func migrateCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	configPath := fs.String("config", "", "configuration file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return err
	}
	svc, err := app.New(ctx, cfg, app.Options{})
	if err != nil {
		return err
	}
	defer svc.Close()
	if err := svc.Migrate(ctx); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "schemas are up to date")
	return err
}

// localCommand runs `stockroom local run|exec`: the service, or a command, with local
// databases (see cmd/stockroom/internal/devstack).
func localCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: stockroom local run [--data DIR] | stockroom local exec [--data DIR] -- COMMAND...")
	}
	switch args[0] {
	case "run":
		fs := newFlags("local run", stderr)
		dataDir := fs.String("data", ".data", "folder for the databases and run.env")
		configPath := fs.String("config", "", "configuration file")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return devstack.Run(ctx, devstack.RunOptions{DataDir: *dataDir, ConfigPath: *configPath, Version: version}, stdout, stderr)
	case "exec":
		fs := newFlags("local exec", stderr)
		dataDir := fs.String("data", ".data/test", "folder for the databases")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			return errors.New("usage: stockroom local exec [--data DIR] -- COMMAND [ARGS...]")
		}
		err := devstack.Exec(ctx, *dataDir, fs.Args(), stdout, stderr)
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exitError(exit.ExitCode())
		}
		return err
	}
	return fmt.Errorf("unknown local command %q (run, exec)", args[0])
}
