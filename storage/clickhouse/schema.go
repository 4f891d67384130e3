package clickhouse

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// migration is one step of the schema. Every statement must be idempotent (IF NOT EXISTS):
// ClickHouse has no transactional DDL, so a step interrupted half-way is simply run again.
type migration struct {
	version    uint32
	name       string
	statements []string
}

// migrations are applied in order; append, never edit one that has shipped.
//
// The schema keeps to what ClickHouse 18.16 (Debian's) and current releases both accept:
// DateTime rather than DateTime64, no TTL, no LowCardinality, no SimpleAggregateFunction.
var migrations = []migration{
	{
		version: 1,
		name:    "usage events and hourly rollup",
		statements: []string{
			// One row per API call. Partitioned by day so that a day can be dropped (no TTL on
			// 18.16) and so that each recorder batch, which never spans two days, lands in
			// exactly one part and is inserted atomically.
			`CREATE TABLE IF NOT EXISTS usage_events (
				time            DateTime('UTC'),
				organization_id String,
				key_id          String,
				method          String,
				path            String,
				status          UInt16,
				latency_us      UInt32,
				credits         UInt32,
				request_id      String,
				batch_id        String
			) ENGINE = MergeTree
			PARTITION BY toYYYYMMDD(time)
			ORDER BY (organization_id, time)`,
			// The rollup the usage endpoints read: one row per organization, hour and
			// endpoint. SummingMergeTree adds calls, errors, credits and latency sums when
			// parts merge, and merges the t-digest states of the AggregateFunction column.
			// Rows of one key may still be split across parts, so readers always sum().
			`CREATE TABLE IF NOT EXISTS usage_hourly (
				organization_id   String,
				hour              DateTime('UTC'),
				path              String,
				method            String,
				status            UInt16,
				calls             UInt64,
				errors            UInt64,
				credits           UInt64,
				latency_us_sum    UInt64,
				latency_us_digest AggregateFunction(quantileTDigest, UInt32)
			) ENGINE = SummingMergeTree
			PARTITION BY toYYYYMM(hour)
			ORDER BY (organization_id, hour, path, method, status)`,
			// Feeds the rollup from every insert into usage_events. "TO table" keeps the
			// rollup an ordinary table that analysts can query and that can be rebuilt.
			`CREATE MATERIALIZED VIEW IF NOT EXISTS usage_hourly_mv TO usage_hourly AS
			SELECT
				organization_id,
				toStartOfHour(time) AS hour,
				path,
				method,
				status,
				count() AS calls,
				countIf(status >= 400) AS errors,
				sum(credits) AS credits,
				sum(latency_us) AS latency_us_sum,
				quantileTDigestState(latency_us) AS latency_us_digest
			FROM usage_events
			GROUP BY organization_id, hour, path, method, status`,
		},
	},
}

// Migrate brings the usage schema to the newest version. It is safe to run on every start
// and from several processes at once.
//
// goose is not used here (it is for Postgres): its version bookkeeping writes with
// INSERT ... VALUES, which hangs against ClickHouse 18.16 over the native protocol. The
// versions are kept in schema_migrations instead, written with PrepareBatch.
func Migrate(ctx context.Context, conn driver.Conn) error {
	err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    UInt32,
		name       String,
		applied_at DateTime('UTC')
	) ENGINE = MergeTree ORDER BY version`)
	if err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	var current uint32
	if err := conn.QueryRow(ctx, "SELECT max(version) FROM schema_migrations").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	for _, m := range migrations {
		if m.version <= current {
			continue
		}
		for _, stmt := range m.statements {
			if err := conn.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
			}
		}
		if err := recordMigration(ctx, conn, m); err != nil {
			return err
		}
	}
	return nil
}

// recordMigration notes m as applied. Two processes migrating at once may both record it;
// readers take max(version), so a duplicate row is harmless.
func recordMigration(ctx context.Context, conn driver.Conn, m migration) error {
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO schema_migrations (version, name, applied_at)")
	if err != nil {
		return fmt.Errorf("record migration %d: %w", m.version, err)
	}
	defer batch.Close()
	if err := batch.Append(m.version, m.name, time.Now().UTC()); err != nil {
		return fmt.Errorf("record migration %d: %w", m.version, err)
	}
	if err := batch.Send(); err != nil {
		return fmt.Errorf("record migration %d: %w", m.version, err)
	}
	return nil
}
