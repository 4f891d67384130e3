// Package execution is the shared life of every asynchronous job the API starts (crawl,
// product batch, extract, agentic search): its record, its states and steps, who runs it,
// and how it is canceled.
//
// A runner holds a lease on the execution while it works and renews it with each progress
// report; an execution whose lease lapses (its process was killed) is picked up again by
// another runner. Work must therefore be idempotent: a resumed execution redoes what its
// predecessor may not have finished.
package execution

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Kind is what an execution does.
type Kind string

const (
	Crawl         Kind = "crawl"
	ProductsBatch Kind = "products_batch"
	Extract       Kind = "extract"
	AgenticSearch Kind = "agentic_search"
)

// Status is an execution's or a step's state.
type Status string

const (
	Pending   Status = "pending"
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
)

// Ended reports whether s is final.
func (s Status) Ended() bool { return s == Completed || s == Failed }

// ListStatus is a status as list endpoints show it: pending and running are "processing".
func (s Status) ListStatus() string {
	if s.Ended() {
		return string(s)
	}
	return "processing"
}

// CanceledMessage is the error of a canceled execution.
const CanceledMessage = "canceled"

// Step is one named stage of an execution.
type Step struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
}

// Execution is one job's record.
type Execution struct {
	ID             string
	Kind           Kind
	OrganizationID string
	Status         Status
	// Vendor is the hostname a crawl or a vendor-mode extract works on.
	Vendor string
	Steps  []Step
	// Progress, Parameters and Result are kind-specific JSON documents.
	Progress    json.RawMessage
	Parameters  json.RawMessage
	Result      json.RawMessage
	Error       string
	CreditsUsed int64
	CreatedAt   time.Time
	StartedAt   *time.Time
	StoppedAt   *time.Time
	// Webhook is set on a start that asks to be told of the end; it is not read back.
	Webhook *Webhook
}

// Duration is the time from start to stop, or to now while running; nil before the start.
func (e Execution) Duration(now time.Time) *time.Duration {
	if e.StartedAt == nil {
		return nil
	}
	end := now
	if e.StoppedAt != nil {
		end = *e.StoppedAt
	}
	d := end.Sub(*e.StartedAt)
	return &d
}

// Errors of the Store.
var (
	ErrNotFound = errors.New("execution not found")
	// ErrActive is returned by Starter.Start when another active execution holds the
	// same vendor (one running crawl per hostname); see ActiveError.
	ErrActive = errors.New("an execution is already active for this vendor")
	// ErrEnded is returned by Cancel for an execution that has already ended.
	ErrEnded = errors.New("execution has already ended")
	// ErrLeaseLost is returned to a runner whose lease another runner has taken, or whose
	// execution was canceled: it must stop.
	ErrLeaseLost = errors.New("execution lease lost")
)

// WaitError asks the queue to run the execution again later without taking its lease: it
// stays pending (an extraction waiting for its crawl).
type WaitError struct {
	After  time.Duration
	Reason string
}

func (e *WaitError) Error() string { return "waiting: " + e.Reason }

// ActiveError carries the id of the execution that blocked a start.
type ActiveError struct{ Existing string }

func (e *ActiveError) Error() string { return ErrActive.Error() + ": " + e.Existing }
func (e *ActiveError) Unwrap() error { return ErrActive }

// Filter selects executions for a list.
type Filter struct {
	// OrganizationID's own executions and those it joined.
	OrganizationID string
	Kinds          []Kind
	// Statuses, empty for all.
	Statuses []Status
	Limit    int
}

// Lease identifies a runner's hold on an execution.
type Lease struct {
	ExecutionID string
	Owner       string
}

// Store keeps executions. They are created by a Starter.
type Store interface {
	// Get returns an execution by id; organizationID, when not empty, must own it or have
	// joined it (see Starter.Start, for another organization's crawl).
	Get(ctx context.Context, id, organizationID string) (Execution, error)
	// List returns executions newest first.
	List(ctx context.Context, f Filter) ([]Execution, error)
	// Acquire takes the lease of a pending or running execution whose lease is free or
	// lapsed, marks it running and returns it. ok is false when it has ended or another
	// runner holds it.
	Acquire(ctx context.Context, id, owner string, ttl time.Duration) (e Execution, ok bool, err error)
	// Report renews the lease and saves progress and steps. It fails with ErrLeaseLost when
	// the execution was canceled or taken over.
	Report(ctx context.Context, l Lease, ttl time.Duration, progress json.RawMessage, steps []Step) error
	// Finish ends the execution: completed with a result, or failed with a message.
	Finish(ctx context.Context, l Lease, status Status, result json.RawMessage, message string, steps []Step) error
	// Cancel ends a pending or running execution as failed with CanceledMessage, the running
	// step failed; ErrEnded when it had already ended.
	Cancel(ctx context.Context, id, organizationID string) (Execution, error)
	// Stranded lists the running executions of kinds whose runner's lease has lapsed (its
	// process stopped), oldest first: no runner takes them up unless they are queued again.
	Stranded(ctx context.Context, kinds []Kind) ([]Stranded, error)
}

// Stranded is a running execution whose runner has stopped.
type Stranded struct {
	ID   string
	Kind Kind
}

// Queue hands executions to runners, durably and across processes.
type Queue interface {
	Enqueue(ctx context.Context, kind Kind, executionID string) error
}

// FailRunningStep returns steps with the running one failed; steps after it stay pending.
func FailRunningStep(steps []Step) []Step {
	out := append([]Step(nil), steps...)
	for i := range out {
		if out[i].Status == Running {
			out[i].Status = Failed
		}
	}
	return out
}

// NewSteps returns the named steps, all pending.
func NewSteps(names ...string) []Step {
	steps := make([]Step, len(names))
	for i, n := range names {
		steps[i] = Step{Name: n, Status: Pending}
	}
	return steps
}

// ParseListFilter reads the status filter of list endpoints: processing (pending or
// running), completed, failed, or empty for all.
func ParseListFilter(s string) ([]Status, bool) {
	switch s {
	case "":
		return nil, true
	case "processing":
		return []Status{Pending, Running}, true
	case "completed":
		return []Status{Completed}, true
	case "failed":
		return []Status{Failed}, true
	}
	return nil, false
}
