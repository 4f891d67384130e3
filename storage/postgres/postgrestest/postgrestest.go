// Package postgrestest gives tests a migrated database of their own.
package postgrestest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// Migrated opens a pool on a fresh database (storagetest.NewPostgres) with every migration
// applied; the pool closes when the test ends. The test's package runs storagetest.Main.
func Migrated(tb testing.TB, opts postgres.PoolOptions) *pgxpool.Pool {
	tb.Helper()
	ctx := context.Background()
	pool, err := postgres.Open(ctx, storagetest.NewPostgres(tb), opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	if err := postgres.Migrate(ctx, pool); err != nil {
		tb.Fatal(err)
	}
	return pool
}
