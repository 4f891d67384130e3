package jobs_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// A start that died between creating its execution and queueing it left the execution
// pending with no job; the resumer queues it, once, and leaves alone a pending execution
// whose job waits for a runner.
func TestResumerQueuesExecutionsTheirStartNeverQueued(t *testing.T) {
	ctx := context.Background()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{})
	org, err := postgres.NewAccessStore(pool).CreateOrganization(ctx, "acme", 100, true)
	if err != nil {
		t.Fatal(err)
	}
	store := postgres.NewExecutionStore(pool)
	ran := make(chan string, 10)
	queue, err := jobs.New(pool, map[execution.Kind]jobs.Handler{
		execution.Crawl: func(_ context.Context, id string) error { ran <- id; return nil },
	}, jobs.Options{PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}

	for _, id := range []string{"crawl-stranded", "crawl-waiting"} {
		e := execution.Execution{ID: id, Kind: execution.Crawl, OrganizationID: org.ID, Vendor: id + ".example",
			Steps: execution.NewSteps("a")}
		if err := store.Create(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := queue.Enqueue(ctx, execution.Crawl, "crawl-waiting"); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE executions SET created_at = now() - interval '2 minutes'`); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"crawl-stranded": false, "crawl-waiting": true} {
		if got, err := queue.Queued(ctx, id); err != nil || got != want {
			t.Fatalf("Queued(%s) = %v %v, want %v", id, got, err, want)
		}
	}

	// Several passes of the resumer, the queue not working jobs yet.
	resumeCtx, stopResuming := context.WithCancel(ctx)
	resumed := make(chan struct{})
	go func() {
		defer close(resumed)
		(&execution.Resumer{Store: store, Queue: queue, Kinds: []execution.Kind{execution.Crawl}, Interval: 20 * time.Millisecond}).Run(resumeCtx)
	}()
	time.Sleep(300 * time.Millisecond)
	stopResuming()
	<-resumed
	rows, err := pool.Query(ctx, `SELECT args->>'execution_id', count(*) FROM river_job GROUP BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	jobsOf := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
		jobsOf[id] = n
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if jobsOf["crawl-stranded"] != 1 || jobsOf["crawl-waiting"] != 1 || len(jobsOf) != 2 {
		t.Fatalf("jobs per execution after the resumer: %v, want one each", jobsOf)
	}

	// Both run once the queue works.
	runCtx, stopRunning := context.WithTimeout(ctx, 30*time.Second)
	defer stopRunning()
	if err := queue.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = queue.Stop(ctx) }()
	seen := map[string]bool{}
	for len(seen) < 2 {
		select {
		case id := <-ran:
			seen[id] = true
		case <-runCtx.Done():
			t.Fatalf("executions run: %v, want crawl-stranded and crawl-waiting", seen)
		}
	}
}

// A job no notification announced (here written straight into River's table) is found
// by its kind's poll: within the kind's own interval where it has one, not before the
// default's.
func TestKindsPollAtTheirOwnIntervals(t *testing.T) {
	ctx := context.Background()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{})
	ran := make(chan execution.Kind, 10)
	run := func(kind execution.Kind) jobs.Handler {
		return func(context.Context, string) error { ran <- kind; return nil }
	}
	queue, err := jobs.New(pool, map[execution.Kind]jobs.Handler{execution.Crawl: run(execution.Crawl), execution.Extract: run(execution.Extract)},
		jobs.Options{PollInterval: time.Minute, PollIntervals: map[execution.Kind]time.Duration{execution.Crawl: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if err := queue.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = queue.Stop(ctx) })
	time.Sleep(300 * time.Millisecond) // past each queue's first look
	for _, kind := range []execution.Kind{execution.Crawl, execution.Extract} {
		if _, err := pool.Exec(ctx, `INSERT INTO river_job (args, kind, max_attempts, priority, queue, state, scheduled_at)
			VALUES (jsonb_build_object('execution_id', $1::text, 'kind', $1::text), 'execution', 5, 1, $1, 'available', now())`, string(kind)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case kind := <-ran:
		if kind != execution.Crawl {
			t.Fatalf("%s ran first: its poll is a minute apart", kind)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the crawl was not found by its 50 ms poll within 3 s")
	}
	select {
	case kind := <-ran:
		t.Fatalf("%s ran: its poll is a minute apart and nothing announced it", kind)
	case <-time.After(time.Second):
	}
}

// Starts that come together are each announced to the workers, whatever River's limit on
// announcements (one per queue and client in each fetch cooldown): none waits for a poll,
// here a minute apart. Several rounds, since whether a held-back announcement strands a
// job depends on when the workers' look runs.
func TestStartsThatComeTogetherAreEachAnnounced(t *testing.T) {
	ctx := context.Background()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{})
	ran := make(chan string, 100)
	queue, err := jobs.New(pool, map[execution.Kind]jobs.Handler{
		execution.AgenticSearch: func(_ context.Context, id string) error { ran <- id; return nil },
	}, jobs.Options{PollInterval: time.Minute, Workers: 50})
	if err != nil {
		t.Fatal(err)
	}
	if err := queue.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = queue.Stop(ctx) })
	time.Sleep(300 * time.Millisecond) // past the queue's first look

	const rounds, together = 5, 6
	for round := range rounds {
		started := time.Now()
		var wg sync.WaitGroup
		for i := range together {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := queue.Enqueue(ctx, execution.AgenticSearch, fmt.Sprintf("agentic-%d-%d", round, i)); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		for range together {
			select {
			case <-ran:
			case <-time.After(5 * time.Second):
				t.Fatalf("round %d: a start waited more than 5 s after %d started together (the poll is a minute apart)", round, together)
			}
		}
		t.Logf("round %d: %d starts ran within %s", round, together, time.Since(started).Round(time.Millisecond))
	}
}
