package localdb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
)

// PostgresOptions configure StartPostgres. The zero value is usable.
type PostgresOptions struct {
	// BinDir holds initdb and postgres. Default: the first of /usr/lib/postgresql/{17,16,15}/bin
	// that exists, else the directory of `postgres` on PATH.
	BinDir string
	// Database is created when missing. Default "stockroom".
	Database string
	// Durable keeps fsync on. Tests leave it off: a crashed test cluster is thrown away anyway.
	Durable bool
}

const postgresUser = "stockroom"

// StartPostgres initializes (once) and starts a Postgres cluster in dir on a loopback port.
// Postgres refuses to run as root, so as root the cluster belongs to the `postgres` user.
func StartPostgres(ctx context.Context, dir string, opts PostgresOptions, logger *slog.Logger) (*Server, error) {
	if opts.Database == "" {
		opts.Database = "stockroom"
	}
	bin, err := postgresBinDir(opts.BinDir)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	cred, err := postgresCredential()
	if err != nil {
		return nil, err
	}
	dataDir := filepath.Join(dir, "data")
	s := &Server{Name: "postgres", Dir: dir, stopSig: syscall.SIGINT, logger: logger}

	if p := rememberedPort(dir); p > 0 && pidAlive(filepath.Join(dataDir, "postmaster.pid")) {
		s.URL, s.external = postgresURL(p, opts.Database), true
		logger.Info("reusing running postgres", "dir", dir, "port", p)
		return s, s.waitReady(ctx, func(ctx context.Context) error { return ensureDatabase(ctx, p, opts.Database) })
	}

	if _, err := os.Stat(filepath.Join(dataDir, "PG_VERSION")); err != nil {
		if err := initdb(ctx, bin, dataDir, dir, cred); err != nil {
			return nil, err
		}
	}
	p, err := port(dir)
	if err != nil {
		return nil, err
	}
	args := []string{
		"-D", dataDir, "-p", strconv.Itoa(p), "-k", dir,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "max_connections=300",
		"-c", "shared_buffers=256MB",
	}
	if !opts.Durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.CommandContext(context.WithoutCancel(ctx), filepath.Join(bin, "postgres"), args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := s.start(cmd); err != nil {
		return nil, err
	}
	s.URL = postgresURL(p, opts.Database)
	logger.Info("postgres starting", "dir", dir, "port", p)
	if err := s.waitReady(ctx, func(ctx context.Context) error { return ensureDatabase(ctx, p, opts.Database) }); err != nil {
		_ = s.Stop(context.WithoutCancel(ctx))
		return nil, err
	}
	return s, nil
}

func postgresURL(port int, database string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", postgresUser, port, database)
}

// ensureDatabase connects to the maintenance database and creates database when missing.
func ensureDatabase(ctx context.Context, port int, database string) error {
	conn, err := pgx.Connect(ctx, postgresURL(port, "postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", database).Scan(&exists); err != nil {
		return fmt.Errorf("look up database %s: %w", database, err)
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{database}.Sanitize()); err != nil {
		return fmt.Errorf("create database %s: %w", database, err)
	}
	return nil
}

func initdb(ctx context.Context, bin, dataDir, ownerDir string, cred *syscall.Credential) error {
	if cred != nil {
		// The postgres user must own the folder it writes its socket and log into.
		if err := chownTree(ownerDir, int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "initdb"),
		"-D", dataDir, "-U", postgresUser, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb %s: %w\n%s", dataDir, err, out)
	}
	return nil
}

// postgresCredential returns the `postgres` user's identity when running as root, else nil.
func postgresCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, postgres must run as the postgres user, which is missing (install postgresql-15): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func chownTree(dir string, uid, gid int) error {
	return filepath.Walk(dir, func(path string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
}

func postgresBinDir(configured string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	for _, v := range []string{"17", "16", "15"} {
		dir := "/usr/lib/postgresql/" + v + "/bin"
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("postgres server binaries not found (install postgresql-15, or set DATABASE_URL)")
}

// pidAlive reports whether the pid on the first line of pidFile is a running process.
func pidAlive(pidFile string) bool {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 0 {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}
