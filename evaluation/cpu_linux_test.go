package evaluation

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// clockTicks is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux).
const clockTicks = 100

// cpuSpent returns the CPU time this process and the Postgres backends serving pool's
// database have spent so far: the benchmarks' CPU per search, both sides, however busy the
// machine is otherwise. The backends' times are read from /proc, so Postgres must run on
// this machine (`stockroom local exec` runs it so); ok is false when they cannot be read.
func cpuSpent(ctx context.Context, pool *pgxpool.Pool) (self, postgres time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	rows, err := pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return self, 0, false
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return self, 0, false
	}
	var ticks int64
	for _, pid := range pids {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return self, 0, false
		}
		// The fields after the command name, which may hold spaces, start at ") ".
		s := string(raw)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		var user, system int64
		if len(fields) < 13 {
			return self, 0, false
		}
		if _, err := fmt.Sscan(fields[11]+" "+fields[12], &user, &system); err != nil {
			return self, 0, false
		}
		ticks += user + system
	}
	return self, time.Duration(ticks) * time.Second / clockTicks, true
}
