package jobs_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
)

// startRig is a queue that starts executions and works none, over a database of its own.
type startRig struct {
	t     *testing.T
	pool  *pgxpool.Pool
	queue *jobs.Queue
}

func newStartRig(t *testing.T) *startRig {
	t.Helper()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{})
	queue, err := jobs.New(pool, nil, jobs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &startRig{t: t, pool: pool, queue: queue}
}

func (r *startRig) organization(name string, credits int64) string {
	r.t.Helper()
	org, err := postgres.NewAccessStore(r.pool).CreateOrganization(context.Background(), name, credits, true)
	if err != nil {
		r.t.Fatal(err)
	}
	return org.ID
}

func (r *startRig) balance(org string) int64 {
	r.t.Helper()
	o, err := postgres.NewAccessStore(r.pool).Organization(context.Background(), org)
	if err != nil {
		r.t.Fatal(err)
	}
	return o.Credits
}

// rows lists the ids of what a start writes: executions, their items and their jobs.
func (r *startRig) rows() (executions, items, jobs []string) {
	r.t.Helper()
	read := func(query string) []string {
		rows, err := r.pool.Query(context.Background(), query)
		if err != nil {
			r.t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				r.t.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			r.t.Fatal(err)
		}
		return out
	}
	return read(`SELECT id FROM executions ORDER BY id`),
		read(`SELECT execution_id || ' ' || url FROM execution_items ORDER BY execution_id, position`),
		read(`SELECT args->>'execution_id' FROM river_job ORDER BY id`)
}

func extraction(org, id string, credits int64) execution.Execution {
	return execution.Execution{ID: id, Kind: execution.Extract, OrganizationID: org, CreditsUsed: credits, Steps: []execution.Step{}}
}

func crawlOf(org, id, vendor string, credits int64) execution.Execution {
	return execution.Execution{ID: id, Kind: execution.Crawl, OrganizationID: org, Vendor: vendor, CreditsUsed: credits,
		Steps: execution.NewSteps("a")}
}

// A start writes its execution (pending), its items and its job, and charges its credits.
func TestAStartRecordsChargesAndQueues(t *testing.T) {
	r := newStartRig(t)
	ctx := context.Background()
	org := r.organization("acme", 100)
	if err := r.queue.Start(ctx, extraction(org, "extract-1", 30), []string{"https://a.example/p/1", "https://a.example/p/2"}); err != nil {
		t.Fatal(err)
	}
	executions, items, queued := r.rows()
	if !slices.Equal(executions, []string{"extract-1"}) || !slices.Equal(queued, []string{"extract-1"}) ||
		!slices.Equal(items, []string{"extract-1 https://a.example/p/1", "extract-1 https://a.example/p/2"}) {
		t.Errorf("after a start: executions %v, items %v, jobs %v; want extract-1 with its two URLs and one job", executions, items, queued)
	}
	e, err := postgres.NewExecutionStore(r.pool).Get(ctx, "extract-1", org)
	if err != nil || e.Status != execution.Pending || e.CreditsUsed != 30 {
		t.Errorf("the execution: %+v %v, want pending with 30 credits used", e, err)
	}
	if got := r.balance(org); got != 70 {
		t.Errorf("balance %d, want 70", got)
	}
}

// A start the balance cannot pay leaves no execution, no items and no job, and charges
// nothing.
func TestAStartTheBalanceCannotPayLeavesNothing(t *testing.T) {
	r := newStartRig(t)
	org := r.organization("acme", 20)
	err := r.queue.Start(context.Background(), extraction(org, "extract-1", 30), []string{"https://a.example/p/1"})
	if !errors.Is(err, access.ErrInsufficientCredits) {
		t.Fatalf("start: %v, want ErrInsufficientCredits", err)
	}
	if executions, items, queued := r.rows(); len(executions)+len(items)+len(queued) != 0 {
		t.Errorf("after a start that could not pay: executions %v, items %v, jobs %v; want none", executions, items, queued)
	}
	if got := r.balance(org); got != 20 {
		t.Errorf("balance %d, want the 20 it had", got)
	}
}

// A start whose job cannot be queued leaves no execution and no items, and charges
// nothing; once the queue takes jobs again, the next start goes through.
func TestAStartWhoseJobCannotBeQueuedLeavesNothing(t *testing.T) {
	r := newStartRig(t)
	ctx := context.Background()
	org := r.organization("acme", 100)
	accept := postgrestest.RefuseJobs(t, r.pool)
	if err := r.queue.Start(ctx, extraction(org, "extract-1", 30), []string{"https://a.example/p/1"}); err == nil {
		t.Fatal("a start succeeded with its job refused")
	}
	if executions, items, queued := r.rows(); len(executions)+len(items)+len(queued) != 0 {
		t.Errorf("after a start whose job was refused: executions %v, items %v, jobs %v; want none", executions, items, queued)
	}
	if got := r.balance(org); got != 100 {
		t.Errorf("balance %d, want the 100 it had", got)
	}
	accept()
	if err := r.queue.Start(ctx, extraction(org, "extract-2", 30), nil); err != nil {
		t.Fatal(err)
	}
	if got := r.balance(org); got != 70 {
		t.Errorf("balance %d after the next start, want 70", got)
	}
}

// A crawl of a vendor with an active crawl returns that crawl, charging nothing and
// queueing nothing, whoever starts it; another organization joins it.
func TestASecondCrawlOfAVendorReturnsTheActiveOneUncharged(t *testing.T) {
	r := newStartRig(t)
	ctx := context.Background()
	owner, other := r.organization("owner", 100), r.organization("other", 100)
	if err := r.queue.Start(ctx, crawlOf(owner, "crawl-1", "shop.example", 10), nil); err != nil {
		t.Fatal(err)
	}
	for _, e := range []execution.Execution{crawlOf(owner, "crawl-2", "shop.example", 10), crawlOf(other, "crawl-3", "shop.example", 10)} {
		var active *execution.ActiveError
		if err := r.queue.Start(ctx, e, nil); !errors.As(err, &active) || active.Existing != "crawl-1" {
			t.Fatalf("start %s: %v, want ActiveError naming crawl-1", e.ID, err)
		}
	}
	executions, _, queued := r.rows()
	if !slices.Equal(executions, []string{"crawl-1"}) || !slices.Equal(queued, []string{"crawl-1"}) {
		t.Errorf("executions %v, jobs %v; want crawl-1 alone", executions, queued)
	}
	if got := r.balance(owner); got != 90 {
		t.Errorf("the owner's balance %d, want 90: charged once", got)
	}
	if got := r.balance(other); got != 100 {
		t.Errorf("the other organization's balance %d, want the 100 it had", got)
	}
	if _, err := postgres.NewExecutionStore(r.pool).Get(ctx, "crawl-1", other); err != nil {
		t.Errorf("the other organization reads the crawl it joined: %v", err)
	}
}
