// Package storagetest gives tests real Postgres and ClickHouse databases.
//
// A test package calls Main from its TestMain. When DATABASE_URL and CLICKHOUSE_URL are set
// (as `make test` sets them) their servers are used; otherwise Main starts private servers
// with storage/localdb, the way `make run` does, and stops them when the tests end. Every
// NewPostgres or NewClickHouse call gets a database of its own, dropped at the end of the test.
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/jackc/pgx/v5"

	"github.com/stockroom/stockroom/storage/localdb"
)

// servers holds the base URLs for this test binary; set once by Main before any test runs.
var servers struct {
	postgres   string
	clickhouse string
}

// Main starts (or finds) the database servers, runs the tests and stops what it started.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	servers.postgres, servers.clickhouse = os.Getenv("DATABASE_URL"), os.Getenv("CLICKHOUSE_URL")

	var started []*localdb.Server
	defer func() {
		for _, s := range started {
			if err := s.Stop(context.Background()); err != nil {
				logger.Error("stop test database", "err", err)
			}
		}
	}()
	if servers.postgres == "" || servers.clickhouse == "" {
		dir, err := os.MkdirTemp("", "stockroom-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "storagetest:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		// As root, Postgres runs as the postgres user, which must be able to enter the folder.
		if err := os.Chmod(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "storagetest:", err)
			return 1
		}
		if servers.postgres == "" {
			pg, err := localdb.StartPostgres(ctx, filepath.Join(dir, "postgres"), localdb.PostgresOptions{}, logger)
			if err != nil {
				fmt.Fprintln(os.Stderr, "storagetest: start postgres:", err)
				return 1
			}
			started = append(started, pg)
			servers.postgres = pg.URL
		}
		if servers.clickhouse == "" {
			ch, err := localdb.StartClickHouse(ctx, filepath.Join(dir, "clickhouse"), localdb.ClickHouseOptions{}, logger)
			if err != nil {
				fmt.Fprintln(os.Stderr, "storagetest: start clickhouse:", err)
				return 1
			}
			started = append(started, ch)
			servers.clickhouse = ch.URL
		}
	}
	return m.Run()
}

func randomName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// withDatabase returns rawURL with its path (the database name) replaced.
func withDatabase(rawURL, database string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("storagetest: parse %q: %w", rawURL, err)
	}
	u.Path = "/" + database
	return u.String(), nil
}

// NewPostgres creates an empty Postgres database for t and returns its URL.
func NewPostgres(t testing.TB) string {
	t.Helper()
	databaseURL, drop, err := CreatePostgres(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return databaseURL
}

// NewClickHouse creates an empty ClickHouse database for t and returns its URL.
func NewClickHouse(t testing.TB) string {
	t.Helper()
	databaseURL, drop, err := CreateClickHouse(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return databaseURL
}

// CreatePostgres creates an empty Postgres database and returns its URL and a function
// that drops it. It is NewPostgres for code that has no testing.TB, such as an Example.
func CreatePostgres(ctx context.Context) (databaseURL string, drop func(), err error) {
	if servers.postgres == "" {
		return "", nil, errors.New("storagetest: call storagetest.Main from TestMain")
	}
	name := randomName("test_")
	admin, err := pgx.Connect(ctx, servers.postgres)
	if err != nil {
		return "", nil, fmt.Errorf("storagetest: connect postgres: %w", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("storagetest: create database: %w", err)
	}
	drop = func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, servers.postgres)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	if databaseURL, err = withDatabase(servers.postgres, name); err != nil {
		drop()
		return "", nil, err
	}
	return databaseURL, drop, nil
}

// CreateClickHouse creates an empty ClickHouse database and returns its URL and a function
// that drops it. It is NewClickHouse for code that has no testing.TB, such as an Example.
func CreateClickHouse(ctx context.Context) (databaseURL string, drop func(), err error) {
	if servers.clickhouse == "" {
		return "", nil, errors.New("storagetest: call storagetest.Main from TestMain")
	}
	name := randomName("test_")
	opts, err := clickhouse.ParseDSN(servers.clickhouse)
	if err != nil {
		return "", nil, fmt.Errorf("storagetest: parse clickhouse url: %w", err)
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		return "", nil, fmt.Errorf("storagetest: connect clickhouse: %w", err)
	}
	defer conn.Close()
	if err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("storagetest: create clickhouse database: %w", err)
	}
	drop = func() {
		conn, err := clickhouse.Open(opts)
		if err != nil {
			return
		}
		defer conn.Close()
		_ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name)
	}
	if databaseURL, err = withDatabase(servers.clickhouse, name); err != nil {
		drop()
		return "", nil, err
	}
	return databaseURL, drop, nil
}

// ClickHouseServer returns the base ClickHouse URL, for tests that stop and start it.
func ClickHouseServer() string { return servers.clickhouse }

// PostgresServer returns the base Postgres URL.
func PostgresServer() string { return servers.postgres }
