package clickhouse

import (
	"context"
	"errors"
	"time"

	"github.com/stockroom/stockroom/core/usage"
)

// collect turns waiting events into batches: when BatchSize of them wait, every
// FlushInterval, and once more on Close. It never waits on ClickHouse: a batch the delivery
// loop cannot take at once goes to the spool.
func (r *Recorder) collect() {
	defer close(r.batches)
	tick := time.NewTicker(r.opts.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-r.full:
			r.hand(r.take(true), false)
		case <-tick.C:
			r.hand(r.take(false), false)
		case <-r.stop:
			// Close has set closed under the lock: this take holds every accepted event.
			r.hand(r.take(false), true)
			return
		}
	}
}

// hand passes events, in batches of at most BatchSize, to the delivery loop. Unless wait is
// set (on Close, when the loop is there to drain), a batch the loop cannot take at once is
// spooled instead.
func (r *Recorder) hand(events []usage.Event, wait bool) {
	for len(events) > 0 {
		n := min(len(events), r.opts.BatchSize)
		for _, b := range batchesByDay(events[:n]) {
			if wait {
				r.batches <- b
				continue
			}
			select {
			case r.batches <- b:
			default:
				r.spoolBatch(b)
			}
		}
		events = events[n:]
	}
}

// deliver inserts batches as they come and, while the spool holds anything, delivers it
// oldest first with exponential backoff between failed attempts. It looks at the spool
// only while the spool holds something: each look is a wake-up of an otherwise idle
// server.
func (r *Recorder) deliver() {
	defer close(r.done)
	interval := min(r.opts.RetryMin, 250*time.Millisecond)
	poll := time.NewTimer(interval)
	poll.Stop() // armed below while the spool holds something
	defer poll.Stop()
	polling := false
	backoff := r.opts.RetryMin
	var next time.Time // no attempt on the spool before this

	// attempt delivers the spool when it is due, and updates the backoff.
	attempt := func() {
		if r.spool.empty() || time.Now().Before(next) {
			return
		}
		if err := r.drainSpool(); err != nil {
			r.markFailing(err)
			next = time.Now().Add(backoff)
			backoff = min(2*backoff, r.opts.RetryMax)
			return
		}
		r.markRecovered()
		backoff, next = r.opts.RetryMin, time.Time{}
	}

	for {
		// A batch spooled here or by the collector (which says so on spooled), or left by
		// an earlier run.
		if !polling && !r.spool.empty() {
			poll.Reset(interval)
			polling = true
		}
		select {
		case b, ok := <-r.batches:
			if !ok {
				// Close: one last try at the spool, unless Close's deadline has passed.
				if r.ctx.Err() == nil {
					next = time.Time{}
					attempt()
				}
				return
			}
			// Order matters: while older batches wait in the spool, a new one joins them.
			if !r.spool.empty() || r.failing.Load() {
				r.spoolBatch(b)
				attempt()
				continue
			}
			if err := r.insert(b); err != nil {
				r.markFailing(err)
				r.spoolBatch(b)
				next = time.Now().Add(backoff)
				backoff = min(2*backoff, r.opts.RetryMax)
			}
		case <-r.spooled:
		case <-poll.C:
			polling = false
			attempt()
		}
	}
}

// insert writes b and counts it delivered.
func (r *Recorder) insert(b *batch) error {
	ctx, cancel := context.WithTimeout(r.ctx, r.opts.InsertTimeout)
	defer cancel()
	if err := r.sink.insert(ctx, b); err != nil {
		return err
	}
	r.countDelivered(b)
	r.queued.Add(-int64(len(b.Rows)))
	return nil
}

// countDelivered counts b's events delivered, and how late the oldest of them arrived.
func (r *Recorder) countDelivered(b *batch) {
	r.delivered.Add(int64(len(b.Rows)))
	var oldest time.Time
	for _, row := range b.Rows {
		if oldest.IsZero() || row.Time.Before(oldest) {
			oldest = row.Time
		}
	}
	if !oldest.IsZero() {
		r.lastLag.Store(int64(time.Since(oldest)))
	}
}

// spoolBatch moves b from memory to disk, or drops it when the spool is full.
func (r *Recorder) spoolBatch(b *batch) {
	n := int64(len(b.Rows))
	err := r.spool.put(b)
	r.queued.Add(-n)
	switch {
	case err == nil:
		select {
		case r.spooled <- struct{}{}:
		default: // the delivery loop has yet to see an earlier one
		}
	case errors.Is(err, errSpoolFull):
		r.drop(len(b.Rows), "spool full")
	default:
		r.logger.Error("usage batch cannot be spooled", "batch_id", b.ID, "err", err)
		r.drop(len(b.Rows), "spool write failed")
	}
}

// drainSpool delivers spooled batches oldest first until the spool is empty or an attempt
// fails. A batch already in usage_events (inserted by an attempt whose answer was lost) is
// removed without being inserted again.
func (r *Recorder) drainSpool() error {
	for {
		e, ok := r.spool.oldest()
		if !ok {
			return nil
		}
		b, err := r.spool.load(e)
		if errors.Is(err, errCorrupt) {
			r.spool.setAside(e, err.Error())
			continue
		}
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(r.ctx, r.opts.InsertTimeout)
		present, err := r.sink.delivered(ctx, b)
		cancel()
		if err != nil {
			return err
		}
		if !present {
			ctx, cancel := context.WithTimeout(r.ctx, r.opts.InsertTimeout)
			err = r.sink.insert(ctx, b)
			cancel()
			if err != nil {
				return err
			}
		}
		if err := r.spool.remove(e); err != nil {
			return err
		}
		r.countDelivered(b)
	}
}

func (r *Recorder) markFailing(err error) {
	if !r.failing.Swap(true) {
		r.logger.Warn("usage delivery failing; batches go to the spool", "err", err, "spool", r.opts.SpoolDir)
	} else {
		r.logger.Debug("usage delivery still failing", "err", err)
	}
}

func (r *Recorder) markRecovered() {
	if r.failing.Swap(false) {
		r.logger.Info("usage delivery recovered; spool delivered")
	}
}
