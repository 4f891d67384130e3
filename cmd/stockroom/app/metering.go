package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/storage/clickhouse"
)

// metering is the usage pipeline into ClickHouse: a batching recorder for the request path
// and a reader for the usage endpoints.
type metering struct {
	conn     driver.Conn
	recorder *clickhouse.Recorder
	reader   usage.Reader
}

func openMetering(ctx context.Context, cfg *configs.Config, logger *slog.Logger) (*metering, error) {
	conn, err := clickhouse.Open(ctx, cfg.ClickHouse.URL)
	if err != nil {
		return nil, err
	}
	recorder, err := clickhouse.NewRecorder(conn, clickhouse.RecorderOptions{
		SpoolDir:      cfg.Usage.SpoolDir,
		SpoolMaxBytes: cfg.Usage.SpoolMaxBytes,
		BatchSize:     cfg.Usage.BatchSize,
		FlushInterval: cfg.Usage.FlushInterval,
		QueueSize:     cfg.Usage.Buffer,
		Logger:        logger,
	})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("usage recorder: %w", err)
	}
	return &metering{conn: conn, recorder: recorder, reader: clickhouse.NewReader(conn)}, nil
}

func (m *metering) migrate(ctx context.Context) error { return clickhouse.Migrate(ctx, m.conn) }

func (m *metering) ping(ctx context.Context) error { return clickhouse.Ping(ctx, m.conn) }

func (m *metering) stats() map[string]any { return map[string]any{"usage": m.recorder.Stats()} }

// close flushes what is queued (to ClickHouse, or to the spool) and disconnects.
func (m *metering) close(ctx context.Context) error {
	err := m.recorder.Close(ctx)
	if cerr := m.conn.Close(); err == nil {
		err = cerr
	}
	return err
}
