package devstack

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/stockroom/stockroom/storage/localdb"
)

// databases is the Postgres and ClickHouse a local command started, or found configured.
type databases struct {
	postgresURL, clickhouseURL string
	started                    []*localdb.Server
	logger                     *slog.Logger
}

// startDatabases starts Postgres and ClickHouse under dataDir unless DATABASE_URL /
// CLICKHOUSE_URL point elsewhere, installing missing packages first when it can.
func startDatabases(ctx context.Context, dataDir string, durable bool, stdout io.Writer, logger *slog.Logger) (*databases, error) {
	db := &databases{postgresURL: os.Getenv("DATABASE_URL"), clickhouseURL: os.Getenv("CLICKHOUSE_URL"), logger: logger}
	if err := ensurePackages(ctx, db.postgresURL == "", db.clickhouseURL == "", stdout); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	if db.postgresURL == "" {
		pg, err := localdb.StartPostgres(startCtx, filepath.Join(dataDir, "postgres"), localdb.PostgresOptions{Durable: durable}, logger)
		if err != nil {
			return nil, err
		}
		db.started = append(db.started, pg)
		db.postgresURL = pg.URL
	}
	if db.clickhouseURL == "" {
		ch, err := localdb.StartClickHouse(startCtx, filepath.Join(dataDir, "clickhouse"), localdb.ClickHouseOptions{}, logger)
		if err != nil {
			db.stop()
			return nil, err
		}
		db.started = append(db.started, ch)
		db.clickhouseURL = ch.URL
	}
	return db, nil
}

// stop stops the databases it started, the last started first.
func (db *databases) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i := len(db.started) - 1; i >= 0; i-- {
		if err := db.started[i].Stop(ctx); err != nil {
			db.logger.Error("stop local database", "err", err)
		}
	}
}

// env is the environment that points a child process at the databases.
func (db *databases) env() []string {
	return append(os.Environ(), "DATABASE_URL="+db.postgresURL, "CLICKHOUSE_URL="+db.clickhouseURL)
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
	return aptInstall(ctx, missing, "set DATABASE_URL and CLICKHOUSE_URL to servers you run", stdout)
}

// aptInstall installs the Debian packages missing with apt-get as root, saying so on
// stdout; as another user it returns the command to run, and otherwise what to do.
func aptInstall(ctx context.Context, missing []string, otherwise string, stdout io.Writer) error {
	install := "apt-get install -y --no-install-recommends " + strings.Join(missing, " ")
	if os.Geteuid() != 0 {
		return fmt.Errorf("missing packages; install them with:\n  sudo apt-get update && sudo %s\n(or %s)", install, otherwise)
	}
	fmt.Fprintf(stdout, "installing %s ...\n", strings.Join(missing, ", "))
	for _, args := range [][]string{{"apt-get", "update"}, append([]string{"apt-get", "install", "-y", "--no-install-recommends"}, missing...)} {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, lastLines(out, 20))
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

// lastLines is the last n lines of b.
func lastLines(b []byte, n int) string {
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return strings.Join(all, "\n")
}
