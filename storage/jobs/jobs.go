// Package jobs hands executions to runners through River, on the service's own Postgres: a
// start enqueues a job in the same database the execution lives in, and any server process
// sharing that database may run it.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/stockroom/stockroom/core/execution"
)

// Handler runs one execution of a kind to its end (or until ctx ends).
type Handler func(ctx context.Context, executionID string) error

// Options tune the queue. The zero value is usable.
type Options struct {
	// Workers is the number of executions of each kind run at once by this process.
	// Default 4.
	Workers int
	// PollInterval is how often idle workers look for jobs that no notification announced
	// (a job rescued or snoozed: every Enqueue is announced, see announcer). Default
	// River's (1s).
	PollInterval time.Duration
	// PollIntervals overrides PollInterval for some kinds. Each look is a query and a few
	// goroutine wake-ups, so short intervals cost an idle server a lot of CPU.
	PollIntervals map[execution.Kind]time.Duration
	Logger        *slog.Logger
}

// Queue is a River client that enqueues and works executions.
type Queue struct {
	client *river.Client[pgx.Tx]

	mu         sync.Mutex
	announcers map[string]*announcer // by queue, made on a queue's first start
}

var _ execution.InspectableQueue = (*Queue)(nil)

// executionArgs is the job: which execution to run. The execution row holds everything else.
type executionArgs struct {
	ExecutionID   string         `json:"execution_id"`
	ExecutionKind execution.Kind `json:"kind"`
}

func (executionArgs) Kind() string { return "execution" }

type worker struct {
	river.WorkerDefaults[executionArgs]
	handlers map[execution.Kind]Handler
}

// Timeout is off: a crawl runs as long as the store is large, and stops on cancel instead.
func (w *worker) Timeout(*river.Job[executionArgs]) time.Duration { return -1 }

func (w *worker) Work(ctx context.Context, job *river.Job[executionArgs]) error {
	h, ok := w.handlers[job.Args.ExecutionKind]
	if !ok {
		return river.JobCancel(fmt.Errorf("no handler for executions of kind %q", job.Args.ExecutionKind))
	}
	err := h(ctx, job.Args.ExecutionID)
	var wait *execution.WaitError
	if errors.As(err, &wait) {
		return river.JobSnooze(wait.After)
	}
	return err
}

// fetchCooldown is the least time between two looks for jobs in a queue, and between two
// notifications of new jobs in one (the announcer spaces a queue's inserts by it, so that
// none goes unannounced). River's default is sized for queues of many short jobs: with
// it, a start that came soon after a poll waited for the cooldown to pass, a delay that
// is long next to a short crawl. Our executions start a few at a time, so looking more
// often costs nothing while idle.
const fetchCooldown = 10 * time.Millisecond

// queueName keeps kinds apart so that long crawls never hold up extractions or searches.
func queueName(kind execution.Kind) string { return string(kind) }

// New returns a Queue. handlers may be empty for a process that only enqueues.
func New(pool *pgxpool.Pool, handlers map[execution.Kind]Handler, opts Options) (*Queue, error) {
	if opts.Workers <= 0 {
		opts.Workers = 4
	}
	cfg := &river.Config{Logger: opts.Logger, FetchPollInterval: opts.PollInterval, FetchCooldown: fetchCooldown}
	if len(handlers) > 0 {
		workers := river.NewWorkers()
		if err := river.AddWorkerSafely(workers, &worker{handlers: handlers}); err != nil {
			return nil, err
		}
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{}
		for kind := range handlers {
			cfg.Queues[queueName(kind)] = river.QueueConfig{MaxWorkers: opts.Workers, FetchPollInterval: opts.PollIntervals[kind]}
		}
	}
	client, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return &Queue{client: client, announcers: map[string]*announcer{}}, nil
}

// Start begins working jobs; it returns at once.
func (q *Queue) Start(ctx context.Context) error { return q.client.Start(ctx) }

// Stop lets running jobs finish until ctx ends, then cancels them; their executions'
// leases lapse and another process resumes them.
func (q *Queue) Stop(ctx context.Context) error {
	err := q.client.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		return q.client.StopAndCancel(context.Background())
	}
	return err
}

// Queued reports whether a job for the execution is waiting (available, scheduled, retryable,
// pending) or running.
func (q *Queue) Queued(ctx context.Context, executionID string) (bool, error) {
	jobs, err := q.client.JobList(ctx, river.NewJobListParams().Kinds(executionArgs{}.Kind()).
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable,
			rivertype.JobStatePending, rivertype.JobStateRunning).
		Where("args->>'execution_id' = @execution_id", river.NamedArgs{"execution_id": executionID}).
		First(1))
	if err != nil {
		return false, fmt.Errorf("look for the job of %s: %w", executionID, err)
	}
	return len(jobs.Jobs) > 0, nil
}

// Enqueue schedules an execution; the workers are told at once (see announcer).
func (q *Queue) Enqueue(ctx context.Context, kind execution.Kind, executionID string) error {
	if err := q.announcer(queueName(kind)).Insert(ctx, enqueued{kind: kind, executionID: executionID}); err != nil {
		return fmt.Errorf("enqueue %s: %w", executionID, err)
	}
	return nil
}

func (q *Queue) announcer(queue string) *announcer {
	q.mu.Lock()
	defer q.mu.Unlock()
	a, ok := q.announcers[queue]
	if !ok {
		a = &announcer{cooldown: fetchCooldown, insert: q.insertBatch}
		q.announcers[queue] = a
	}
	return a
}

// insertBatch inserts jobs in one transaction, which River announces once per queue.
func (q *Queue) insertBatch(ctx context.Context, jobs []enqueued) error {
	params := make([]river.InsertManyParams, len(jobs))
	for i, j := range jobs {
		params[i] = river.InsertManyParams{
			Args:       executionArgs{ExecutionID: j.executionID, ExecutionKind: j.kind},
			InsertOpts: &river.InsertOpts{Queue: queueName(j.kind), MaxAttempts: 5},
		}
	}
	_, err := q.client.InsertMany(ctx, params)
	return err
}
