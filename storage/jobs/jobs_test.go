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
	if err := queue.StartWorking(ctx); err != nil {
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
	const rounds, together = 5, 6
	// Each start of a round is another organization's, so that none waits for another's
	// charge.
	var orgs [together]string
	for i := range orgs {
		org, err := postgres.NewAccessStore(pool).CreateOrganization(ctx, fmt.Sprintf("org-%d", i), 1000, true)
		if err != nil {
			t.Fatal(err)
		}
		orgs[i] = org.ID
	}
	ran := make(chan string, 100)
	queue, err := jobs.New(pool, map[execution.Kind]jobs.Handler{
		execution.AgenticSearch: func(_ context.Context, id string) error { ran <- id; return nil },
	}, jobs.Options{PollInterval: time.Minute, Workers: 50})
	if err != nil {
		t.Fatal(err)
	}
	if err := queue.StartWorking(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = queue.Stop(ctx) })
	time.Sleep(300 * time.Millisecond) // past the queue's first look

	for round := range rounds {
		started := time.Now()
		var wg sync.WaitGroup
		for i := range together {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := execution.Execution{ID: fmt.Sprintf("agentic-%d-%d", round, i), Kind: execution.AgenticSearch, OrganizationID: orgs[i], CreditsUsed: 1}
				if err := queue.Start(ctx, e, nil); err != nil {
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
