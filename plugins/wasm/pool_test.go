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
