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

// RefuseJobs makes every insert of a job into River's table fail, as a job queue that
// refuses work would, until the returned function is called.
func RefuseJobs(tb testing.TB, pool *pgxpool.Pool) (accept func()) {
	tb.Helper()
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `
		CREATE FUNCTION refuse_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'the job queue refuses jobs'; END $$;
		CREATE TRIGGER refuse_jobs BEFORE INSERT ON river_job FOR EACH ROW EXECUTE FUNCTION refuse_jobs()`); err != nil {
		tb.Fatal(err)
	}
	return func() {
		if _, err := pool.Exec(ctx, `DROP TRIGGER refuse_jobs ON river_job; DROP FUNCTION refuse_jobs()`); err != nil {
			tb.Fatal(err)
		}
	}
}
