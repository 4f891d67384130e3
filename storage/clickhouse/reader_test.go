package clickhouse

import (
	"context"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/usage"
)

// TestCallsByPath seeds two organizations through the recorder (so through usage_events
// and the materialized view) and reads them back through the rollup.
func TestCallsByPath(t *testing.T) {
	conn := newDatabase(t)
	r := newRecorderT(t, eventTable{conn: conn}, testOptions(t))
	reader := NewReader(conn)
	now := time.Now()

	var events []usage.Event
	events = append(events, calls("org-a", "/v2/crawl", 1200, now.Add(-1*time.Hour))...)
	events = append(events, calls("org-a", "/v2/crawl", 300, now.Add(-3*24*time.Hour))...)
	events = append(events, calls("org-a", "/v2/extract", 700, now.Add(-2*time.Hour))...)
	events = append(events, calls("org-a", "/v2/usage", 700, now.Add(-20*24*time.Hour))...)
	events = append(events, calls("org-a", "/v1/crawl", 5, now.Add(-400*24*time.Hour))...)
	events = append(events, calls("org-a", "/v2/vendors", 700, now.Add(-5*time.Hour))...)
	events = append(events, calls("org-b", "/v2/secret", 999, now.Add(-1*time.Hour))...)
	recordAll(r, events)
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := rawCount(t, conn); got != uint64(len(events)) {
		t.Fatalf("usage_events holds %d rows, want %d", got, len(events))
	}

	t.Run("periods count exactly what falls inside them", func(t *testing.T) {
		cases := []struct {
			period usage.Period
			want   map[string]int64
		}{
			{usage.Day, map[string]int64{"/v2/crawl": 1200, "/v2/extract": 700, "/v2/vendors": 700}},
			{usage.Week, map[string]int64{"/v2/crawl": 1500, "/v2/extract": 700, "/v2/vendors": 700}},
			{usage.Month, map[string]int64{"/v2/crawl": 1500, "/v2/extract": 700, "/v2/vendors": 700, "/v2/usage": 700}},
			{usage.AllTime, map[string]int64{"/v2/crawl": 1500, "/v2/extract": 700, "/v2/vendors": 700, "/v2/usage": 700, "/v1/crawl": 5}},
		}
		for _, c := range cases {
			got := countsOf(t, reader, "org-a", c.period.Since(now))
			if !maps.Equal(got, c.want) {
				t.Errorf("%s: got %v, want %v", c.period, got, c.want)
			}
		}
	})

	t.Run("another organization's calls are never visible", func(t *testing.T) {
		if got := countsOf(t, reader, "org-a", time.Time{}); got["/v2/secret"] != 0 {
			t.Errorf("org-a sees org-b's path: %v", got)
		}
		if got := countsOf(t, reader, "org-b", time.Time{}); !maps.Equal(got, map[string]int64{"/v2/secret": 999}) {
			t.Errorf("org-b: got %v", got)
		}
		if got := countsOf(t, reader, "org-none", time.Time{}); len(got) != 0 {
			t.Errorf("unknown organization: got %v", got)
		}
	})

	t.Run("pages are most called first, ties by path", func(t *testing.T) {
		order := []usage.PathCount{
			{Path: "/v2/crawl", TotalCalls: 1500},
			{Path: "/v2/extract", TotalCalls: 700},
			{Path: "/v2/usage", TotalCalls: 700},
			{Path: "/v2/vendors", TotalCalls: 700},
			{Path: "/v1/crawl", TotalCalls: 5},
		}
		cases := []struct {
			name          string
			offset, limit int
			want          []usage.PathCount
		}{
			{"no limit", 0, 0, order},
			{"first page", 0, 2, order[:2]},
			{"middle page", 2, 2, order[2:4]},
			{"last, short page", 4, 2, order[4:]},
			{"past the end", 10, 2, []usage.PathCount{}},
		}
		for _, c := range cases {
			items, total, err := reader.CallsByPath(context.Background(), "org-a", time.Time{}, c.offset, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if total != len(order) {
				t.Errorf("%s: total = %d, want %d", c.name, total, len(order))
			}
			if !reflect.DeepEqual(items, c.want) {
				t.Errorf("%s: got %v, want %v", c.name, items, c.want)
			}
		}
	})
}

func TestPeriodsAreHourAligned(t *testing.T) {
	conn := newDatabase(t)
	r := newRecorderT(t, eventTable{conn: conn}, testOptions(t))
	hour := time.Date(2025, 3, 10, 14, 0, 0, 0, time.UTC)
	recordAll(r, calls("org-a", "/v2/crawl", 3, hour.Add(5*time.Minute)))
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// since is 14:40, after the calls at 14:05; the hour they fall in still counts.
	got := countsOf(t, NewReader(conn), "org-a", hour.Add(40*time.Minute))
	if got["/v2/crawl"] != 3 {
		t.Errorf("got %v, want the 14:00 hour counted", got)
	}
	if got := countsOf(t, NewReader(conn), "org-a", hour.Add(time.Hour)); len(got) != 0 {
		t.Errorf("since the next hour: got %v, want nothing", got)
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	conn := newDatabase(t) // migrated once
	ctx := context.Background()
	if err := Migrate(ctx, conn); err != nil {
		t.Fatal(err)
	}
	var rows uint64
	var version uint32
	if err := conn.QueryRow(ctx, "SELECT count(), max(version) FROM schema_migrations").Scan(&rows, &version); err != nil {
		t.Fatal(err)
	}
	if rows != uint64(len(migrations)) || version != migrations[len(migrations)-1].version {
		t.Errorf("schema_migrations: %d rows, version %d", rows, version)
	}
}

// TestActivityByPath reads calls, errors, the 95th-percentile latency and the calls per
// day back from events recorded through the recorder.
func TestActivityByPath(t *testing.T) {
	conn := newDatabase(t)
	r := newRecorderT(t, eventTable{conn: conn}, testOptions(t))
	reader := NewReader(conn)
	today := time.Now().UTC().Truncate(24 * time.Hour).Add(time.Hour)
	yesterday := today.Add(-24 * time.Hour)

	var events []usage.Event
	// Searches split between yesterday and today, all fast but the slowest tenth, and a
	// few refused: enough to tell the p95 from the mean and to count errors.
	for i := range 100 {
		e := calls("org-a", "/v2/agentic-search", 1, yesterday)[0]
		if i%2 == 0 {
			e.Time = today
		}
		e.Latency = time.Millisecond
		if i >= 90 {
			e.Latency = 50 * time.Millisecond
		}
		if i < 5 {
			e.Status = 429
		}
		events = append(events, e)
	}
	events = append(events, calls("org-a", "/v2/vendors", 3, today)...)
	events = append(events, calls("org-a", "/v2/old", 3, today.Add(-40*24*time.Hour))...)
	events = append(events, calls("org-b", "/v2/secret", 7, today)...)
	recordAll(r, events)
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	got, err := reader.ActivityByPath(context.Background(), "org-a", today.Add(-30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Path != "/v2/agentic-search" || got[1].Path != "/v2/vendors" {
		t.Fatalf("paths: got %+v, want the searches then the vendors, nothing older or of org-b", got)
	}
	search := got[0]
	if search.Calls != 100 || search.Errors != 5 {
		t.Errorf("search: %d calls, %d errors; want 100 and 5", search.Calls, search.Errors)
	}
	if search.P95Latency < 40*time.Millisecond || search.P95Latency > 50*time.Millisecond {
		t.Errorf("search p95 latency = %s, want near 50ms (the slowest tenth)", search.P95Latency)
	}
	wantDays := []usage.DayCount{
		{Date: yesterday.Format(time.DateOnly), Calls: 50, Errors: 2},
		{Date: today.Format(time.DateOnly), Calls: 50, Errors: 3},
	}
	if !reflect.DeepEqual(search.Days, wantDays) {
		t.Errorf("search days: got %+v, want %+v", search.Days, wantDays)
	}
	if vendors := got[1]; vendors.Calls != 3 || vendors.Errors != 0 || len(vendors.Days) != 1 {
		t.Errorf("vendors: got %+v", vendors)
	}

	if none, err := reader.ActivityByPath(context.Background(), "org-none", time.Time{}); err != nil || len(none) != 0 {
		t.Errorf("unknown organization: got %v, %v; want an empty list", none, err)
	}
}
