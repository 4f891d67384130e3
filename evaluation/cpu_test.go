package evaluation

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/storage/storagetest"
)

// cpuSpent returns the CPU time this process and the Postgres backends serving pool's
// database have spent so far: the benchmarks' CPU per search, both sides, however busy the
// machine is otherwise. The backends' times are read from /proc, so Postgres must run on
// this machine (`stockroom local exec` runs it so); ok is false when they cannot be read.
func cpuSpent(ctx context.Context, pool *pgxpool.Pool) (self, postgres time.Duration, ok bool) {
	self = storagetest.ProcessCPU()
	rows, err := pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return self, 0, false
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return self, 0, false
	}
	for _, pid := range pids {
		st, err := storagetest.ReadProcStat(int(pid))
		if err != nil {
			return self, 0, false
		}
		postgres += st.CPU
	}
	return self, postgres, true
}
