package wasm

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/builtin"
)

// The adapters of one module share its compiled code: each instance serves the adapter it
// is loaded as, the code outlives any one of them and goes with the last, and a name the
// module does not hold is refused with the names it does.
func TestAdaptersOfOneModuleShareItsCompiledCode(t *testing.T) {
	bin, err := builtin.FS.ReadFile("builtin.wasm")
	if err != nil {
		t.Skipf("builtin.wasm not built (make wasm): %v", err)
	}
	ctx := context.Background()
	rt, err := New(ctx, Config{PoolSize: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	compiled := func() int {
		rt.mu.Lock()
		defer rt.mu.Unlock()
		return len(rt.code)
	}

	loaded := map[string]*Module{}
	for _, name := range []string{"shopify", "jsonld", "html"} {
		m, err := rt.Load(ctx, name, bin)
		if err != nil {
			t.Fatalf("load %s: %v", name, err)
		}
		if got := m.Info().Name; got != name {
			t.Errorf("loaded as %s, the instance serves %s", name, got)
		}
		loaded[name] = m
	}
	if n := compiled(); n != 1 {
		t.Fatalf("three adapters of one module: %d compiled modules, want 1", n)
	}

	if _, err := rt.Load(ctx, "acme", bin); err == nil || !strings.Contains(err.Error(), "holds the adapters shopify, woocommerce, magento, amazon, ebay, headless, jsonld, html") {
		t.Errorf("an adapter the module lacks: %v", err)
	}
	loaded["html"].Close(ctx)
	loaded["jsonld"].Close(ctx)
	// The code is still there for the adapter left, and for one loaded again.
	again, err := rt.Load(ctx, "jsonld", bin)
	if err != nil || again.Info().Name != "jsonld" || compiled() != 1 {
		t.Fatalf("jsonld loaded again beside shopify: %v, %d compiled modules", err, compiled())
	}
	again.Close(ctx)
	loaded["shopify"].Close(ctx)
	if n := compiled(); n != 0 {
		t.Errorf("every adapter closed: %d compiled modules left", n)
	}
}
