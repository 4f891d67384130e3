package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/access"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/localdb"
)

func localCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: stockroom local run [--data DIR] | stockroom local exec [--data DIR] -- COMMAND...")
	}
	switch args[0] {
	case "run":
		return localRun(ctx, args[1:], stdout, stderr)
	case "exec":
		return localExec(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown local command %q (run, exec)", args[0])
}

// localStack is the databases a local command started, or found configured.
type localStack struct {
	postgresURL, clickhouseURL string
	started                    []*localdb.Server
	logger                     *slog.Logger
}

// startLocalStack starts Postgres and ClickHouse under dataDir unless DATABASE_URL /
// CLICKHOUSE_URL point elsewhere, installing missing packages first when it can.
func startLocalStack(ctx context.Context, dataDir string, durable bool, stdout io.Writer, logger *slog.Logger) (*localStack, error) {
	st := &localStack{postgresURL: os.Getenv("DATABASE_URL"), clickhouseURL: os.Getenv("CLICKHOUSE_URL"), logger: logger}
	if err := ensurePackages(ctx, st.postgresURL == "", st.clickhouseURL == "", stdout); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if st.postgresURL == "" {
		pg, err := localdb.StartPostgres(startCtx, filepath.Join(dataDir, "postgres"), localdb.PostgresOptions{Durable: durable}, logger)
		if err != nil {
			return nil, err
		}
		st.started = append(st.started, pg)
		st.postgresURL = pg.URL
	}
	if st.clickhouseURL == "" {
		ch, err := localdb.StartClickHouse(startCtx, filepath.Join(dataDir, "clickhouse"), localdb.ClickHouseOptions{}, logger)
		if err != nil {
			st.stop()
			return nil, err
		}
		st.started = append(st.started, ch)
		st.clickhouseURL = ch.URL
	}
	return st, nil
}

func (st *localStack) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i := len(st.started) - 1; i >= 0; i-- {
		if err := st.started[i].Stop(ctx); err != nil {
			st.logger.Error("stop local database", "err", err)
		}
	}
}

// env is the environment that points a child process at the stack.
func (st *localStack) env() []string {
	return append(os.Environ(), "DATABASE_URL="+st.postgresURL, "CLICKHOUSE_URL="+st.clickhouseURL)
}

// ensurePackages installs the Debian packages of the local databases when they are missing:
// with apt-get as root, else it prints the command to run.
func ensurePackages(ctx context.Context, needPostgres, needClickHouse bool, stdout io.Writer) error {
	var missing []string
	if needPostgres && !havePostgres() {
		missing = append(missing, "postgresql-15", "postgresql-contrib")
	}
	if needClickHouse && !haveClickHouse() {
		missing = append(missing, "clickhouse-server")
	}
	if len(missing) == 0 {
		return nil
	}
	install := "apt-get install -y --no-install-recommends " + strings.Join(missing, " ")
	if os.Geteuid() != 0 {
		return fmt.Errorf("missing packages; install them with:\n  sudo apt-get update && sudo %s\n(or set DATABASE_URL and CLICKHOUSE_URL to servers you run)", install)
	}
	fmt.Fprintf(stdout, "installing %s ...\n", strings.Join(missing, ", "))
	for _, args := range [][]string{{"apt-get", "update"}, append([]string{"apt-get", "install", "-y", "--no-install-recommends"}, missing...)} {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, tail(out, 20))
		}
	}
	return nil
}

func havePostgres() bool {
	for _, v := range []string{"17", "16", "15"} {
		if _, err := os.Stat("/usr/lib/postgresql/" + v + "/bin/postgres"); err == nil {
			return true
		}
	}
	_, err := exec.LookPath("postgres")
	return err == nil
}

func haveClickHouse() bool {
	if _, err := os.Stat("/usr/sbin/clickhouse-server"); err == nil {
		return true
	}
	_, err := exec.LookPath("clickhouse-server")
	return err == nil
}

