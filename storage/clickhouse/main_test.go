package clickhouse

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// newDatabase returns a connection to a fresh, migrated ClickHouse database.
func newDatabase(t testing.TB) driver.Conn {
	t.Helper()
	return openMigrated(t, storagetest.NewClickHouse(t))
}

func openMigrated(t testing.TB, url string) driver.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := Migrate(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return conn
}

// testOptions flush fast and retry fast, so that tests take milliseconds, not seconds.
func testOptions(t testing.TB) RecorderOptions {
	return RecorderOptions{
		SpoolDir:      t.TempDir(),
		BatchSize:     500,
		QueueSize:     20_000,
		FlushInterval: 20 * time.Millisecond,
		InsertTimeout: 5 * time.Second,
		RetryMin:      20 * time.Millisecond,
		RetryMax:      200 * time.Millisecond,
		Logger:        quietLogger(),
	}
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func newRecorderT(t testing.TB, s sink, opts RecorderOptions) *Recorder {
	t.Helper()
	r, err := newRecorder(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close(context.Background()) })
	return r
}

// calls returns n events of one organization and path, at time at.
func calls(org, path string, n int, at time.Time) []usage.Event {
	events := make([]usage.Event, n)
	for i := range events {
		events[i] = usage.Event{
			Time: at, OrganizationID: org, KeyID: "key-1", Method: "GET", Path: path,
			Status: 200, Latency: 3 * time.Millisecond, Credits: 1, RequestID: fmt.Sprintf("req-%d", i),
		}
	}
	return events
}

func recordAll(r *Recorder, events []usage.Event) {
	for _, e := range events {
		r.Record(e)
	}
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// countsOf returns every path's count for org since since, as a map.
func countsOf(t testing.TB, reader *Reader, org string, since time.Time) map[string]int64 {
	t.Helper()
	items, total, err := reader.CallsByPath(context.Background(), org, since, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if total != len(items) {
		t.Fatalf("total = %d, items = %d", total, len(items))
	}
	m := make(map[string]int64, len(items))
	for _, it := range items {
		m[it.Path] = it.TotalCalls
	}
	return m
}

// rawCount counts rows in usage_events: the rollup must agree with it.
func rawCount(t testing.TB, conn driver.Conn) uint64 {
	t.Helper()
	var n uint64
	if err := conn.QueryRow(context.Background(), "SELECT count() FROM usage_events").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
