//go:build !linux

package evaluation

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// cpuSpent is measured on Linux only (cpu_linux_test.go).
func cpuSpent(context.Context, *pgxpool.Pool) (self, postgres time.Duration, ok bool) {
	return 0, 0, false
}
