package wasm_test

import (
	"context"
	"errors"
	"fmt"
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
<script type="application/ld+json">{"@type":"Product","offers":{"price":"12.50"},"description":"<p>Boils <b>fast</b></p>"}</script></body></html>`

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

func TestGuestShapesAndSplicesThroughTheHost(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1})
	resp, err := extract(m, "shape")
	if err != nil {
		t.Fatal(err)
	}
	p := resp.Product
	if p == nil || *p.Title != "Product|12.50|" {
		t.Fatalf("product %+v: want the title from three fields read in one call", p)
	}
	if len(p.Images) != 1 || p.Images[0].URL != "https://img/Product" || p.Images[0].Position != 1 {
		t.Errorf("spliced images = %+v", p.Images)
	}
	if p.Description == nil || *p.Description != "Boils fast" {
		t.Errorf("spliced description = %v", p.Description)
	}

	for path, want := range map[string]string{
		"badshape":  "$each needs $map",
		"badsplice": `"product.title" is not a member it takes`,
	} {
		_, err := extract(m, path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error = %v, want one saying %q", path, err, want)
		}
	}
	// Refused answers fail the call, not the instance.
	mustExtractOK(t, m)
}

func TestGuestFindsAncestorsByCSSThroughTheHost(t *testing.T) {
	// The li's nearest match of "body, ul" is the ul; the li itself is not its own
	// ancestor; nothing is above html; within the ul, body is not looked at.
	checkHostQuery(t, "ancestor", "ul|||", "badcss", "ul[")
}

func TestGuestSelectsByCSSThroughTheHost(t *testing.T) {
	// Both items in document order; the first match of "h1, li" is the heading, which
	// comes first; a node is not below itself.
	checkHostQuery(t, "select", "a,b|Kettle|", "badselect", "li[")
}

func TestGuestReadsTextsThroughTheHost(t *testing.T) {
	// The page's texts in document order but the last item's; the line break before the
	// script is a text of its own, empty; the script is not read. Then the heading's text,
	// and none once the heading itself is left out.
	checkHostQuery(t, "texts", "Kettle,a,|Kettle|0", "badtexts", "li[")
}

func TestGuestAsksNodesTogetherThroughTheHost(t *testing.T) {
	// Each answer at its node's index: the two items, a node that does not exist, the
	// heading; their texts, names and lists; the first list's first item; an attribute none
	// has; nothing for no nodes.
	checkHostQuery(t, "nodes", "a,b,,Kettle|li,li,,h1|ul,ul,,|a|,,,|0", "badnodes", "li[")
}

// checkHostQuery runs the conformance guest's query case path, whose answer is the
// product title want; then its case badPath, which must fail naming the bad CSS selector
// badSelector and leave the instance usable.
func checkHostQuery(t *testing.T, path, want, badPath, badSelector string) {
	t.Helper()
	m := loadGuest(t, wasm.Config{PoolSize: 1})
	resp, err := extract(m, path)
	if err != nil {
		t.Fatal(err)
	}
	if p := resp.Product; p == nil || *p.Title != want {
		t.Fatalf("product %+v: want the title %q", p, want)
	}
	if _, err := extract(m, badPath); err == nil || !strings.Contains(err.Error(), `css selector "`+badSelector+`"`) {
		t.Errorf("%s: error = %v, want one naming the selector", badPath, err)
	}
	mustExtractOK(t, m)
}

func TestGuestReadsAppStateThroughTheHost(t *testing.T) {
	m := loadGuest(t, wasm.Config{PoolSize: 1})
	body := `<html><body><h1>Kettle</h1><script>window.__INITIAL_STATE__ = {"pdp":{"product":{"name":"Kettle","price":"12.50"}}};</script>
<div data-product-json='{"name":"Cup","price":3}'></div></body></html>`
	doc := &adapter.Document{URL: "https://shop.test/appstate", Status: 200, Body: []byte(body)}
	resp, err := m.Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: doc.URL, Docs: []*adapter.Document{doc}})
	if err != nil {
		t.Fatal(err)
	}
	// Each object with its source, name and path, in document order; asked twice, the
	// same two.
	const want = "state __INITIAL_STATE__ pdp.product Kettle 12.50|attribute data-product-json  Cup 3|2"
	if p := resp.Product; p == nil || *p.Title != want {
		t.Fatalf("product %+v: want the title %q", p, want)
	}
	resp, err = extract(m, "appstate")
	if err != nil || resp.Product == nil || *resp.Product.Title != "|0" {
		t.Fatalf("a page without state: %+v %v, want no objects", resp, err)
	}
	mustExtractOK(t, m)
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
			if got := wasm.FailureOf(err); got != wasm.FailureTimeout {
				t.Errorf("failure %q, want %q", got, wasm.FailureTimeout)
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
	// A guest that exits is a trap. A panic the SDK recovered, and a query the guest got
	// wrong, are failures it reports itself: its instance stays usable.
	for path, failure := range map[string]string{"panic": wasm.FailureError, "exit": wasm.FailureTrap, "badxpath": wasm.FailureError} {
		_, err := extract(m, path)
		if err == nil {
			t.Fatalf("%s: call succeeded", path)
		}
		t.Logf("%s: %v", path, err)
		if got := wasm.FailureOf(err); got != failure {
			t.Errorf("%s: failure %q, want %q", path, got, failure)
		}
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

// tinyAdapter assembles the smallest adapter module: the ABI marker export marker
// (answering minor 0), stockroom_call, a memory, and an import from the stockroom module
// of each of imports, all typed (i32, i32) -> i32. When answer is set, stockroom_call
// passes it to the first import (which should be output) and returns 0; otherwise it
// just returns 0.
func tinyAdapter(marker string, imports []string, answer string) []byte {
	leb := func(n int) []byte {
		var b []byte
		for {
			c := byte(n & 0x7f)
			if n >>= 7; n != 0 {
				c |= 0x80
			}
			b = append(b, c)
			if n == 0 {
				return b
			}
		}
	}
	// i32.const takes a signed LEB128: a non-negative n ends on a byte without bit 6.
	const0 := func(n int) []byte {
		b := []byte{0x41}
		for {
			c := byte(n & 0x7f)
			n >>= 7
			if n == 0 && c&0x40 == 0 {
				return append(b, c)
			}
			b = append(b, c|0x80)
		}
	}
	name := func(s string) []byte { return append(leb(len(s)), s...) }
	vec := func(items ...[]byte) []byte {
		out := leb(len(items))
		for _, it := range items {
			out = append(out, it...)
		}
		return out
	}
	section := func(id byte, body []byte) []byte { return append(append([]byte{id}, leb(len(body))...), body...) }
	const i32 = 0x7f
	types := vec(
		[]byte{0x60, 2, i32, i32, 1, i32}, // imports
		[]byte{0x60, 0, 1, i32},           // the marker
		[]byte{0x60, 1, i32, 1, i32},      // stockroom_call
	)
	var imps [][]byte
	for _, fn := range imports {
		imps = append(imps, append(append(name("stockroom"), name(fn)...), 0, 0))
	}
	n := len(imports)
	body := func(code ...byte) []byte {
		return append(leb(len(code)+2), append(append([]byte{0}, code...), 0x0b)...)
	}
	call := body(const0(0)...)
	const at = 16
	if answer != "" {
		// output(at, len(answer)); drop; i32.const 0
		call = body(append(append(const0(at), const0(len(answer))...), 0x10, 0, 0x1a, 0x41, 0)...)
	}
	mod := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	mod = append(mod, section(1, types)...)
	mod = append(mod, section(2, vec(imps...))...)
	mod = append(mod, section(3, vec([]byte{1}, []byte{2}))...)
	mod = append(mod, section(5, vec([]byte{0, 1}))...)
	mod = append(mod, section(7, vec(
		append(name(marker), append([]byte{0}, leb(n)...)...),
		append(name("stockroom_call"), append([]byte{0}, leb(n+1)...)...),
		append(name("memory"), 2, 0),
	))...)
	mod = append(mod, section(10, vec(body(const0(0)...), call))...)
	if answer != "" {
		segment := append(append([]byte{0}, const0(at)...), 0x0b)
		mod = append(mod, section(11, vec(append(segment, name(answer)...)))...)
	}
	return mod
}

// abiV2Module is the smallest module that claims ABI v2.
func abiV2Module() []byte { return tinyAdapter("stockroom_abi_v2", nil, "") }

// A guest built against ABI 1.0, which imports only the functions 1.0 had, keeps running
// on a host of a later minor.
func TestGuestOfAnOlderMinorRuns(t *testing.T) {
	answer := `{"info": {"name": "old", "version": "1.0.0", "capabilities": ["extract"]}, "outcome": "non_product_url", "message": "from 1.0"}`
	rt := newRuntime(t, wasm.Config{PoolSize: 1})
	m, err := rt.Load(context.Background(), "old", tinyAdapter("stockroom_abi_v1", []string{"output", "pending"}, answer))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	resp, err := m.Call(context.Background(), &adapter.Request{Op: adapter.OpExtract, URL: "https://shop.test/x"})
	if err != nil || resp.Outcome != adapter.NonProductURL || resp.Message != "from 1.0" {
		t.Fatalf("old guest answered %+v, %v", resp, err)
	}
}

// A guest that imports a host function this host does not have (built for a later minor)
// is refused at load, with a message naming the adapter, the function and the host's ABI.
func TestGuestOfANewerMinorIsRefused(t *testing.T) {
	rt := newRuntime(t, wasm.Config{})
	_, err := rt.Load(context.Background(), "future", tinyAdapter("stockroom_abi_v1", []string{"output", "value_teleport"}, "{}"))
	if err == nil {
		t.Fatal("a module importing an unknown host function loaded")
	}
	want := fmt.Sprintf("v%d.%d", wasm.ABIMajor, wasm.ABIMinor)
	for _, s := range []string{"future", "stockroom.value_teleport", want, "newer ABI minor"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not say %q", err, s)
		}
	}
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
