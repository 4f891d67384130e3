package clickhouse

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestCloseFlushesQueuedEvents(t *testing.T) {
	conn := newDatabase(t)
	opts := testOptions(t)
	opts.BatchSize, opts.FlushInterval = 100_000, time.Hour // nothing flushes before Close
	r := newRecorderT(t, eventTable{conn: conn}, opts)
	recordAll(r, calls("org-a", "/v2/crawl", 123, time.Now()))
	if got := rawCount(t, conn); got != 0 {
		t.Fatalf("%d rows before Close, want 0", got)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := countsOf(t, NewReader(conn), "org-a", time.Time{}); got["/v2/crawl"] != 123 {
		t.Errorf("after Close: %v, want 123 calls", got)
	}
	st := r.Stats()
	if st.Delivered != 123 || st.Queued != 0 || st.Dropped != 0 {
		t.Errorf("stats after Close: %+v", st)
	}
	r.Record(calls("org-a", "/v2/crawl", 1, time.Now())[0])
	if st := r.Stats(); st.Dropped != 1 {
		t.Errorf("an event recorded after Close must be counted dropped: %+v", st)
	}
}

// lostAck inserts for real and then reports failure, as when the connection drops after
// ClickHouse has written the block but before its answer arrives.
type lostAck struct {
	sink
	remaining atomic.Int32 // inserts still to "lose"
}

func (l *lostAck) insert(ctx context.Context, b *batch) error {
	if err := l.sink.insert(ctx, b); err != nil {
		return err
	}
	if l.remaining.Add(-1) >= 0 {
		return errors.New("connection reset (simulated, after the insert)")
	}
	return nil
}

func TestAmbiguousInsertIsNotCountedTwice(t *testing.T) {
	conn := newDatabase(t)
	faulty := &lostAck{sink: eventTable{conn: conn}}
	faulty.remaining.Store(3)
	r := newRecorderT(t, faulty, testOptions(t))

	recordAll(r, calls("org-a", "/v2/crawl", 2000, time.Now()))
	waitFor(t, 10*time.Second, "all events delivered", func() bool {
		st := r.Stats()
		return st.Delivered == 2000 && st.SpooledBatches == 0
	})
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if faulty.remaining.Load() >= 0 {
		t.Fatalf("the fault was not exercised")
	}
	if got := rawCount(t, conn); got != 2000 {
		t.Errorf("usage_events holds %d rows, want 2000", got)
	}
	if got := countsOf(t, NewReader(conn), "org-a", time.Time{}); got["/v2/crawl"] != 2000 {
		t.Errorf("rollup: %v, want 2000 calls", got)
	}
}

// deadConn is a connection to a port where nothing listens: every insert fails at once.
func deadConn(t *testing.T) sink {
	conn, err := Open(context.Background(), "clickhouse://127.0.0.1:1/stockroom")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return eventTable{conn: conn}
}

func TestSpoolIsBoundedAndDropsAreCounted(t *testing.T) {
	opts := testOptions(t)
	opts.BatchSize = 100
	// Room for two 100-event batches (about 17.5 KB each), not three.
	opts.SpoolMaxBytes = 40_000
	r := newRecorderT(t, deadConn(t), opts)

	for i := range 5 {
		recordAll(r, calls("org-a", "/v2/crawl", 100, time.Now()))
		waitFor(t, 5*time.Second, "batch handled", func() bool {
			st := r.Stats()
			return st.Queued == 0 && int64(st.SpooledEvents)+st.Dropped == int64(100*(i+1))
		})
	}
	st := r.Stats()
	if st.SpooledBytes > opts.SpoolMaxBytes {
		t.Errorf("spool holds %d bytes, bound is %d", st.SpooledBytes, opts.SpoolMaxBytes)
	}
	if st.SpooledEvents != 200 || st.Dropped != 300 || !st.Failing {
		t.Errorf("stats: %+v, want 200 spooled, 300 dropped, failing", st)
	}
	if size := dirSize(t, opts.SpoolDir); size != st.SpooledBytes {
		t.Errorf("files on disk take %d bytes, stats say %d", size, st.SpooledBytes)
	}
}

func dirSize(t *testing.T, dir string) int64 {
	files, err := filepath.Glob(filepath.Join(dir, "*"+spoolExt))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		n += info.Size()
	}
	return n
}

func TestSpoolLeftByAnEarlierRunIsDelivered(t *testing.T) {
	opts := testOptions(t)
	down := newRecorderT(t, deadConn(t), opts)
	recordAll(down, calls("org-a", "/v2/crawl", 1234, time.Now()))
	if err := down.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := down.Stats(); st.SpooledEvents != 1234 || st.Dropped != 0 {
		t.Fatalf("after a run without ClickHouse: %+v, want 1234 spooled", st)
	}

	// A garbage file among the batches is set aside; the others are delivered.
	if err := os.WriteFile(filepath.Join(opts.SpoolDir, "00000000000000000002-7"+spoolExt), []byte("not a batch"), 0o644); err != nil {
		t.Fatal(err)
	}
	conn := newDatabase(t)
	up := newRecorderT(t, eventTable{conn: conn}, opts)
	waitFor(t, 10*time.Second, "spool delivered", func() bool { return up.Stats().SpooledBatches == 0 })
	if err := up.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := countsOf(t, NewReader(conn), "org-a", time.Time{}); got["/v2/crawl"] != 1234 {
		t.Errorf("rollup: %v, want 1234 calls", got)
	}
	if st := up.Stats(); st.QuarantinedFiles != 1 || st.Delivered != 1234 {
		t.Errorf("stats: %+v, want 1 file quarantined and 1234 delivered", st)
	}
	if _, err := os.Stat(filepath.Join(opts.SpoolDir, quarantineDir, "00000000000000000002-7"+spoolExt)); err != nil {
		t.Errorf("corrupt file not in quarantine: %v", err)
	}
}

