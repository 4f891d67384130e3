package execution

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// RunnerOptions tune a Runner. The zero value is usable.
type RunnerOptions struct {
	// Owner names this process in leases. Default: a random id.
	Owner string
	// ReportEvery is how often progress is saved and the lease renewed; a cancel is noticed
	// within this time. Default 1s.
	ReportEvery time.Duration
	// LeaseTTL is how long a lease lasts without renewal; a killed process's executions are
	// resumed after it. Default 10s.
	LeaseTTL time.Duration
	// Observer is told of each execution a runner starts and ends (metrics); nil tells
	// nobody.
	Observer Observer
	Logger   *slog.Logger
}

// Observer is told of the executions a Runner runs. status is "completed", "failed", or
// "stopped" when the runner gave the execution up (canceled, taken over by another
// runner, or the process stopping).
type Observer interface {
	ExecutionStarted(kind string)
	ExecutionFinished(kind, status string)
}

// Runner runs executions under a lease: it saves progress, notices cancellation and
// records the end.
type Runner struct {
	store Store
	opts  RunnerOptions
}

// NewRunner returns a Runner over store.
func NewRunner(store Store, opts RunnerOptions) *Runner {
	if opts.Owner == "" {
		opts.Owner = fmt.Sprintf("runner-%d", time.Now().UnixNano())
	}
	if opts.ReportEvery <= 0 {
		opts.ReportEvery = time.Second
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = 10 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Runner{store: store, opts: opts}
}

// Owner is the lease owner name of this runner.
func (r *Runner) Owner() string { return r.opts.Owner }

// LeaseTTL is how long this runner's leases last.
func (r *Runner) LeaseTTL() time.Duration { return r.opts.LeaseTTL }

// Work does an execution's job. It returns the result to store on success; an error fails
// the execution with the error's message.
type Work func(ctx context.Context, job *Job) (result any, err error)

// Run takes the lease of execution id and runs work. It returns nil without running when the
// execution has ended or another runner holds it. work's context ends when the execution is
// canceled or its lease is lost.
func (r *Runner) Run(ctx context.Context, id string, work Work) error {
	e, ok, err := r.store.Acquire(ctx, id, r.opts.Owner, r.opts.LeaseTTL)
	if err != nil {
		return err
	}
	if !ok {
		r.opts.Logger.Debug("execution not runnable here", "execution_id", id)
		return nil
	}
	status := "stopped"
	if obs := r.opts.Observer; obs != nil {
		obs.ExecutionStarted(string(e.Kind))
		defer func() { obs.ExecutionFinished(string(e.Kind), status) }()
	}
	workCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	job := &Job{Execution: e, lease: Lease{ExecutionID: id, Owner: r.opts.Owner}, steps: e.Steps, changed: make(chan struct{}, 1)}
	if job.steps == nil {
		job.steps = []Step{}
	}
	reporting := make(chan struct{})
	go func() {
		defer close(reporting)
		r.report(workCtx, job, stop)
	}()
	result, workErr := work(workCtx, job)
	stop(nil)
	<-reporting

	if lost := context.Cause(workCtx); errors.Is(lost, ErrLeaseLost) {
		r.opts.Logger.Info("execution stopped: canceled or taken over", "execution_id", id)
		return nil
	}
	if ctx.Err() != nil {
		// The process is stopping: leave the lease to lapse so that another runner resumes.
		return ctx.Err()
	}
	// Finishing must not be lost to a stopping process.
	finishCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if workErr != nil {
		status = string(Failed)
		r.opts.Logger.Warn("execution failed", "execution_id", id, "err", workErr)
		err := r.store.Finish(finishCtx, job.lease, Failed, nil, workErr.Error(), FailRunningStep(job.Steps()))
		return ignoreLeaseLost(err)
	}
	raw, err := json.Marshal(result)
	if err != nil {
		return fmt.Errorf("encode result of %s: %w", id, err)
	}
	status = string(Completed)
	return ignoreLeaseLost(r.store.Finish(finishCtx, job.lease, Completed, raw, "", job.Steps()))
}

// A canceled execution is already recorded as ended; there is nothing more to write.
func ignoreLeaseLost(err error) error {
	if errors.Is(err, ErrLeaseLost) {
		return nil
	}
	return err
}

// report saves progress every ReportEvery until ctx ends, and stops the work when the lease
// is lost.
func (r *Runner) report(ctx context.Context, job *Job, stop context.CancelCauseFunc) {
	tick := time.NewTicker(r.opts.ReportEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-job.changed:
		}
		progress, steps := job.snapshot()
		err := r.store.Report(ctx, job.lease, r.opts.LeaseTTL, progress, steps)
		switch {
		case errors.Is(err, ErrLeaseLost):
			stop(ErrLeaseLost)
			return
		case err != nil && ctx.Err() == nil:
			r.opts.Logger.Warn("report execution progress", "execution_id", job.ID, "err", err)
		}
	}
}

// Job is a running execution as its work sees it.
type Job struct {
	Execution
	lease Lease

	mu       sync.Mutex
	steps    []Step
	progress any
	// changed asks for a report now: a step change is saved at once, so a cancel arriving
	// just after it fails the right step.
	changed chan struct{}
}

// Step marks step i with status (and, when running, every earlier step completed).
func (j *Job) Step(i int, status Status) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if i < 0 || i >= len(j.steps) {
		return
	}
	if status == Running {
		for k := 0; k < i; k++ {
			j.steps[k].Status = Completed
		}
	}
	j.steps[i].Status = status
	select {
	case j.changed <- struct{}{}:
	default:
	}
}

// Steps returns a copy of the steps.
func (j *Job) Steps() []Step {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Step(nil), j.steps...)
}

// SetProgress replaces the progress document saved with the next report.
func (j *Job) SetProgress(p any) {
	j.mu.Lock()
	j.progress = p
	j.mu.Unlock()
}

func (j *Job) snapshot() (json.RawMessage, []Step) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var raw json.RawMessage
	if j.progress != nil {
		raw, _ = json.Marshal(j.progress)
	}
	return raw, append([]Step(nil), j.steps...)
}

// Resumer queues again the executions whose runner died: their lease lapsed while they
// ran. They would otherwise stay running forever, and a crawl's would hold its vendor's
// one active crawl, so that every later start of the vendor would answer with it.
type Resumer struct {
	Store    Store
	Queue    Queue
	Kinds    []Kind
	Interval time.Duration // default 5s
	Logger   *slog.Logger
}

// Run checks for stranded executions every Interval until ctx ends.
func (r *Resumer) Run(ctx context.Context) {
	interval := r.Interval
	if interval <= 0 {
		interval = 5 * time.Second
	}
	logger := r.Logger
	if logger == nil {
		logger = slog.Default()
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		r.resume(ctx, logger)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// resume queues again the executions whose runner stopped.
func (r *Resumer) resume(ctx context.Context, logger *slog.Logger) {
	stranded, err := r.Store.Stranded(ctx, r.Kinds)
	if err != nil {
		if ctx.Err() == nil {
			logger.Warn("look for stranded executions", "err", err)
		}
		return
	}
	for _, e := range stranded {
		logger.Info("resuming execution whose runner stopped", "execution_id", e.ID)
		if err := r.Queue.Enqueue(ctx, e.Kind, e.ID); err != nil && ctx.Err() == nil {
			logger.Warn("enqueue execution", "execution_id", e.ID, "err", err)
		}
	}
}
