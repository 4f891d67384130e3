package jobs

import (
	"context"
	"sync"
	"time"

	"github.com/stockroom/stockroom/core/execution"
)

// announcer inserts one queue's jobs so that River announces every one of them to the
// workers. River announces at most one insert per queue and client in each fetch
// cooldown and drops the others' announcements: a job inserted just after another is
// found by the workers' look for the first only if it was committed by then, and
// otherwise waits for the queue's next poll (jobs.poll_interval, a second). Starts that
// come together (a client's searches, say) were stranded so, and polling often enough to
// bound the wait costs an idle server a lot of CPU.
//
// The announcer inserts a queue's jobs in batches, one batch at a time and each a
// cooldown after the previous one ended, so that River announces each batch; the starts
// that come while a batch is being inserted go into the next one. A lone start goes at
// once.
type announcer struct {
	cooldown time.Duration
	// insert inserts a batch in one transaction: its jobs are all inserted or none is.
	insert func(ctx context.Context, batch []enqueued) error

	mu      sync.Mutex
	waiting []*pendingStart
	running bool      // a goroutine is inserting batches
	last    time.Time // when the last batch's insert returned
}

// enqueued is one job of a batch.
type enqueued struct {
	kind        execution.Kind
	executionID string
}

type pendingStart struct {
	ctx  context.Context
	job  enqueued
	done chan error // buffered: the batch never waits for a start that gave up
}

// batchTimeout bounds the insert of a batch, which no single start's context may end: it
// holds the jobs of others.
const batchTimeout = 30 * time.Second

// Insert inserts job and returns once it is committed, or ctx has ended. A start whose
// context ends before its batch is taken is left out of it; one whose batch is being
// inserted is inserted with it, as when a context ends during any insert.
func (a *announcer) Insert(ctx context.Context, job enqueued) error {
	s := &pendingStart{ctx: ctx, job: job, done: make(chan error, 1)}
	a.mu.Lock()
	a.waiting = append(a.waiting, s)
	if !a.running {
		a.running = true
		go a.run()
	}
	a.mu.Unlock()
	select {
	case err := <-s.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run inserts batches until no start waits.
func (a *announcer) run() {
	for {
		a.mu.Lock()
		if len(a.waiting) == 0 {
			a.running = false
			a.mu.Unlock()
			return
		}
		wait := a.cooldown - time.Since(a.last)
		a.mu.Unlock()
		// Past the cooldown of River's last announcement for the queue: it was made inside
		// the last batch's insert, before that returned.
		time.Sleep(wait)

		a.mu.Lock()
		var batch []*pendingStart
		for _, s := range a.waiting {
			if err := s.ctx.Err(); err != nil {
				s.done <- err
				continue
			}
			batch = append(batch, s)
		}
		a.waiting = nil
		a.mu.Unlock()
		if len(batch) == 0 {
			continue
		}

		jobs := make([]enqueued, len(batch))
		for i, s := range batch {
			jobs[i] = s.job
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(batch[0].ctx), batchTimeout)
		err := a.insert(ctx, jobs)
		cancel()

		a.mu.Lock()
		a.last = time.Now()
		a.mu.Unlock()
		for _, s := range batch {
			s.done <- err
		}
	}
}