func TestRecordNeverBlocksWhenOverwhelmed(t *testing.T) {
	opts := testOptions(t)
	opts.QueueSize, opts.BatchSize, opts.FlushInterval = 10, 10, time.Hour
	r := newRecorderT(t, deadConn(t), opts)
	start := time.Now()
	recordAll(r, calls("org-a", "/v2/crawl", 100_000, time.Now()))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("100,000 Record calls took %v", d)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if int64(st.SpooledEvents)+st.Dropped != 100_000 || st.Dropped == 0 {
		t.Errorf("stats: %+v; every event must be spooled or counted dropped", st)
	}
}

// A server meters few calls most of the time, and flushes every interval all the same: an
// empty flush allocates nothing, and the events after a few get room for about as many,
// not a whole batch's worth.
func TestQuietFlushesAllocateLittle(t *testing.T) {
	opts := testOptions(t)
	opts.FlushInterval = time.Hour // the test flushes by hand
	r := newRecorderT(t, eventTable{}, opts)
	if allocs := testing.AllocsPerRun(100, func() { r.hand(r.take(false), false) }); allocs != 0 {
		t.Errorf("an empty flush allocated %.0f times, want none", allocs)
	}
	recordAll(r, calls("org-a", "/v2/crawl", 3, time.Now()))
	if got := r.take(false); len(got) != 3 {
		t.Fatalf("took %d events, want 3", len(got))
	}
	r.mu.Lock()
	room := cap(r.waiting)
	r.mu.Unlock()
	if room > minWaiting {
		t.Errorf("after a flush of 3 events, room for %d is waiting, want at most %d", room, minWaiting)
	}
}

// heldSink holds its first insert until released; every insert after succeeds. delivered
// says no, so a spooled batch is inserted.
type heldSink struct {
	once     sync.Once
	entered  chan struct{}
	release  chan struct{}
	inserted atomic.Int64
}

func (s *heldSink) insert(_ context.Context, b *batch) error {
	s.once.Do(func() {
		close(s.entered)
		<-s.release
	})
	s.inserted.Add(int64(len(b.Rows)))
	return nil
}

func (s *heldSink) delivered(context.Context, *batch) (bool, error) { return false, nil }

// Batches the collector spools while the delivery loop is busy are delivered once it is
// free, with no further events to wake it.
func TestBatchesSpooledWhileDeliveryIsBusyAreDelivered(t *testing.T) {
	opts := testOptions(t)
	sink := &heldSink{entered: make(chan struct{}), release: make(chan struct{})}
	r := newRecorderT(t, sink, opts)

	recordAll(r, calls("org-a", "/v2/crawl", 500, time.Now()))
	<-sink.entered // the first batch is being inserted
	// Two batches fill the loop's queue; the ones after are spooled.
	for range 4 {
		recordAll(r, calls("org-a", "/v2/crawl", 500, time.Now()))
		time.Sleep(3 * opts.FlushInterval)
	}
	waitFor(t, 5*time.Second, "a batch spooled", func() bool { return r.Stats().SpooledBatches > 0 })
	close(sink.release)
	waitFor(t, 5*time.Second, "every batch delivered", func() bool { return r.Stats().Delivered == 2500 })
	if st := r.Stats(); st.SpooledBatches != 0 || sink.inserted.Load() != 2500 {
		t.Fatalf("stats %+v, %d inserted; want 2500 delivered and the spool empty", st, sink.inserted.Load())
	}
}

// outageSink refuses inserts until it is up.
type outageSink struct {
	up       atomic.Bool
	inserted atomic.Int64
}

func (s *outageSink) insert(_ context.Context, b *batch) error {
	if !s.up.Load() {
		return errors.New("connection refused")
	}
	s.inserted.Add(int64(len(b.Rows)))
	return nil
}

func (s *outageSink) delivered(context.Context, *batch) (bool, error) { return false, nil }

// After an outage the spool is delivered with no further events to wake the loop: it
// keeps looking at the spool for as long as the spool holds something.
func TestSpoolIsDeliveredAfterAnOutageWithoutNewEvents(t *testing.T) {
	opts := testOptions(t)
	sink := &outageSink{}
	r := newRecorderT(t, sink, opts)
	for range 3 {
		recordAll(r, calls("org-a", "/v2/crawl", 400, time.Now()))
		time.Sleep(3 * opts.FlushInterval)
	}
	waitFor(t, 5*time.Second, "events spooled while down", func() bool {
		st := r.Stats()
		return st.Failing && st.SpooledEvents == 1200
	})
	time.Sleep(5 * opts.RetryMax) // several failed looks
	sink.up.Store(true)
	waitFor(t, 5*time.Second, "the spool delivered", func() bool { return r.Stats().Delivered == 1200 })
	if st := r.Stats(); st.SpooledBatches != 0 || st.Failing || sink.inserted.Load() != 1200 {
		t.Fatalf("stats %+v, %d inserted; want 1200 delivered, the spool empty, not failing", st, sink.inserted.Load())
	}
}
