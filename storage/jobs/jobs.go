// Package jobs hands executions to runners through River, on the service's own Postgres: a
// start writes its execution and its job in one transaction of the database both live in,
// and any server process sharing that database may run it.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/storage/postgres"
)

// Handler runs one execution of a kind to its end (or until ctx ends).
type Handler func(ctx context.Context, executionID string) error

// Options tune the queue. The zero value is usable.
type Options struct {
	// Workers is the number of executions of each kind run at once by this process.
	// Default 4.
	Workers int
	// PollInterval is how often idle workers look for jobs that no notification announced
	// (a job rescued or snoozed: every start and Enqueue is announced, see announce).
	// Default River's (1s).
	PollInterval time.Duration
	// PollIntervals overrides PollInterval for some kinds. Each look is a query and a few
	// wake-ups of an otherwise idle process, so short intervals cost CPU.
	PollIntervals map[execution.Kind]time.Duration
	// Webhooks, when set, makes this process deliver webhook events too.
	Webhooks *WebhookOptions
	// PageCache, when set, makes the process River elects prune the fetcher's stored pages.
	PageCache *PageCacheOptions
	Logger    *slog.Logger
}

// Queue is a River client that starts, enqueues and works executions.
type Queue struct {
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx]
}

var (
	_ execution.Starter = (*Queue)(nil)
	_ execution.Queue   = (*Queue)(nil)
)

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
	err := h(withTraceOf(ctx, job.Metadata), job.Args.ExecutionID)
	var wait *execution.WaitError
	if errors.As(err, &wait) {
		return river.JobSnooze(wait.After)
	}
	return err
}

// fetchCooldown is the least time between two looks for jobs in a queue. River's default
// is sized for queues of many short jobs, and holds back a start that comes just after a
// look for as long. Our executions start a few at a time, so looking more often costs
// nothing while idle (see RATIONALE.md).
const fetchCooldown = 10 * time.Millisecond

// queueName keeps kinds apart so that long crawls never hold up extractions or searches.
func queueName(kind execution.Kind) string { return string(kind) }

// New returns a Queue. handlers may be empty for a process that only enqueues.
func New(pool *pgxpool.Pool, handlers map[execution.Kind]Handler, opts Options) (*Queue, error) {
	if opts.Workers <= 0 {
		opts.Workers = 4
	}
	cfg := &river.Config{Logger: opts.Logger, FetchPollInterval: opts.PollInterval, FetchCooldown: fetchCooldown}
	if len(handlers) > 0 || opts.Webhooks != nil || opts.PageCache != nil {
		workers := river.NewWorkers()
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{}
		if len(handlers) > 0 {
			if err := river.AddWorkerSafely(workers, &worker{handlers: handlers}); err != nil {
				return nil, err
			}
		}
		for kind := range handlers {
			cfg.Queues[queueName(kind)] = river.QueueConfig{MaxWorkers: opts.Workers, FetchPollInterval: opts.PollIntervals[kind]}
		}
		if opts.Webhooks != nil {
			if err := addDeliveryWorker(cfg, *opts.Webhooks); err != nil {
				return nil, err
			}
		}
		if opts.PageCache != nil {
			if err := addPruneWorker(cfg, *opts.PageCache); err != nil {
				return nil, err
			}
		}
	}
	client, err := river.NewClient(riverpgxv5.New(pool), cfg)
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	return &Queue{pool: pool, client: client}, nil
}

// StartWorking begins working jobs; it returns at once.
func (q *Queue) StartWorking(ctx context.Context) error { return q.client.Start(ctx) }

// Stop lets running jobs finish until ctx ends, then cancels them; their executions'
// leases lapse and another process resumes them.
func (q *Queue) Stop(ctx context.Context) error {
	err := q.client.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		return q.client.StopAndCancel(context.Background())
	}
	return err
}

// Start implements execution.Starter: the execution, its charge, its items and its job
// are written in one transaction, and the workers are told of the job when it commits.
func (q *Queue) Start(ctx context.Context, e execution.Execution, items []string) error {
	var active *execution.ActiveError
	err := pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		err := postgres.RecordStart(ctx, tx, e, items)
		if errors.As(err, &active) {
			return nil // commit the organization's join of the active crawl
		}
		if err != nil {
			return err
		}
		return q.insert(ctx, tx, e.Kind, e.ID)
	})
	if err != nil {
		return fmt.Errorf("start %s: %w", e.ID, err)
	}
	if active != nil {
		return active
	}
	return nil
}

// Enqueue queues an execution again (one whose runner stopped); the workers are told at
// once.
func (q *Queue) Enqueue(ctx context.Context, kind execution.Kind, executionID string) error {
	return pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		return q.insert(ctx, tx, kind, executionID)
	})
}

// insert adds an execution's job in tx, announced to the workers when tx commits.
func (q *Queue) insert(ctx context.Context, tx pgx.Tx, kind execution.Kind, executionID string) error {
	metadata, err := metadataOf(ctx)
	if err != nil {
		return fmt.Errorf("enqueue %s: trace context: %w", executionID, err)
	}
	_, err = q.client.InsertTx(ctx, tx, executionArgs{ExecutionID: executionID, ExecutionKind: kind},
		&river.InsertOpts{Queue: queueName(kind), MaxAttempts: 5, Metadata: metadata})
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", executionID, err)
	}
	if err := announce(ctx, q.client, tx, queueName(kind)); err != nil {
		return fmt.Errorf("announce %s: %w", executionID, err)
	}
	return nil
}

// insertTopic is the channel on which River's workers hear of new jobs, as River names it.
const insertTopic = "river_insert"

// announce tells the workers of queue, once tx commits, that a job waits there. River
// announces an insert itself only when it has announced none to the queue within the
// fetch cooldown, and drops the other announcements: a start whose transaction committed
// after the workers' look for an earlier one would wait for the queue's next poll (starts
// that come together, a client's searches, say). Postgres delivers a notification when
// its transaction commits, so the workers look once the job is there to be seen.
func announce(ctx context.Context, client *river.Client[pgx.Tx], tx pgx.Tx, queue string) error {
	payload, err := json.Marshal(struct {
		Queue string `json:"queue"`
	}{queue})
	if err != nil {
		return err
	}
	return client.Driver().UnwrapExecutor(tx).NotifyMany(ctx, &riverdriver.NotifyManyParams{
		Topic: insertTopic, Payload: []string{string(payload)},
	})
}

// QueueCount is how many jobs of one queue are in one state.
type QueueCount struct {
	// Queue is the queue's name: one queue per execution kind.
	Queue string
	// State is River's: available, scheduled, retryable or running.
	State string
	Jobs  int
}

// UnfinishedStates are the River states of a job not finished yet.
var UnfinishedStates = []string{"available", "scheduled", "retryable", "running"}

// Depth counts the jobs not finished yet, by queue and state (for metrics); a queue and
// state with no job is left out. Jobs that ended (completed, cancelled, discarded) are
// not counted.
func (q *Queue) Depth(ctx context.Context) ([]QueueCount, error) {
	rows, err := q.pool.Query(ctx, `SELECT queue, state::text, count(*) FROM river_job
		WHERE state::text = ANY($1) GROUP BY queue, state`, UnfinishedStates)
	if err != nil {
		return nil, fmt.Errorf("count queued jobs: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (QueueCount, error) {
		var c QueueCount
		err := row.Scan(&c.Queue, &c.State, &c.Jobs)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("count queued jobs: %w", err)
	}
	return out, nil
}
