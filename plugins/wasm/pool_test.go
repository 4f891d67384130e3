package wasm_test

import (
	"sync"
	"testing"

	"github.com/stockroom/stockroom/plugins/wasm"
)

// TestCallsNeverInstantiate pins down that the pool is filled at load and calls only
// check instances out: however many calls run, concurrently or not, no instance is
// created on the request path.
func TestCallsNeverInstantiate(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 3})
	if got := m.Instantiations(); got != 3 {
		t.Fatalf("after load: %d instantiations, want the pool's 3", got)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				if _, err := extract(m, "ok"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := m.Instantiations(); got != 3 {
		t.Errorf("after 200 calls: %d instantiations, want still 3", got)
	}
}

// GuestLoops counts the loop heads the guest passes: the same call about the same count
// every time once the guest has warmed up (its first call also initializes; then only its
// allocator's state moves the count, by a few), a loop of ten million iterations at least
// that many, and nothing without the instrumentation that counts them.
func TestGuestLoopsCountTheGuestsWork(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1})
	count := func(path string) int64 {
		t.Helper()
		before := m.GuestLoops()
		if _, err := extract(m, path); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return m.GuestLoops() - before
	}
	count("ok")
	first, second := count("ok"), count("ok")
	if first <= 0 || first-second > first/50 || second-first > first/50 {
		t.Errorf("a call counted %d loop heads, the same call again %d; want them within 2%%, above 0", first, second)
	}
	if n := count("guestloop"); n < 10_000_000 || n > 11_000_000 {
		t.Errorf("a loop of 10M iterations counted %d loop heads", n)
	}
	plain := loadGuest(t, wasm.Config{PoolSize: 1, Interrupt: wasm.InterruptContext})
	if _, err := extract(plain, "ok"); err != nil || plain.GuestLoops() != 0 {
		t.Errorf("uninstrumented: %d loop heads, err %v; want 0", plain.GuestLoops(), err)
	}
}
