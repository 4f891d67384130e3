package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/crawl"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

func migrated(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return postgrestest.Migrated(t, postgres.PoolOptions{})
}

func newOrg(t *testing.T, pool *pgxpool.Pool, name string) access.Organization {
	t.Helper()
	org, err := postgres.NewAccessStore(pool).CreateOrganization(context.Background(), name, 100, true)
	if err != nil {
		t.Fatal(err)
	}
	return org
}

func crawlOf(org, id, vendor string) execution.Execution {
	return execution.Execution{ID: id, Kind: execution.Crawl, OrganizationID: org, Vendor: vendor,
		Steps: execution.NewSteps("a", "b", "c")}
}

// starter starts executions over pool, queueing jobs that nothing works.
func starter(t *testing.T, pool *pgxpool.Pool) *jobs.Queue {
	t.Helper()
	queue, err := jobs.New(pool, nil, jobs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return queue
}

func TestOneActiveCrawlPerVendor(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store, starts := postgres.NewExecutionStore(pool), starter(t, pool)
	org := newOrg(t, pool, "acme")
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-1", "shop.example"), nil); err != nil {
		t.Fatal(err)
	}
	var active *execution.ActiveError
	err := starts.Start(ctx, crawlOf(org.ID, "crawl-2", "shop.example"), nil)
	if !errors.As(err, &active) || active.Existing != "crawl-1" {
		t.Fatalf("second crawl of the vendor: %v, want ActiveError naming crawl-1", err)
	}
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-3", "other.example"), nil); err != nil {
		t.Errorf("another vendor: %v", err)
	}
	if _, err := store.Cancel(ctx, "crawl-1", org.ID); err != nil {
		t.Fatal(err)
	}
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-4", "shop.example"), nil); err != nil {
		t.Errorf("after the first ended: %v", err)
	}
}

