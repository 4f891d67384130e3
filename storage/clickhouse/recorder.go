package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/stockroom/stockroom/core/usage"
)

// RecorderOptions configure NewRecorder. Only SpoolDir is required.
type RecorderOptions struct {
	// SpoolDir holds batches that could not be inserted, until ClickHouse is back. It is
	// created when missing and must belong to this process alone. Required.
	SpoolDir string
	// SpoolMaxBytes bounds the spool; batches beyond it are dropped, counted and logged.
	// Default (zero): 1 GiB.
	SpoolMaxBytes int64
	// BatchSize is the number of events that triggers a flush. Default (zero): 10,000.
	// At most 1,000,000, so that a batch stays one block (hence one atomic insert).
	BatchSize int
	// FlushInterval is the longest an event waits in memory. Default (zero): 1s.
	FlushInterval time.Duration
	// QueueSize is the most events held in memory before the batcher takes them; an event
	// that finds it full is dropped and counted. Default (zero): 4 × BatchSize.
	QueueSize int
	// InsertTimeout bounds one insert or look-up. Default (zero): 10s.
	InsertTimeout time.Duration
	// RetryMin and RetryMax bound the backoff between attempts to deliver the spool while
	// ClickHouse fails; the delay doubles after each failure. Defaults (zero): 500ms, 30s.
	RetryMin, RetryMax time.Duration
	// Logger receives delivery failures, drops and recoveries. Default (nil): slog.Default().
	Logger *slog.Logger
}

const maxBatchSize = 1_000_000

func (o RecorderOptions) withDefaults() (RecorderOptions, error) {
	if o.SpoolDir == "" {
		return o, errors.New("usage recorder: SpoolDir is required")
	}
	if o.BatchSize < 0 || o.BatchSize > maxBatchSize {
		return o, fmt.Errorf("usage recorder: BatchSize must be between 1 and %d, got %d", maxBatchSize, o.BatchSize)
	}
	if o.SpoolMaxBytes == 0 {
		o.SpoolMaxBytes = 1 << 30
	}
	if o.BatchSize == 0 {
		o.BatchSize = 10_000
	}
	if o.FlushInterval == 0 {
		o.FlushInterval = time.Second
	}
	if o.QueueSize == 0 {
		o.QueueSize = 4 * o.BatchSize
	}
	if o.InsertTimeout == 0 {
		o.InsertTimeout = 10 * time.Second
	}
	if o.RetryMin == 0 {
		o.RetryMin = 500 * time.Millisecond
	}
	if o.RetryMax == 0 {
		o.RetryMax = 30 * time.Second
	}
	if o.RetryMax < o.RetryMin {
		o.RetryMax = o.RetryMin
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// Recorder batches usage events into ClickHouse. It implements usage.Recorder.
type Recorder struct {
	opts   RecorderOptions
	sink   sink
	spool  *spool
	logger *slog.Logger

	batches chan *batch   // collector -> delivery loop
	full    chan struct{} // Record -> collector: another BatchSize events are waiting
	spooled chan struct{} // spoolBatch -> delivery loop: the spool holds a batch
	stop    chan struct{} // closed by Close: flush and finish
	done    chan struct{} // closed when the delivery loop has finished
	// ctx is cancelled when Close's context ends, aborting in-flight inserts (whose batches
	// are then spooled).
	ctx    context.Context
	cancel context.CancelFunc

	// mu guards the events waiting for the collector, and closed: Record appends under it
	// and wakes nobody, so metering a call costs a lock and an append, not a goroutine
	// hand-off per call. Once Close has set closed, the collector's last take holds every
	// accepted event.
	mu      sync.Mutex
	waiting []usage.Event
	closed  bool

	queued    atomic.Int64 // accepted, not yet inserted, spooled or dropped
	delivered atomic.Int64
	// lastLag is the age, in nanoseconds, of the oldest event of the last batch delivered
	// when it was delivered.
	lastLag atomic.Int64
	dropped atomic.Int64
	failing atomic.Bool

	lastDropLog atomic.Int64 // unix nanoseconds
}

var _ usage.Recorder = (*Recorder)(nil)

// NewRecorder starts a recorder writing to conn. Batches left in the spool by an earlier
// run are delivered first. Call Close to stop it.
func NewRecorder(conn driver.Conn, opts RecorderOptions) (*Recorder, error) {
	return newRecorder(eventTable{conn: conn}, opts)
}

func newRecorder(s sink, opts RecorderOptions) (*Recorder, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	sp, err := openSpool(opts.SpoolDir, opts.SpoolMaxBytes, opts.Logger)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Recorder{
		opts:    opts,
		sink:    s,
		spool:   sp,
		logger:  opts.Logger,
		waiting: make([]usage.Event, 0, minWaiting),
		batches: make(chan *batch, 2),
		full:    make(chan struct{}, 1),
		spooled: make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		ctx:     ctx,
		cancel:  cancel,
	}
	if st := sp.stats(); st.batches > 0 {
		r.logger.Info("usage spool holds batches from an earlier run", "batches", st.batches, "events", st.events, "bytes", st.bytes)
	}
	go r.collect()
	go r.deliver()
	return r, nil
}

// Record queues e and returns at once. When QueueSize events are already waiting, e is
// dropped and counted.
func (r *Recorder) Record(e usage.Event) {
	r.mu.Lock()
	if r.closed || len(r.waiting) >= r.opts.QueueSize {
		closed := r.closed
		r.mu.Unlock()
		if closed {
			r.drop(1, "recorder closed")
		} else {
			r.drop(1, "queue full")
		}
		return
	}
	r.waiting = append(r.waiting, e)
	n := len(r.waiting)
	r.mu.Unlock()
	r.queued.Add(1)
	if n%r.opts.BatchSize == 0 {
		select {
		case r.full <- struct{}{}:
		default: // the collector has a wake-up pending already
		}
	}
}

// take hands waiting events to the collector: all of them, or with whole set, only whole
// batches, the rest waiting for the next batch's worth or the next flush. Batches then
// keep BatchSize events, which is what ClickHouse wants, however late the collector wakes.
func (r *Recorder) take(whole bool) []usage.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.waiting)
	if whole {
		n -= n % r.opts.BatchSize
	}
	if n == 0 {
		return nil
	}
	taken := r.waiting[:n:n]
	// The taken events leave with their array. The next ones get an array sized for as
	// many as were just taken: making a whole batch's worth afresh every flush interval,
	// with or without events, cost an idle server real CPU just to clear the memory.
	next := min(max(n, minWaiting), r.opts.BatchSize)
	r.waiting = append(make([]usage.Event, 0, next+len(r.waiting)-n), r.waiting[n:]...)
	return taken
}

