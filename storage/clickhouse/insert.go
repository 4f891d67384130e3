package clickhouse

import (
	"context"
	"fmt"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// sink is where batches go. The recorder sees ClickHouse only through it, which lets tests
// put a fault between the two (an insert that succeeds but reports failure).
type sink interface {
	// insert writes b in one block.
	insert(ctx context.Context, b *batch) error
	// delivered reports whether b is already in usage_events.
	delivered(ctx context.Context, b *batch) (bool, error)
}

// The explicit column list matters: against ClickHouse 18.16 only PrepareBatch with a
// column list works over the native protocol (INSERT ... VALUES through Exec hangs).
const insertEvents = "INSERT INTO usage_events (time, organization_id, key_id, method, path, status, latency_us, credits, request_id, batch_id)"

// eventTable is the sink over usage_events.
type eventTable struct {
	conn driver.Conn
}

// insert sends b column by column, which costs far less per row than Append(row...).
func (t eventTable) insert(ctx context.Context, b *batch) error {
	n := len(b.Rows)
	var (
		times     = make([]time.Time, n)
		orgs      = make([]string, n)
		keys      = make([]string, n)
		methods   = make([]string, n)
		paths     = make([]string, n)
		statuses  = make([]uint16, n)
		latencies = make([]uint32, n)
		credits   = make([]uint32, n)
		requests  = make([]string, n)
		batchIDs  = make([]string, n)
	)
	for i, r := range b.Rows {
		times[i] = r.Time
		orgs[i], keys[i], methods[i], paths[i] = r.OrganizationID, r.KeyID, r.Method, r.Path
		statuses[i], latencies[i], credits[i] = r.Status, r.LatencyUS, r.Credits
		requests[i], batchIDs[i] = r.RequestID, b.ID
	}

	ins, err := t.conn.PrepareBatch(ctx, insertEvents)
	if err != nil {
		return fmt.Errorf("insert usage batch %s: prepare: %w", b.ID, err)
	}
	defer ins.Close()
	columns := []any{times, orgs, keys, methods, paths, statuses, latencies, credits, requests, batchIDs}
	for i, values := range columns {
		if err := ins.Column(i).Append(values); err != nil {
			return fmt.Errorf("insert usage batch %s: column %d: %w", b.ID, i, err)
		}
	}
	if err := ins.Send(); err != nil {
		return fmt.Errorf("insert usage batch %s: %w", b.ID, err)
	}
	return nil
}

// delivered looks b's id up within b's own time and organization range, so that the
// primary key and the day partition keep the search small however large the table is.
func (t eventTable) delivered(ctx context.Context, b *batch) (bool, error) {
	if len(b.Rows) == 0 {
		return true, nil
	}
	minTime, maxTime, minOrg, maxOrg := b.bounds()
	var n uint64
	err := t.conn.QueryRow(ctx, `SELECT count() FROM usage_events
		WHERE organization_id >= ? AND organization_id <= ?
		AND time >= toDateTime(?) AND time <= toDateTime(?)
		AND batch_id = ?`,
		minOrg, maxOrg, minTime.Unix(), maxTime.Unix(), b.ID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("look up usage batch %s: %w", b.ID, err)
	}
	return n > 0, nil
}
