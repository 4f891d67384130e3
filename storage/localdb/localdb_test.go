package localdb

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/jackc/pgx/v5"
)

func TestServersStartReuseTheirPortAndStop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real database servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		// The postgres user must be able to reach the cluster folder.
		for _, d := range []string{dir, filepath.Dir(dir)} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}

	pg, err := StartPostgres(ctx, dir+"/pg", PostgresOptions{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("postgres query: %v %d", err, one)
	}
	conn.Close(ctx)
	firstURL := pg.URL
	if err := pg.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	pg, err = StartPostgres(ctx, dir+"/pg", PostgresOptions{}, logger)
	if err != nil {
		t.Fatalf("second start on the same folder: %v", err)
	}
	if pg.URL != firstURL {
		t.Errorf("second start URL %q, want the first one %q", pg.URL, firstURL)
	}
	if err := pg.Stop(ctx); err != nil {
		t.Fatal(err)
	}

	ch, err := StartClickHouse(ctx, dir+"/ch", ClickHouseOptions{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := clickhouse.ParseDSN(ch.URL)
	if err != nil {
		t.Fatal(err)
	}
	chConn, err := clickhouse.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := chConn.Ping(ctx); err != nil {
		t.Fatalf("clickhouse ping: %v", err)
	}
	chConn.Close()
	if err := ch.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}
