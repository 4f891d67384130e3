package clickhouse

import (
	"math"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/stockroom/stockroom/core/usage"
)

// row is one usage_events row, converted from a usage.Event once, so that what is spooled
// is exactly what is inserted.
type row struct {
	Time           time.Time `json:"time"`
	OrganizationID string    `json:"organization_id"`
	KeyID          string    `json:"key_id"`
	Method         string    `json:"method"`
	Path           string    `json:"path"`
	Status         uint16    `json:"status"`
	LatencyUS      uint32    `json:"latency_us"`
	Credits        uint32    `json:"credits"`
	RequestID      string    `json:"request_id"`
}

// batch is the unit of delivery: inserted in one block, spooled in one file, and
// recognised by its id when delivered twice.
type batch struct {
	ID   string `json:"batch_id"`
	Rows []row  `json:"rows"`
}

func newRow(e usage.Event) row {
	return row{
		Time:           e.Time.UTC().Truncate(time.Second),
		OrganizationID: e.OrganizationID,
		KeyID:          e.KeyID,
		Method:         e.Method,
		Path:           e.Path,
		Status:         uint16(clamp(int64(e.Status), math.MaxUint16)),
		LatencyUS:      uint32(clamp(e.Latency.Microseconds(), math.MaxUint32)),
		Credits:        uint32(clamp(e.Credits, math.MaxUint32)),
		RequestID:      e.RequestID,
	}
}

// clamp keeps v within [0, hi] so that an odd value (a negative latency from a clock step,
// say) is stored as a bound rather than wrapping around.
func clamp(v, hi int64) int64 {
	return max(0, min(v, hi))
}

// batchesByDay turns events into batches, one per UTC day. A batch that spans no day
// boundary lands in a single usage_events partition, hence in a single part, and ClickHouse
// writes a single part atomically: a batch is then either fully present or absent, which
// is what redelivery relies on.
func batchesByDay(events []usage.Event) []*batch {
	if len(events) == 0 {
		return nil
	}
	byDay := make(map[int64]*batch)
	var days []int64
	for _, e := range events {
		r := newRow(e)
		day := r.Time.Unix() / 86400
		b, ok := byDay[day]
		if !ok {
			b = &batch{ID: uuid.NewString()}
			byDay[day] = b
			days = append(days, day)
		}
		b.Rows = append(b.Rows, r)
	}
	sort.Slice(days, func(i, j int) bool { return days[i] < days[j] })
	out := make([]*batch, 0, len(days))
	for _, d := range days {
		out = append(out, byDay[d])
	}
	return out
}

// bounds returns the smallest and largest time and organization id in b, which narrow the
// search for its rows through usage_events' primary key (organization_id, time).
func (b *batch) bounds() (minTime, maxTime time.Time, minOrg, maxOrg string) {
	for i, r := range b.Rows {
		if i == 0 || r.Time.Before(minTime) {
			minTime = r.Time
		}
		if i == 0 || r.Time.After(maxTime) {
			maxTime = r.Time
		}
		if i == 0 || r.OrganizationID < minOrg {
			minOrg = r.OrganizationID
		}
		if i == 0 || r.OrganizationID > maxOrg {
			maxOrg = r.OrganizationID
		}
	}
	return minTime, maxTime, minOrg, maxOrg
}
