package clickhouse_test

import (
	"context"
	"log/slog"
	"time"

	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/storage/clickhouse"
)

// The wiring a server does at start-up and shutdown. (Not run: it needs a ClickHouse; the
// package's tests cover the same path against a real one.)
func Example() {
	ctx := context.Background()
	conn, err := clickhouse.Open(ctx, "clickhouse://127.0.0.1:9000/stockroom")
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	if err := clickhouse.Migrate(ctx, conn); err != nil {
		panic(err)
	}
	rec, err := clickhouse.NewRecorder(conn, clickhouse.RecorderOptions{
		SpoolDir:      "/var/lib/stockroom/usage-spool",
		SpoolMaxBytes: 512 << 20,
		Logger:        slog.Default(),
	})
	if err != nil {
		panic(err)
	}
	var recorder usage.Recorder = rec // what the request path holds
	recorder.Record(usage.Event{Time: time.Now(), OrganizationID: "org-1", Path: "/v2/usage", Status: 200})

	service := usage.NewService(clickhouse.NewReader(conn)) // what the usage endpoints hold
	_ = service

	shutdown, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := rec.Close(shutdown); err != nil {
		slog.Error("usage recorder", "err", err, "stats", rec.Stats())
	}
}