// Another organization's crawl of a running crawl's vendor joins it: that organization
// reads it and lists it, once however often it asks, but cannot cancel it; the crawl's own
// organization lists it once, and an organization that never asked does not see it.
func TestAnotherOrganizationJoinsTheRunningCrawl(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store, starts := postgres.NewExecutionStore(pool), starter(t, pool)
	owner, joiner, stranger := newOrg(t, pool, "owner"), newOrg(t, pool, "joiner"), newOrg(t, pool, "stranger")
	if err := starts.Start(ctx, crawlOf(owner.ID, "crawl-1", "shop.example"), nil); err != nil {
		t.Fatal(err)
	}
	for _, e := range []execution.Execution{crawlOf(owner.ID, "crawl-2", "shop.example"), crawlOf(joiner.ID, "crawl-3", "shop.example"), crawlOf(joiner.ID, "crawl-4", "shop.example")} {
		var active *execution.ActiveError
		if err := starts.Start(ctx, e, nil); !errors.As(err, &active) || active.Existing != "crawl-1" {
			t.Fatalf("start %s: %v, want ActiveError naming crawl-1", e.ID, err)
		}
	}
	ids := func(org string) []string {
		list, err := store.List(ctx, execution.Filter{OrganizationID: org, Kinds: []execution.Kind{execution.Crawl}, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range list {
			out = append(out, e.ID)
		}
		return out
	}
	for org, want := range map[string][]string{owner.ID: {"crawl-1"}, joiner.ID: {"crawl-1"}, stranger.ID: nil} {
		if got := ids(org); !slices.Equal(got, want) {
			t.Errorf("list of %s: %v, want %v", org, got, want)
		}
	}
	if e, err := store.Get(ctx, "crawl-1", joiner.ID); err != nil || e.OrganizationID != owner.ID {
		t.Errorf("the joiner's read: %+v %v, want the owner's crawl", e, err)
	}
	if _, err := store.Get(ctx, "crawl-1", stranger.ID); !errors.Is(err, execution.ErrNotFound) {
		t.Errorf("a stranger's read: %v, want ErrNotFound", err)
	}
	if _, err := store.Cancel(ctx, "crawl-1", joiner.ID); !errors.Is(err, execution.ErrNotFound) {
		t.Errorf("the joiner's cancel: %v, want ErrNotFound (the crawl is not its own)", err)
	}

	// Once the crawl has ended, the joiner's start is a crawl of its own, listed first.
	if _, err := store.Cancel(ctx, "crawl-1", owner.ID); err != nil {
		t.Fatal(err)
	}
	if err := starts.Start(ctx, crawlOf(joiner.ID, "crawl-5", "shop.example"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE executions SET created_at = created_at + interval '1 second' WHERE id = 'crawl-5'`); err != nil {
		t.Fatal(err)
	}
	if got, want := ids(joiner.ID), []string{"crawl-5", "crawl-1"}; !slices.Equal(got, want) {
		t.Errorf("list of the joiner after its own crawl: %v, want %v", got, want)
	}
}

// A crawl whose job cannot be queued charges nothing, as an extraction's or a search's
// does, and leaves no crawl behind, neither one running that would hold the vendor nor a
// failed one in the lists: the next start is a crawl of its own, charged once.
func TestACrawlThatCannotBeQueuedChargesNothing(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	executions, orgs, starts := postgres.NewExecutionStore(pool), postgres.NewAccessStore(pool), starter(t, pool)
	org := newOrg(t, pool, "acme")
	balance := func() int64 {
		t.Helper()
		o, err := orgs.Organization(ctx, org.ID)
		if err != nil {
			t.Fatal(err)
		}
		return o.Credits
	}
	crawls := func() int {
		t.Helper()
		list, err := executions.List(ctx, execution.Filter{OrganizationID: org.ID, Kinds: []execution.Kind{execution.Crawl}, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	acceptJobs := postgrestest.RefuseJobs(t, pool)
	if _, err := crawl.NewService(executions, starts, orgs, 10).Start(ctx, org.ID, "https://shop.example", nil); err == nil {
		t.Fatal("a crawl started with its job refused")
	}
	acceptJobs()
	if got := balance(); got != 100 {
		t.Errorf("balance %d after a start that failed, want the 100 it had", got)
	}
	// Nor does a start the balance cannot pay leave a crawl behind.
	var refused *failure.Error
	if _, err := crawl.NewService(executions, starts, orgs, 1000).Start(ctx, org.ID, "https://shop.example", nil); !errors.As(err, &refused) || refused.Kind != failure.InsufficientCredits {
		t.Fatalf("a crawl the balance cannot pay: %v, want InsufficientCredits", err)
	}
	if n := crawls(); n != 0 {
		t.Errorf("%d crawls listed after two starts that failed, want none", n)
	}
	started, err := crawl.NewService(executions, starts, orgs, 10).Start(ctx, org.ID, "https://shop.example", nil)
	if err != nil || started.Existing {
		t.Fatalf("the next start: %+v, %v; want a crawl of its own", started, err)
	}
	if got := balance(); got != 90 {
		t.Errorf("balance %d after one crawl, want 90", got)
	}
}

func TestExecutionsAreScopedToTheirOrganization(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store, starts := postgres.NewExecutionStore(pool), starter(t, pool)
	a, b := newOrg(t, pool, "a"), newOrg(t, pool, "b")
	if err := starts.Start(ctx, crawlOf(a.ID, "crawl-a", "shop.example"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(ctx, "crawl-a", b.ID); !errors.Is(err, execution.ErrNotFound) {
		t.Errorf("b reads a's execution: %v", err)
	}
	if _, err := store.Cancel(ctx, "crawl-a", b.ID); !errors.Is(err, execution.ErrNotFound) {
		t.Errorf("b cancels a's execution: %v", err)
	}
	if list, _ := store.List(ctx, execution.Filter{OrganizationID: b.ID, Kinds: []execution.Kind{execution.Crawl}, Limit: 10}); len(list) != 0 {
		t.Errorf("b lists %d executions", len(list))
	}
	if _, err := store.Get(ctx, "crawl-a", ""); err != nil {
		t.Errorf("unscoped read: %v", err)
	}
}

func TestRunnerReportsFinishesAndStopsOnCancel(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store, starts := postgres.NewExecutionStore(pool), starter(t, pool)
	org := newOrg(t, pool, "acme")
	runner := execution.NewRunner(store, execution.RunnerOptions{ReportEvery: 100 * time.Millisecond, LeaseTTL: time.Second})

	// A completed run saves its result and steps.
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-ok", "ok.example"), nil); err != nil {
		t.Fatal(err)
	}
	err := runner.Run(ctx, "crawl-ok", func(ctx context.Context, job *execution.Job) (any, error) {
		job.Step(0, execution.Running)
		job.SetProgress(map[string]int{"n": 1})
		time.Sleep(300 * time.Millisecond) // long enough for progress reports
		job.Step(2, execution.Running)
		job.Step(2, execution.Completed)
		return map[string]int{"total": 7}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := store.Get(ctx, "crawl-ok", org.ID)
	if e.Status != execution.Completed || string(e.Result) != `{"total": 7}` || e.StoppedAt == nil || e.Progress != nil {
		t.Errorf("completed execution: %+v result %s", e, e.Result)
	}
	for _, s := range e.Steps {
		if s.Status != execution.Completed {
			t.Errorf("step %s is %s", s.Name, s.Status)
		}
	}

	// A failed run records the message and the failed step; later steps stay pending.
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-bad", "bad.example"), nil); err != nil {
		t.Fatal(err)
	}
	_ = runner.Run(ctx, "crawl-bad", func(ctx context.Context, job *execution.Job) (any, error) {
		job.Step(1, execution.Running)
		return nil, errors.New("the site answered 500")
	})
	e, _ = store.Get(ctx, "crawl-bad", org.ID)
	want := []execution.Status{execution.Completed, execution.Failed, execution.Pending}
	if e.Status != execution.Failed || e.Error != "the site answered 500" {
		t.Errorf("failed execution: %s %q", e.Status, e.Error)
	}
	for i, s := range e.Steps {
		if s.Status != want[i] {
			t.Errorf("step %d is %s, want %s", i, s.Status, want[i])
		}
	}

	// A cancel stops the work within a report interval; the work done stays.
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-cancel", "slow.example"), nil); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan time.Time, 1)
	go func() {
		_ = runner.Run(ctx, "crawl-cancel", func(ctx context.Context, job *execution.Job) (any, error) {
			job.Step(2, execution.Running)
			<-ctx.Done()
			stopped <- time.Now()
			return nil, ctx.Err()
		})
	}()
	// The work's step is saved by a report of its own, just after the runner marks the
	// execution running: cancel once it is, as a client reading the status would.
	waitStep(t, store, "crawl-cancel", 2, execution.Running)
	canceledAt := time.Now()
	e, err = store.Cancel(ctx, "crawl-cancel", org.ID)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-stopped:
		if at.Sub(canceledAt) > 2*time.Second {
			t.Errorf("work stopped %s after the cancel", at.Sub(canceledAt))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("work did not stop after cancel")
	}
	e, _ = store.Get(ctx, "crawl-cancel", org.ID)
	if e.Status != execution.Failed || e.Error != execution.CanceledMessage || e.Steps[2].Status != execution.Failed {
		t.Errorf("canceled execution: %s %q %v", e.Status, e.Error, e.Steps)
	}
	if _, err := store.Cancel(ctx, "crawl-cancel", org.ID); !errors.Is(err, execution.ErrEnded) {
		t.Errorf("second cancel: %v, want ErrEnded", err)
	}
}

func waitStep(t *testing.T, store execution.Store, id string, step int, want execution.Status) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if e, err := store.Get(context.Background(), id, ""); err == nil && len(e.Steps) > step && e.Steps[step].Status == want {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("step %d of %s never became %s", step, id, want)
}

func TestLapsedLeasesAreResumedByAnotherRunner(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store, starts := postgres.NewExecutionStore(pool), starter(t, pool)
	org := newOrg(t, pool, "acme")
	if err := starts.Start(ctx, crawlOf(org.ID, "crawl-x", "x.example"), nil); err != nil {
		t.Fatal(err)
	}
	// A runner that dies holding the lease: acquire, never report.
	if _, ok, err := store.Acquire(ctx, "crawl-x", "dead", 200*time.Millisecond); err != nil || !ok {
		t.Fatalf("acquire: %v %v", ok, err)
	}
	if _, ok, _ := store.Acquire(ctx, "crawl-x", "other", time.Second); ok {
		t.Fatal("a held lease was taken")
	}
	if err := store.Report(ctx, execution.Lease{ExecutionID: "crawl-x", Owner: "dead"}, time.Millisecond, json.RawMessage(`{"done":["c1"]}`), nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	stranded, err := store.Stranded(ctx, []execution.Kind{execution.Crawl})
	if want := []execution.Stranded{{ID: "crawl-x", Kind: execution.Crawl}}; err != nil || !slices.Equal(stranded, want) {
		t.Fatalf("stranded: %v %v, want %v", stranded, err, want)
	}
	e, ok, err := store.Acquire(ctx, "crawl-x", "other", time.Second)
	if err != nil || !ok {
		t.Fatalf("taking over a lapsed lease: %v %v", ok, err)
	}
	if string(e.Progress) != `{"done": ["c1"]}` {
		t.Errorf("the successor does not see the saved progress: %s", e.Progress)
	}
	if err := store.Report(ctx, execution.Lease{ExecutionID: "crawl-x", Owner: "dead"}, time.Second, nil, nil); !errors.Is(err, execution.ErrLeaseLost) {
		t.Errorf("the dead runner's report: %v, want ErrLeaseLost", err)
	}
}

// Stranded lists, of the kinds asked, the executions whose runner's lease lapsed, oldest
// first; not those pending (their job waits for a runner), running under a live lease, or
// ended.
func TestStrandedListsLapsedExecutions(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	store, starts := postgres.NewExecutionStore(pool), starter(t, pool)
	org := newOrg(t, pool, "acme")
	for _, id := range []string{"crawl-pending", "crawl-taken", "crawl-canceled", "crawl-lapsed", "crawl-lapsed-first"} {
		if err := starts.Start(ctx, crawlOf(org.ID, id, id+".example"), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, err := store.Acquire(ctx, "crawl-taken", "runner", time.Minute); err != nil || !ok {
		t.Fatalf("acquire: %v %v", ok, err)
	}
	for _, id := range []string{"crawl-lapsed", "crawl-lapsed-first"} {
		if _, ok, err := store.Acquire(ctx, id, "dead", time.Millisecond); err != nil || !ok {
			t.Fatalf("acquire: %v %v", ok, err)
		}
	}
	if _, err := store.Cancel(ctx, "crawl-canceled", org.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE executions SET created_at = now() - interval '3 minutes' WHERE id = 'crawl-lapsed-first'`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // past the lapsed crawls' leases
	want := []execution.Stranded{{ID: "crawl-lapsed-first", Kind: execution.Crawl}, {ID: "crawl-lapsed", Kind: execution.Crawl}}
	if got, err := store.Stranded(ctx, []execution.Kind{execution.Extract, execution.Crawl}); err != nil || !slices.Equal(got, want) {
		t.Errorf("stranded crawls and extractions: %v %v, want %v", got, err, want)
	}
	if got, err := store.Stranded(ctx, []execution.Kind{execution.Extract}); err != nil || len(got) != 0 {
		t.Errorf("stranded extractions: %v %v, want none", got, err)
	}
}
