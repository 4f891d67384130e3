package wasm_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

func newRuntime(t testing.TB, cfg wasm.Config) *wasm.Runtime {
	t.Helper()
	if cfg.CacheDir == "" {
		cfg.CacheDir = sdktest.CacheDir()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	rt, err := wasm.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}

func loadGuest(t testing.TB, cfg wasm.Config) *wasm.Module {
	t.Helper()
	rt := newRuntime(t, cfg)
	m, err := rt.Load(context.Background(), "conformance", sdktest.Build(t, "testdata/guest"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

const page = `<html><body><h1>Kettle</h1><ul><li>a</li><li>b</li></ul>
<script type="application/ld+json">{"@type":"Product","offers":{"price":"12.50"}}</script></body></html>`

func extract(m *wasm.Module, path string) (*adapter.Response, error) {
	doc := &adapter.Document{URL: "https://shop.test/" + path, Status: 200, Header: http.Header{"X-Sku": {"K-1"}}, Body: []byte(page)}
	return m.Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: doc.URL, Docs: []*adapter.Document{doc}})
}

func mustExtractOK(t *testing.T, m *wasm.Module) {
	t.Helper()
	resp, err := extract(m, "ok")
	if err != nil {
		t.Fatalf("a normal call after the failure failed: %v", err)
	}
	p := resp.Product
	if p == nil || *p.Title != "Kettle" || *p.SKU != "K-1!!" || p.Price.Current != 12.5 {
		t.Fatalf("normal call answered %+v", resp)
	}
}

func TestGuestAnswersThroughHostFunctions(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1})
	if info := m.Info(); info.Name != "conformance" || !info.Can(adapter.OpExtract) || info.Can(adapter.OpDetect) {
		t.Fatalf("info = %+v", info)
	}
	mustExtractOK(t, m)

	resp, err := extract(m, "missing")
	if err != nil || resp.Outcome != adapter.NonProductURL || resp.Message != "nothing here" {
		t.Fatalf("missing: %+v, %v", resp, err)
	}
	resp, err = extract(m, "need")
	if err != nil || len(resp.Fetch) != 1 || resp.Fetch[0] != "https://shop.test/extra.json" {
		t.Fatalf("need: %+v, %v", resp, err)
	}
}

func TestUnknownABIMajorIsRefused(t *testing.T) {
	rt := newRuntime(t, wasm.Config{})
	_, err := rt.Load(context.Background(), "future", abiV2Module())
	if err == nil {
		t.Fatal("a v2 module loaded")
	}
	for _, want := range []string{"future", "v2", "v1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

func TestRunawayLoopIsStoppedWithinItsDeadline(t *testing.T) {
	for name, mode := range map[string]wasm.Interrupt{"instrumented": wasm.InterruptInstrumented, "context": wasm.InterruptContext} {
		t.Run(name, func(t *testing.T) {
			m := loadGuest(t, wasm.Config{PoolSize: 1, CallTimeout: 200 * time.Millisecond, Interrupt: mode})
			start := time.Now()
			_, err := extract(m, "spin")
			if err == nil || !strings.Contains(err.Error(), "deadline") {
				t.Fatalf("err = %v, want a deadline error", err)
			}
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Fatalf("runaway call took %v, deadline 200ms", elapsed)
			}
			mustExtractOK(t, m)
		})
	}
}

// Compiled guest code has no preemption points: a garbage collection that starts while a
// guest spins must still end, or it stops every goroutine of the server, the deadline's
// timer included. A regression here hangs the test binary until go test kills it.
func TestRunawayLoopIsStoppedWhileTheCollectorRuns(t *testing.T) {
	for name, mode := range map[string]wasm.Interrupt{"instrumented": wasm.InterruptInstrumented, "context": wasm.InterruptContext} {
		t.Run(name, func(t *testing.T) {
			m := loadGuest(t, wasm.Config{PoolSize: 1, CallTimeout: 300 * time.Millisecond, Interrupt: mode})
			collected := make(chan struct{})
			go func() {
				defer close(collected)
				time.Sleep(50 * time.Millisecond) // the guest is spinning by now
				runtime.GC()
			}()
			start := time.Now()
			_, err := extract(m, "spin")
			if err == nil || !strings.Contains(err.Error(), "deadline") {
				t.Fatalf("err = %v, want a deadline error", err)
			}
			<-collected
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Fatalf("runaway call took %v, deadline 300ms", elapsed)
			}
			mustExtractOK(t, m)
		})
	}
}

func TestCallerCancellationStopsTheGuest(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1, CallTimeout: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	doc := &adapter.Document{URL: "https://shop.test/spin", Status: 200, Body: []byte(page)}
	start := time.Now()
	if _, err := m.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: doc.URL, Docs: []*adapter.Document{doc}}); err == nil {
		t.Fatal("a cancelled runaway call succeeded")
	}
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Fatalf("cancelled call took %v", elapsed)
	}
	mustExtractOK(t, m)
}

func TestMemoryBombIsCapped(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1, MemoryLimit: 32 << 20})
	if _, err := extract(m, "bomb"); err == nil {
		t.Fatal("memory bomb succeeded")
	}
	mustExtractOK(t, m)
}

func TestPanickingGuestIsIsolated(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1})
	for _, path := range []string{"panic", "exit", "badxpath"} {
		_, err := extract(m, path)
		if err == nil {
			t.Fatalf("%s: call succeeded", path)
		}
		t.Logf("%s: %v", path, err)
		mustExtractOK(t, m)
	}
}

func TestOutputIsCapped(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1, MaxOutput: 1 << 20})
	_, err := extract(m, "big")
	if err == nil || !strings.Contains(err.Error(), "cap") {
		t.Fatalf("err = %v, want the output cap", err)
	}
	mustExtractOK(t, m)
}

func TestCallWaitsForAnInstanceAndHonoursCancel(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1, CallTimeout: time.Second})
	go extract(m, "spin") // holds the only instance for a second
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := m.Call(ctx, &adapter.Request{Op: adapter.OpExtract, URL: "https://shop.test/ok"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
}

// abiV2Module is the smallest module that claims ABI v2: the marker and stockroom_call,
// both returning 0.
func abiV2Module() []byte {
	name := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	section := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	var exports []byte
	exports = append(exports, 2)
	exports = append(append(exports, name("stockroom_abi_v2")...), 0, 0)
	exports = append(append(exports, name("stockroom_call")...), 0, 1)
	mod := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	mod = append(mod, section(1, 1, 0x60, 0, 1, 0x7f)...)
	mod = append(mod, section(3, 2, 0, 0)...)
	mod = append(mod, section(7, exports...)...)
	mod = append(mod, section(10, 2, 4, 0, 0x41, 0, 0x0b, 4, 0, 0x41, 0, 0x0b)...)
	return mod
}

func TestConcurrentCallsShareThePool(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 2})
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var err error
			for range 20 {
				var resp *adapter.Response
				if resp, err = extract(m, "ok"); err == nil && *resp.Product.Title != "Kettle" {
					err = errors.New("wrong answer")
				}
				if err != nil {
					break
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
