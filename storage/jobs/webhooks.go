package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/webhook"
	"github.com/stockroom/stockroom/storage/postgres"
)

// webhookQueue holds the delivery jobs, apart from the executions'.
const webhookQueue = "webhook"

// WebhookOptions make a Queue deliver webhook events. Store and Sender are required.
type WebhookOptions struct {
	Store  *postgres.WebhookStore
	Sender *webhook.Sender
	// Schedule is the wait before each retry; it must be the one the events were queued
	// with (WebhookEvents), which fixed their number of attempts. Zero means
	// webhook.DefaultSchedule.
	Schedule webhook.Schedule
	// Workers is the number of deliveries this process makes at once. Default 10.
	Workers int
	// PollInterval is how often idle workers look for retries that are due: a first
	// attempt is announced, a retry due within River's scheduling interval (5s) is not.
	// Zero means Options.PollInterval.
	PollInterval time.Duration
}

// deliveryArgs is the job: which delivery to attempt. Its row holds everything else.
type deliveryArgs struct {
	DeliveryID string `json:"delivery_id"`
}

func (deliveryArgs) Kind() string { return "webhook_delivery" }

type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	opts WebhookOptions
}

func addDeliveryWorker(cfg *river.Config, opts WebhookOptions) error {
	if opts.Store == nil || opts.Sender == nil {
		return errors.New("jobs: WebhookOptions needs a Store and a Sender")
	}
	if len(opts.Schedule) == 0 {
		opts.Schedule = webhook.DefaultSchedule
	}
	if opts.Workers <= 0 {
		opts.Workers = 10
	}
	if err := river.AddWorkerSafely(cfg.Workers, &deliveryWorker{opts: opts}); err != nil {
		return err
	}
	cfg.Queues[webhookQueue] = river.QueueConfig{MaxWorkers: opts.Workers, FetchPollInterval: opts.PollInterval}
	return nil
}

// Work makes one attempt at a delivery and records it. A failed attempt with retries left
// returns an error, for River to run the job again at NextRetry; the delivery is sent at
// least once, and again only when recording its success failed.
func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[deliveryArgs]) error {
	id := job.Args.DeliveryID
	m, status, ok, err := w.opts.Store.Message(ctx, id)
	if err != nil {
		return err
	}
	if !ok || status != webhook.Pending {
		return nil // its endpoint was deleted, or an earlier run recorded its end
	}
	a := w.opts.Sender.Send(ctx, m)
	status, next := webhook.Succeeded, (*time.Time)(nil)
	if !a.OK() {
		status = webhook.Failed
		if wait, more := w.opts.Schedule.After(job.Attempt); more && job.Attempt < job.MaxAttempts {
			status, next = webhook.Pending, ptr(time.Now().Add(wait))
		}
	}
	if err := w.opts.Store.RecordAttempt(ctx, id, job.Attempt, a, status, next); err != nil {
		return err
	}
	if status == webhook.Pending {
		return fmt.Errorf("webhook delivery %s, attempt %d: %s", id, job.Attempt, a.Error)
	}
	return nil
}

// NextRetry follows the schedule, whatever River's default backoff would be.
func (w *deliveryWorker) NextRetry(job *river.Job[deliveryArgs]) time.Time {
	wait, ok := w.opts.Schedule.After(job.Attempt)
	if !ok {
		return time.Time{} // no retry left: River discards the job
	}
	return time.Now().Add(wait)
}

func ptr[T any](v T) *T { return &v }

// WebhookEvents queues the deliveries of executions' ends. It only inserts jobs, so it
// can be made before the Queue that works them, and given to the execution store as its
// end hook (EndHook).
type WebhookEvents struct {
	client   *river.Client[pgx.Tx]
	attempts int
}

// NewWebhookEvents returns a WebhookEvents over pool whose deliveries are attempted as
// schedule says (zero means webhook.DefaultSchedule).
func NewWebhookEvents(pool *pgxpool.Pool, schedule webhook.Schedule) (*WebhookEvents, error) {
	if len(schedule) == 0 {
		schedule = webhook.DefaultSchedule
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("river client for webhook events: %w", err)
	}
	return &WebhookEvents{client: client, attempts: schedule.Attempts()}, nil
}

// EndHook records the deliveries of an execution's end and queues their jobs, in the
// transaction that records the end (see postgres.ExecutionStore.WithEndHook).
func (w *WebhookEvents) EndHook(ctx context.Context, tx pgx.Tx, ended execution.Execution, lastProgress json.RawMessage) error {
	ids, err := postgres.RecordWebhookEvents(ctx, tx, ended, lastProgress)
	if err != nil || len(ids) == 0 {
		return err
	}
	jobs := make([]river.InsertManyParams, len(ids))
	for i, id := range ids {
		jobs[i] = river.InsertManyParams{Args: deliveryArgs{DeliveryID: id},
			InsertOpts: &river.InsertOpts{Queue: webhookQueue, MaxAttempts: w.attempts}}
	}
	if _, err := w.client.InsertManyTx(ctx, tx, jobs); err != nil {
		return fmt.Errorf("queue webhook deliveries: %w", err)
	}
	return announce(ctx, w.client, tx, webhookQueue)
}
