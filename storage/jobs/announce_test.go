package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/execution"
)

// batchRecorder is an announcer's insert that keeps the batches and when each began and
// ended; while hold is set, each insert waits for a value on it.
type batchRecorder struct {
	mu      sync.Mutex
	batches [][]string
	began   []time.Time
	ended   []time.Time
	hold    chan error
	entered chan struct{}
}

func (r *batchRecorder) insert(_ context.Context, batch []enqueued) error {
	r.mu.Lock()
	ids := make([]string, len(batch))
	for i, j := range batch {
		ids[i] = j.executionID
	}
	r.batches = append(r.batches, ids)
	r.began = append(r.began, time.Now())
	r.mu.Unlock()
	var err error
	if r.hold != nil {
		r.entered <- struct{}{}
		err = <-r.hold
	}
	r.mu.Lock()
	r.ended = append(r.ended, time.Now())
	r.mu.Unlock()
	return err
}

func start(id string) enqueued { return enqueued{kind: execution.AgenticSearch, executionID: id} }

// Starts that come while a batch is being inserted wait for it and go, all of them, into
// the next batch, which begins a cooldown after the first ended.
func TestStartsDuringABatchGoIntoTheNext(t *testing.T) {
	const cooldown = 30 * time.Millisecond
	rec := &batchRecorder{hold: make(chan error), entered: make(chan struct{})}
	a := &announcer{cooldown: cooldown, insert: rec.insert}
	ctx := context.Background()

	first := make(chan error, 1)
	go func() { first <- a.Insert(ctx, start("a")) }()
	<-rec.entered // "a" is being inserted

	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- a.Insert(ctx, start(fmt.Sprintf("b%d", i)))
		}()
	}
	waitFor(t, func() bool { a.mu.Lock(); defer a.mu.Unlock(); return len(a.waiting) == 4 })
	rec.hold <- nil // "a" committed
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	<-rec.entered
	rec.hold <- nil
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.batches) != 2 || !slices.Equal(rec.batches[0], []string{"a"}) || len(rec.batches[1]) != 4 {
		t.Fatalf("batches %v, want [a] then the four others together", rec.batches)
	}
	if gap := rec.began[1].Sub(rec.ended[0]); gap < cooldown {
		t.Fatalf("the second batch began %s after the first ended, less than the cooldown %s", gap, cooldown)
	}
}

// A lone start is inserted at once, and the goroutine that inserted it ends.
func TestALoneStartGoesAtOnce(t *testing.T) {
	rec := &batchRecorder{}
	a := &announcer{cooldown: time.Hour, insert: rec.insert}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Insert(ctx, start("a")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { a.mu.Lock(); defer a.mu.Unlock(); return !a.running })
}

// A batch's error is each of its starts'; a start whose context ended while it waited is
// left out of the next batch, and the others are inserted.
func TestBatchErrorsAndStartsThatGaveUp(t *testing.T) {
	rec := &batchRecorder{hold: make(chan error), entered: make(chan struct{})}
	a := &announcer{cooldown: time.Millisecond, insert: rec.insert}
	ctx := context.Background()

	first := make(chan error, 1)
	go func() { first <- a.Insert(ctx, start("a")) }()
	<-rec.entered

	gaveUp, giveUp := context.WithCancel(ctx)
	quitter := make(chan error, 1)
	go func() { quitter <- a.Insert(gaveUp, start("quitter")) }()
	stayer := make(chan error, 1)
	go func() { stayer <- a.Insert(ctx, start("stayer")) }()
	waitFor(t, func() bool { a.mu.Lock(); defer a.mu.Unlock(); return len(a.waiting) == 2 })
	giveUp()
	if err := <-quitter; !errors.Is(err, context.Canceled) {
		t.Fatalf("the start that gave up: %v, want context.Canceled", err)
	}

	refused := errors.New("database refused")
	rec.hold <- refused
	if err := <-first; !errors.Is(err, refused) {
		t.Fatalf("first start: %v, want the batch's error", err)
	}
	<-rec.entered
	rec.hold <- nil
	if err := <-stayer; err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !slices.Equal(rec.batches[1], []string{"stayer"}) {
		t.Fatalf("second batch %v, want only the start still waiting", rec.batches[1])
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}
