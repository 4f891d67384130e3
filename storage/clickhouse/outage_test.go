package clickhouse

import (
	"context"
	"testing"
	"time"

	"github.com/stockroom/stockroom/storage/localdb"
)

// stop ends srv, killing it when it takes more than a second: 18.16 waits about ten
// seconds for idle client connections, and a crash is as good an outage as a shutdown.
func stop(srv *localdb.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = srv.Stop(ctx)
}

// TestClickHouseOutage stops ClickHouse mid-run and starts it again on the same data.
// It runs a private server: the shared one serves other packages' tests in parallel.
func TestClickHouseOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and stops a ClickHouse server")
	}
	ctx := context.Background()
	dir := t.TempDir()
	start := func() *localdb.Server {
		srv, err := localdb.StartClickHouse(ctx, dir, localdb.ClickHouseOptions{}, quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stop(srv) })
		return srv
	}
	srv := start()
	conn := openMigrated(t, srv.URL)
	opts := testOptions(t)
	opts.InsertTimeout = 2 * time.Second
	r := newRecorderT(t, eventTable{conn: conn}, opts)

	recordAll(r, calls("org-a", "/v2/crawl", 1000, time.Now()))
	waitFor(t, 10*time.Second, "delivery while up", func() bool { return r.Stats().Delivered == 1000 })

	stop(srv)
	for range 3 { // several flushes, so several spool files to deliver in order
		recordAll(r, calls("org-a", "/v2/extract", 500, time.Now()))
		time.Sleep(3 * opts.FlushInterval)
	}
	waitFor(t, 10*time.Second, "events spooled while down", func() bool {
		st := r.Stats()
		return st.Queued == 0 && st.SpooledEvents == 1500
	})
	if st := r.Stats(); !st.Failing || st.Dropped != 0 || st.SpooledBatches < 3 {
		t.Fatalf("while down: %+v", st)
	}

	start() // same folder: same data, same port
	recordAll(r, calls("org-a", "/v2/vendors", 250, time.Now()))
	waitFor(t, 30*time.Second, "spool delivered after restart", func() bool {
		st := r.Stats()
		return st.Delivered == 2750 && st.SpooledBatches == 0 && st.Queued == 0
	})
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Failing || st.Dropped != 0 {
		t.Errorf("after recovery: %+v", st)
	}
	want := map[string]int64{"/v2/crawl": 1000, "/v2/extract": 1500, "/v2/vendors": 250}
	got := countsOf(t, NewReader(conn), "org-a", time.Time{})
	for path, n := range want {
		if got[path] != n {
			t.Errorf("%s: %d calls, want %d (all: %v)", path, got[path], n, got)
		}
	}
	if n := rawCount(t, conn); n != 2750 {
		t.Errorf("usage_events holds %d rows, want 2750", n)
	}
}
