package clickhouse

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/usage"
)

// BenchmarkRecorder measures the sustained rate at which the recorder gets events into
// ClickHouse with its default options (10,000-event batches): each op records 100,000
// events and waits until all are inserted.
//
//	go test -run '^$' -bench BenchmarkRecorder -benchtime 10x ./storage/clickhouse/
func BenchmarkRecorder(b *testing.B) {
	const perOp = 100_000
	conn := newDatabase(b)
	r, err := NewRecorder(conn, RecorderOptions{SpoolDir: b.TempDir(), Logger: quietLogger()})
	if err != nil {
		b.Fatal(err)
	}
	events := make([]usage.Event, 1000)
	for i := range events {
		events[i] = usage.Event{
			Time:           time.Now(),
			OrganizationID: fmt.Sprintf("org-%d", i%20),
			KeyID:          fmt.Sprintf("key-%d", i%50),
			Method:         "GET",
			Path:           fmt.Sprintf("/v2/endpoint-%d", i%30),
			Status:         200,
			Latency:        time.Duration(i) * time.Microsecond,
			Credits:        1,
			RequestID:      fmt.Sprintf("req-%d", i),
		}
	}
	// Record never blocks, so a producer faster than ClickHouse would only measure the
	// spool; the producer here yields while the queue is more than half full.
	limit := int64(r.opts.QueueSize / 2)
	var sent int64
	start := time.Now()
	for b.Loop() {
		for i := range perOp {
			for r.queued.Load() > limit {
				time.Sleep(50 * time.Microsecond)
			}
			e := events[i%len(events)]
			e.Time = time.Now()
			r.Record(e)
		}
		sent += perOp
	}
	// Close delivers the rest at once, so the figure is the sustained rate, not a wait for
	// the next flush tick.
	if err := r.Close(context.Background()); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	if st := r.Stats(); st.Dropped != 0 || st.SpooledEvents != 0 || st.Delivered != sent {
		b.Fatalf("benchmark spilled or lost events: sent %d, %+v", sent, st)
	}
	b.ReportMetric(float64(sent)/elapsed.Seconds(), "events/s")
}

// BenchmarkCallsByPath measures /v2/usage?period=90d for an organization with 10,000,000
// events spread over 100 days (40 paths, 2 methods, 4 statuses), seeded with one
// INSERT ... SELECT through the materialized view.
//
//	go test -run '^$' -bench BenchmarkCallsByPath -benchtime 50x ./storage/clickhouse/
func BenchmarkCallsByPath(b *testing.B) {
	const events = 10_000_000
	const reportPage = 20 // the usage report's default page size
	ctx := context.Background()
	conn := newDatabase(b)
	now := time.Now()
	seedStart := time.Now()
	// INSERT ... SELECT through Exec works on 18.16; only INSERT ... VALUES hangs. The
	// server is silent until it is done, so the read timeout is lifted by a deadline.
	seedCtx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	err := conn.Exec(seedCtx, fmt.Sprintf(`INSERT INTO usage_events
		(time, organization_id, key_id, method, path, status, latency_us, credits, request_id, batch_id)
		SELECT
			toDateTime(%d - intDiv(number * 864, 1000)),
			'org-bench',
			concat('key-', toString(number %% 7)),
			if(number %% 3 = 0, 'POST', 'GET'),
			concat('/v2/endpoint-', toString(cityHash64(number) %% 40)),
			multiIf(number %% 50 = 0, 500, number %% 20 = 0, 429, number %% 7 = 0, 404, 200),
			toUInt32(1000 + cityHash64(number) %% 200000),
			1,
			toString(number),
			'seed'
		FROM system.numbers LIMIT %d`, now.Unix(), events))
	if err != nil {
		b.Fatal(err)
	}
	reader := NewReader(conn)
	all, _, err := reader.CallsByPath(ctx, "org-bench", time.Time{}, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	var total int64
	for _, pc := range all {
		total += pc.TotalCalls
	}
	if total != events {
		b.Fatalf("rollup counts %d calls, want %d", total, events)
	}
	var hourly uint64
	if err := conn.QueryRow(ctx, "SELECT count() FROM usage_hourly").Scan(&hourly); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d events in %v; usage_hourly holds %d rows", events, time.Since(seedStart).Round(time.Millisecond), hourly)

	since := usage.Quarter.Since(now)
	for b.Loop() {
		items, paths, err := reader.CallsByPath(ctx, "org-bench", since, 0, reportPage)
		if err != nil {
			b.Fatal(err)
		}
		if paths != 40 || len(items) != reportPage {
			b.Fatalf("got %d items of %d paths", len(items), paths)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}