func tail(b []byte, lines int) string {
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// localExec runs a command with the local databases up, then stops them. `make test` uses it.
func localExec(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("local exec", stderr)
	dataDir := fs.String("data", ".data/test", "folder for the databases")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: stockroom local exec [--data DIR] -- COMMAND [ARGS...]")
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := startLocalStack(ctx, *dataDir, false, stdout, logger)
	if err != nil {
		return err
	}
	defer st.stop()
	cmd := exec.CommandContext(ctx, fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, stdout, stderr, st.env()
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exitError(exit.ExitCode())
	}
	return err
}

// Demo organization of `make run`.
const (
	demoOrganization = "demo"
	demoCredits      = 1_000_000
)

// localRun is `make run`: databases, migrations, a demo key, the API, and what to do next.
func localRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("local run", stderr)
	dataDir := fs.String("data", ".data", "folder for the databases and run.env")
	configPath := fs.String("config", "", "configuration file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bootLogger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, err := startLocalStack(ctx, *dataDir, true, stdout, bootLogger)
	if err != nil {
		return err
	}
	defer st.stop()

	environ := st.env()
	address := os.Getenv(configs.EnvPrefix + "SERVER__ADDRESS")
	if address == "" {
		if address, err = apiAddress(*dataDir); err != nil {
			return err
		}
		environ = append(environ, configs.EnvPrefix+"SERVER__ADDRESS="+address)
	}
	fleet, err := demoStores(ctx, *dataDir, demoStorePort)
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
		environ = append(environ, configs.EnvPrefix+"USAGE__SPOOL_DIR="+filepath.Join(*dataDir, "usage-spool"))
	}
	cfg, err := configs.Load(*configPath, environ)
	if err != nil {
		return err
	}
	logger := cfg.Logger()
	setGCPercent(cfg.Server.GCPercent, os.LookupEnv)
	s, err := openServices(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer s.close()
	if err := s.migrate(ctx); err != nil {
		return err
	}
	runEnv := filepath.Join(*dataDir, "run.env")
	secret, err := demoKey(ctx, s.access, runEnv)
	if err != nil {
		return err
	}
	eng, err := s.startEngine(ctx)
	if err != nil {
		return err
	}
	defer s.stopEngine(eng)
	api := s.api(eng)
	errc := make(chan error, 1)
	go func() { errc <- api.Listen(ctx, address, cfg.Server.ShutdownTimeout) }()
	if err := waitListening(ctx, address, errc); err != nil {
		return err
	}
	baseURL := "http://" + address
	if err := os.WriteFile(runEnv, []byte(fmt.Sprintf("STOCKROOM_URL=%s\nSTOCKROOM_API_KEY=%s\n", baseURL, secret)), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", runEnv, err)
	}
	fmt.Fprintf(stdout, `
Stockroom is running at %[1]s (Ctrl-C stops it and the databases it started)

  API key (organization %[2]q): %[3]s
  Also in %[4]s for scripts: source it, then use $STOCKROOM_URL and $STOCKROOM_API_KEY.

Try:
  curl -s -H "x-api-key: %[3]s" %[1]s/v2/vendors
  curl -s -H "x-api-key: %[3]s" "%[1]s/v2/usage?period=24h"
  curl -s %[1]s/healthz

Crawl an offline demo store (Shopify-like; JSON-LD at %[8]s, plain HTML at %[9]s), then browse it:
  curl -s -X POST -H "x-api-key: %[3]s" -H "Content-Type: application/json" -d '{"url": "%[7]s"}' %[1]s/v2/crawl
  curl -s -H "x-api-key: %[3]s" %[1]s/v2/crawl/EXECUTION_ID
  curl -s -H "x-api-key: %[3]s" "%[1]s/v2/collections?vendor=%[7]s"
  curl -s -X POST -H "x-api-key: %[3]s" -H "Content-Type: application/json" -d '{"vendor": "%[7]s", "max_products": 20}' %[1]s/v2/extract

Postgres:   %[5]s
ClickHouse: %[6]s
`, baseURL, demoOrganization, secret, runEnv, st.postgresURL, st.clickhouseURL,
		fleet.Get(demostore.Shopify).BaseURL, fleet.Get(demostore.JSONLD).BaseURL, fleet.Get(demostore.HTML).BaseURL)
	return <-errc
}

// demoKey returns the demo organization's key: the one remembered in run.env while it still
// works, else a new one (keys are stored hashed, so an old secret cannot be shown again).
func demoKey(ctx context.Context, svc *access.Service, runEnv string) (string, error) {
	if _, err := svc.EnsureOrganization(ctx, demoOrganization, demoCredits, true); err != nil {
		return "", fmt.Errorf("demo organization: %w", err)
	}
	if secret := readEnvFile(runEnv)["STOCKROOM_API_KEY"]; secret != "" {
		if _, err := svc.Authenticate(ctx, secret); err == nil {
			return secret, nil
		}
	}
	_, secret, err := svc.IssueKey(ctx, demoOrganization, "make run")
	return secret, err
}

func readEnvFile(path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

// apiAddress is 127.0.0.1 on the port an earlier run used when it is free, else 8080, else a
// free one (remembered for next time).
func apiAddress(dataDir string) (string, error) {
	var address string
	err := onRememberedPort(dataDir, "api-port", "8080", "127.0.0.1", func(port string) error {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
		if err != nil {
			return err
		}
		address = l.Addr().String()
		return l.Close()
	})
	if err != nil {
		return "", fmt.Errorf("no free port for the API: %w", err)
	}
	return address, nil
}

// demoStorePort is where `make run` serves its demo stores when no earlier run chose one.
const demoStorePort = "8090"

// demoCatalogs are the demo stores `make run` serves.
var demoCatalogs = []demostore.Options{
	{Kind: demostore.Shopify, Products: 1000},
	{Kind: demostore.JSONLD, Products: 300},
	{Kind: demostore.HTML, Products: 300},
}

// demoStores starts `make run`'s demo stores, each on its loopback address and all on one
// port: an earlier run's when it is free, else preferred, else one found free (remembered
// for next time). A second run then serves the same URLs, and crawling them again
// refreshes what the first run put in the catalog: on new ports every run, a store's
// collections were added to its vendor once more (the vendor is the host, a collection is a
// URL with the port) and the old ones stayed.
func demoStores(ctx context.Context, dataDir, preferred string) (*demostore.Fleet, error) {
	var fleet *demostore.Fleet
	err := onRememberedPort(dataDir, "demo-port", preferred, demostore.DefaultHost(demostore.Shopify), func(port string) error {
		opts := slices.Clone(demoCatalogs)
		for i := range opts {
			opts[i].Addr = net.JoinHostPort(demostore.DefaultHost(opts[i].Kind), port)
		}
		var err error
		fleet, err = demostore.Launch(ctx, opts...)
		return err
	})
	if err != nil {
		if fleet != nil { // started, but its port could not be remembered
			fleet.Stop()
		}
		return nil, err
	}
	return fleet, nil
}

// onRememberedPort calls start with a port until it succeeds: the one remembered in
// dataDir/name by an earlier run, then preferred, then ports free on host at the time
// (three tries, as another program may take one meanwhile). It remembers the port that
// started. A preferred of "0" means none.
func onRememberedPort(dataDir, name, preferred, host string, start func(port string) error) error {
	file := filepath.Join(dataDir, name)
	var candidates []string
	if b, err := os.ReadFile(file); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(b)))
	}
	candidates = append(candidates, preferred, "", "", "") // "": free on host now
	lastErr := errors.New("no port to try")
	for _, port := range candidates {
		if port == "" {
			free, err := freePort(host)
			if err != nil {
				lastErr = err
				continue
			}
			port = free
		}
		if n, err := strconv.Atoi(port); err != nil || n <= 0 {
			continue
		}
		if err := start(port); err != nil {
			lastErr = err
			continue
		}
		return os.WriteFile(file, []byte(port+"\n"), 0o644)
	}
	return lastErr
}

// freePort returns a port nothing listens on at host, as of now.
func freePort(host string) (string, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}

// waitListening waits until address accepts connections or the server fails.
func waitListening(ctx context.Context, address string, errc <-chan error) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-errc:
			return fmt.Errorf("api: %w", err)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if conn, err := net.DialTimeout("tcp", address, 200*time.Millisecond); err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("api did not start listening on %s", address)
}
