// Package devstack is the development tooling behind `make run` and `make test`: it
// installs the local databases' packages when they are missing, starts Postgres and
// ClickHouse under a data folder, serves the offline demo stores, and writes run.env.
//
// Only the stockroom command and tests use it; the service's own packages never do.
package devstack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stockroom/stockroom/cmd/stockroom/app"
	"github.com/stockroom/stockroom/configs"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Exec runs command with the local databases up (DATABASE_URL and CLICKHOUSE_URL point at
// them), then stops them. `make test` uses it. A command that ran and failed is reported
// as an *exec.ExitError, which carries its exit status.
func Exec(ctx context.Context, dataDir string, command []string, stdout, stderr io.Writer) error {
	if len(command) == 0 {
		return errors.New("no command to run")
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := startDatabases(ctx, dataDir, false, stdout, logger)
	if err != nil {
		return err
	}
	defer db.stop()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, stdout, stderr, db.env()
	return cmd.Run()
}

// RunOptions are the settings of Run.
type RunOptions struct {
	// DataDir holds the databases, run.env and the ports an earlier run used.
	DataDir string
	// ConfigPath is the configuration file; empty means the defaults and the environment.
	ConfigPath string
	// Version is the build's version, logged when the API starts.
	Version string
}

// Run is `make run`: databases, migrations, demo stores, a demo key, the API, and what to
// do next. It serves until ctx ends, then stops what it started.
func Run(ctx context.Context, opts RunOptions, stdout, stderr io.Writer) error {
	bootLogger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := startDatabases(ctx, opts.DataDir, true, stdout, bootLogger)
	if err != nil {
		return err
	}
	defer db.stop()

	environ := db.env()
	address := os.Getenv(configs.EnvPrefix + "SERVER__ADDRESS")
	if address == "" {
		if address, err = apiAddress(opts.DataDir); err != nil {
			return err
		}
		environ = append(environ, configs.EnvPrefix+"SERVER__ADDRESS="+address)
	}
	fleet, err := demoStores(ctx, opts.DataDir, demoStorePort)
	if err != nil {
		return fmt.Errorf("demo stores: %w", err)
	}
	defer fleet.Stop()
	// The demo stores live on loopback, which the fetcher refuses unless told otherwise;
	// they are ours, so they are also fetched without politeness delays.
	var demoHosts []string
	for _, st := range fleet.Stores {
		demoHosts = append(demoHosts, strings.TrimPrefix(st.BaseURL, "http://"))
	}
	environ = append(environ,
		configs.EnvPrefix+"FETCH__ALLOW="+strings.Join(append(demoHosts, os.Getenv(configs.EnvPrefix+"FETCH__ALLOW")), ","),
		configs.EnvPrefix+"FETCH__NO_DELAY_HOSTS="+strings.Join(append(demoHosts, os.Getenv(configs.EnvPrefix+"FETCH__NO_DELAY_HOSTS")), ","))
	if os.Getenv(configs.EnvPrefix+"USAGE__SPOOL_DIR") == "" {
		environ = append(environ, configs.EnvPrefix+"USAGE__SPOOL_DIR="+filepath.Join(opts.DataDir, "usage-spool"))
	}
	cfg, err := configs.Load(opts.ConfigPath, environ)
	if err != nil {
		return err
	}
	rendering, err := ensureChromium(ctx, cfg.Render, stdout)
	if err != nil {
		return err
	}
	app.SetGCPercent(cfg.Server.GCPercent, os.LookupEnv)
	svc, err := app.New(ctx, cfg, app.Options{Version: opts.Version})
	if err != nil {
		return err
	}
	defer svc.Close()
	if err := svc.Migrate(ctx); err != nil {
		return err
	}
	runEnv := filepath.Join(opts.DataDir, "run.env")
	secret, err := demoKey(ctx, svc.Access(), runEnv)
	if err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	if err := svc.Start(runCtx); err != nil {
		return err
	}
	baseURL := "http://" + address
	metricsURL := svc.MetricsURL()
	vars := fmt.Sprintf("STOCKROOM_URL=%s\nSTOCKROOM_API_KEY=%s\nSTOCKROOM_METRICS_URL=%s\n", baseURL, secret, metricsURL)
	if err := os.WriteFile(runEnv, []byte(vars), 0o600); err != nil {
		stop()
		_ = svc.Wait()
		return fmt.Errorf("write %s: %w", runEnv, err)
	}
	fmt.Fprintf(stdout, `
Stockroom is running at %[1]s (Ctrl-C stops it and the databases it started)

  Console: %[1]s/console (sign in with the API key below)

  API key (organization %[2]q): %[3]s
  Also in %[4]s for scripts: source it, then use $STOCKROOM_URL and $STOCKROOM_API_KEY.

  Prometheus metrics: %[14]s (also $STOCKROOM_METRICS_URL; empty when metrics.listen is)

Try:
  curl -s -H "x-api-key: %[3]s" %[1]s/v2/vendors
  curl -s -H "x-api-key: %[3]s" "%[1]s/v2/usage?period=24h"
  curl -s %[1]s/healthz

Crawl an offline demo store (Shopify-like; JSON-LD at %[8]s, plain HTML at %[9]s,
sitemaps only at %[10]s, WooCommerce at %[11]s, Magento at %[12]s, headless Next.js at
%[13]s, drawn by script at %[15]s), then browse it:
  curl -s -X POST -H "x-api-key: %[3]s" -H "Content-Type: application/json" -d '{"url": "%[7]s"}' %[1]s/v2/crawl
  curl -s -H "x-api-key: %[3]s" %[1]s/v2/crawl/EXECUTION_ID
  curl -s -H "x-api-key: %[3]s" "%[1]s/v2/collections?vendor=%[7]s"
  curl -s -X POST -H "x-api-key: %[3]s" -H "Content-Type: application/json" -d '{"vendor": "%[7]s", "max_products": 20}' %[1]s/v2/extract

Rendering:  %[16]s
Postgres:   %[5]s
ClickHouse: %[6]s
`, baseURL, demoOrganization, secret, runEnv, db.postgresURL, db.clickhouseURL,
		fleet.Get(demostore.Shopify).BaseURL, fleet.Get(demostore.JSONLD).BaseURL, fleet.Get(demostore.HTML).BaseURL,
		fleet.Get(demostore.Sitemap).BaseURL, fleet.Get(demostore.WooCommerce).BaseURL, fleet.Get(demostore.Magento).BaseURL,
		fleet.Get(demostore.Headless).BaseURL, metricsURL, fleet.Get(demostore.Script).BaseURL, rendering)
	return svc.Wait()
}
