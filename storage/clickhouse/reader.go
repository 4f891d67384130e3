package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/usage"
)

// Reader answers usage questions from the hourly rollup. It implements usage.Reader.
type Reader struct {
	conn driver.Conn
}

var _ usage.Reader = (*Reader)(nil)

// NewReader returns a Reader over conn.
func NewReader(conn driver.Conn) *Reader {
	return &Reader{conn: conn}
}

// CallsByPath counts an organization's calls per path since a time, most called first,
// then by path, and returns the window [offset, offset+limit) with the number of paths.
//
// Periods are hour-aligned: since is rounded down to the start of its hour (UTC), because
// the rollup keeps hours. A 24h report may therefore include up to 59 minutes more than 24
// hours. The zero time means all time.
//
// All paths are fetched and the window is cut here: paths are route templates, a few
// hundred at most, so one small query gives the page and the total from the same snapshot.
func (r *Reader) CallsByPath(ctx context.Context, organizationID string, since time.Time, offset, limit int) ([]usage.PathCount, int, error) {
	query := "SELECT path, sum(calls) AS total FROM usage_hourly WHERE organization_id = ?"
	args := []any{organizationID}
	if !since.IsZero() {
		query += " AND hour >= toDateTime(?)"
		args = append(args, hourStart(since).Unix())
	}
	query += " GROUP BY path ORDER BY total DESC, path"

	rows, err := r.conn.Query(ctx, query, args...)
	if err != nil {
		return nil, 0, unreachable(fmt.Errorf("usage calls by path: %w", err))
	}
	defer rows.Close()
	var all []usage.PathCount
	for rows.Next() {
		var (
			path  string
			total uint64
		)
		if err := rows.Scan(&path, &total); err != nil {
			return nil, 0, fmt.Errorf("usage calls by path: scan: %w", err)
		}
		all = append(all, usage.PathCount{Path: path, TotalCalls: int64(total)})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, unreachable(fmt.Errorf("usage calls by path: %w", err))
	}
	return window(all, offset, limit), len(all), nil
}

// unreachable marks err, a failed read, as ClickHouse being unavailable (a 503 the client
// may retry), unless ClickHouse itself answered it: an exception is a fault of the query,
// and a canceled context the caller's.
func unreachable(err error) error {
	var exception *clickhouse.Exception
	if errors.As(err, &exception) || errors.Is(err, context.Canceled) {
		return err
	}
	return &failure.Error{Kind: failure.Unavailable, Message: "usage reporting is unavailable: ClickHouse cannot be reached, retry shortly", Cause: err}
}

// hourStart is t rounded down to its hour in UTC (time.Truncate works on absolute time,
// so it is right for every zone with whole-hour offsets from UTC; UTC is what we store).
func hourStart(t time.Time) time.Time {
	return t.UTC().Truncate(time.Hour)
}

// window returns items[offset:offset+limit], clamped; a limit of 0 means no limit.
func window[T any](items []T, offset, limit int) []T {
	if offset < 0 {
		offset = 0
	}
	if offset >= len(items) {
		return []T{}
	}
	items = items[offset:]
	if limit > 0 && limit < len(items) {
		items = items[:limit]
	}
	return items
}

// ActivityByPath reports an organization's calls, errors and 95th-percentile latency per
// path since a time (hour-aligned as in CallsByPath), most called first, then by path, and
// each path's calls per day (UTC).
//
// Two queries over the rollup: the percentile must merge the digests of the whole period,
// which the per-day grouping cannot give.
func (r *Reader) ActivityByPath(ctx context.Context, organizationID string, since time.Time) ([]usage.PathActivity, error) {
	where := " FROM usage_hourly WHERE organization_id = ?"
	args := []any{organizationID}
	if !since.IsZero() {
		where += " AND hour >= toDateTime(?)"
		args = append(args, hourStart(since).Unix())
	}
	paths, err := r.conn.Query(ctx, "SELECT path, sum(calls) AS total, sum(errors), toFloat64(quantileTDigestMerge(0.95)(latency_us_digest))"+
		where+" GROUP BY path ORDER BY total DESC, path", args...)
	if err != nil {
		return nil, unreachable(fmt.Errorf("usage activity by path: %w", err))
	}
	defer paths.Close()
	var all []usage.PathActivity
	index := map[string]int{}
	for paths.Next() {
		var (
			path           string
			calls, errors  uint64
			p95Microsecond float64
		)
		if err := paths.Scan(&path, &calls, &errors, &p95Microsecond); err != nil {
			return nil, fmt.Errorf("usage activity by path: scan: %w", err)
		}
		index[path] = len(all)
		all = append(all, usage.PathActivity{
			Path: path, Calls: int64(calls), Errors: int64(errors),
			P95Latency: time.Duration(p95Microsecond * float64(time.Microsecond)), Days: []usage.DayCount{},
		})
	}
	if err := paths.Err(); err != nil {
		return nil, unreachable(fmt.Errorf("usage activity by path: %w", err))
	}

	days, err := r.conn.Query(ctx, "SELECT path, toString(toDate(hour)) AS day, sum(calls), sum(errors)"+
		where+" GROUP BY path, day ORDER BY path, day", args...)
	if err != nil {
		return nil, unreachable(fmt.Errorf("usage activity per day: %w", err))
	}
	defer days.Close()
	for days.Next() {
		var (
			path, day     string
			calls, errors uint64
		)
		if err := days.Scan(&path, &day, &calls, &errors); err != nil {
			return nil, fmt.Errorf("usage activity per day: scan: %w", err)
		}
		// A path first seen between the two queries is left out of the days, as it is
		// out of the totals.
		if i, ok := index[path]; ok {
			all[i].Days = append(all[i].Days, usage.DayCount{Date: day, Calls: int64(calls), Errors: int64(errors)})
		}
	}
	if err := days.Err(); err != nil {
		return nil, unreachable(fmt.Errorf("usage activity per day: %w", err))
	}
	if all == nil {
		all = []usage.PathActivity{}
	}
	return all, nil
}
