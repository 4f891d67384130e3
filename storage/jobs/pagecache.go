package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/stockroom/stockroom/storage/postgres"
)

// maintenanceQueue holds the service's own upkeep jobs, apart from the executions'.
const maintenanceQueue = "maintenance"

// PageCacheOptions make a Queue prune the pages the fetcher keeps for conditional requests
// (postgres.PageStore): on start, then every Every, in whichever process River elects to
// run periodic jobs. Store is required.
type PageCacheOptions struct {
	Store *postgres.PageStore
	// MaxAge deletes the pages no fetch has used (stored, or confirmed by a 304 or by the
	// same body again) for this long. Required.
	MaxAge time.Duration
	// MaxBytes then deletes the least recently used pages until those left take at most
	// this many bytes. 0: no budget.
	MaxBytes int64
	// Every is the time between two prunes. Default an hour.
	Every time.Duration
}

// pruneArgs is the job: prune the stored pages now.
type pruneArgs struct{}

func (pruneArgs) Kind() string { return "prune_fetched_pages" }

type pruneWorker struct {
	river.WorkerDefaults[pruneArgs]
	opts PageCacheOptions
}

func addPruneWorker(cfg *river.Config, opts PageCacheOptions) error {
	if opts.Store == nil || opts.MaxAge <= 0 {
		return errors.New("jobs: PageCacheOptions needs a Store and a positive MaxAge")
	}
	if opts.Every <= 0 {
		opts.Every = time.Hour
	}
	if err := river.AddWorkerSafely(cfg.Workers, &pruneWorker{opts: opts}); err != nil {
		return err
	}
	cfg.Queues[maintenanceQueue] = river.QueueConfig{MaxWorkers: 1}
	cfg.PeriodicJobs = append(cfg.PeriodicJobs, river.NewPeriodicJob(river.PeriodicInterval(opts.Every),
		func() (river.JobArgs, *river.InsertOpts) {
			// One attempt: the next period prunes again anyway.
			return pruneArgs{}, &river.InsertOpts{Queue: maintenanceQueue, MaxAttempts: 1}
		}, &river.PeriodicJobOpts{RunOnStart: true}))
	return nil
}

// Work deletes what the options say is stale or over budget.
func (w *pruneWorker) Work(ctx context.Context, _ *river.Job[pruneArgs]) error {
	_, err := w.opts.Store.Prune(ctx, time.Now().Add(-w.opts.MaxAge), w.opts.MaxBytes)
	return err
}
