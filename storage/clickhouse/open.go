package clickhouse

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// Defaults applied by Open when the URL does not set them (dial_timeout, read_timeout,
// max_open_conns). They are short because nothing waits on ClickHouse for long: the
// recorder spools on failure and the usage endpoints answer within the request's deadline.
const (
	defaultDialTimeout  = 2 * time.Second
	defaultReadTimeout  = 10 * time.Second
	defaultMaxOpenConns = 8
	pingTimeout         = 2 * time.Second
)

// Open returns a connection pool for url, e.g. clickhouse://127.0.0.1:9000/stockroom.
// It does not dial: a server may start while ClickHouse is down, and the recorder spools
// until it is back. Use Ping to find out whether ClickHouse answers.
func Open(ctx context.Context, url string) (driver.Conn, error) {
	opts, err := clickhouse.ParseDSN(url)
	if err != nil {
		return nil, fmt.Errorf("parse clickhouse url: %w", err)
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = defaultDialTimeout
	}
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = defaultReadTimeout
	}
	if opts.MaxOpenConns == 0 {
		opts.MaxOpenConns = defaultMaxOpenConns
	}
	conn, err := clickhouse.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("open clickhouse: %w", err)
	}
	return conn, nil
}

// Ping checks that ClickHouse answers, giving up after two seconds when ctx has no earlier
// deadline, so that a health check never hangs on it.
func Ping(ctx context.Context, conn driver.Conn) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := conn.Ping(ctx); err != nil {
		return fmt.Errorf("ping clickhouse: %w", err)
	}
	return nil
}