// minWaiting is the least room made for the events of the next flush.
const minWaiting = 64

// Close flushes what is queued and waits for it to be inserted or spooled. When ctx ends
// first, in-flight inserts are abandoned and their batches spooled (a batch that was in
// fact inserted is recognised when the spool is delivered). Events recorded after Close
// are dropped.
func (r *Recorder) Close(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		<-r.done
		return nil
	}
	r.closed = true
	r.mu.Unlock()

	stopAbort := context.AfterFunc(ctx, r.cancel)
	defer stopAbort()
	close(r.stop)
	<-r.done
	r.cancel()
	defer r.spool.release()
	st := r.Stats()
	if st.SpooledBatches > 0 {
		r.logger.Warn("usage recorder closed with batches left in the spool; they are delivered on next start",
			"batches", st.SpooledBatches, "events", st.SpooledEvents, "dir", r.opts.SpoolDir)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("close usage recorder: %w", err)
	}
	return nil
}

// Stats is a snapshot of the recorder, for /healthz and logs. Counters are events unless
// named otherwise.
type Stats struct {
	// Queued events are in memory: waiting for the batcher or in a batch in flight.
	Queued int64 `json:"queued"`
	// SpooledBatches, SpooledEvents and SpooledBytes describe the on-disk spool.
	SpooledBatches int   `json:"spooled_batches"`
	SpooledEvents  int   `json:"spooled_events"`
	SpooledBytes   int64 `json:"spooled_bytes"`
	// Delivered events are in ClickHouse (since this recorder started).
	Delivered int64 `json:"delivered"`
	// Dropped events are lost: the spool was full, the queue was full, or they were
	// recorded after Close.
	Dropped int64 `json:"dropped"`
	// QuarantinedFiles are spool files set aside as unreadable (see <SpoolDir>/quarantine).
	QuarantinedFiles int64 `json:"quarantined_files"`
	// Failing is true while the last attempt to reach ClickHouse failed.
	Failing bool `json:"failing"`
	// DeliveryLagSeconds is how old the oldest event of the last batch delivered was when
	// ClickHouse took it (event times are whole seconds); 0 before the first delivery.
	DeliveryLagSeconds float64 `json:"delivery_lag_seconds"`
}

// Stats returns a snapshot of the recorder's counters.
func (r *Recorder) Stats() Stats {
	sp := r.spool.stats()
	return Stats{
		Queued:           r.queued.Load(),
		SpooledBatches:   sp.batches,
		SpooledEvents:    sp.events,
		SpooledBytes:     sp.bytes,
		Delivered:        r.delivered.Load(),
		Dropped:          r.dropped.Load(),
		QuarantinedFiles: sp.quarantined,
		Failing:          r.failing.Load(),

		DeliveryLagSeconds: time.Duration(r.lastLag.Load()).Seconds(),
	}
}

// drop counts n lost events and says so loudly: a dropped event is a call nobody is billed
// for and nobody sees in a report.
// Under overload drops come by the thousand, so the log says it at most once a second.
func (r *Recorder) drop(n int, reason string) {
	total := r.dropped.Add(int64(n))
	now := time.Now().UnixNano()
	last := r.lastDropLog.Load()
	if now-last < int64(time.Second) || !r.lastDropLog.CompareAndSwap(last, now) {
		return
	}
	r.logger.Error("usage events dropped", "events", n, "reason", reason, "dropped_total", total)
}
