package registry_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/adapters/builtin"
	htmladapter "github.com/stockroom/stockroom/adapters/html"
	jsonldadapter "github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/plugins/registry"
	"github.com/stockroom/stockroom/plugins/wasm"
)

func newRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	rt, err := wasm.New(ctx, wasm.Config{CacheDir: sdktest.CacheDir(), PoolSize: 1, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	r := registry.New(rt, log)
	t.Cleanup(func() { r.Close(ctx); rt.Close(ctx) })
	return r
}

func names(r *registry.Registry) string {
	var out []string
	for _, m := range r.Modules() {
		out = append(out, m.Info().Name)
	}
	return strings.Join(out, ",")
}

func TestBuiltinsLoadInPriorityOrder(t *testing.T) {
	if _, err := builtin.FS.Open("builtin.wasm"); err != nil {
		t.Skip("built-in modules not built (run make wasm)")
	}
	r := newRegistry(t)
	if err := r.Sync(context.Background(), "builtin", builtin.FS, registry.Options{}); err != nil {
		t.Fatal(err)
	}
	// Platform adapters first (Shopify's ahead of those that came after it, then by name),
	// then the generic ones.
	if got := names(r); got != "shopify,amazon,ebay,magento,woocommerce,headless,html,jsonld" {
		t.Fatalf("modules = %s", got)
	}
}

func writeAdapter(t *testing.T, dir, name, version string, priority int, bin []byte, sum string) {
	t.Helper()
	if sum == "" {
		s := sha256.Sum256(bin)
		sum = hex.EncodeToString(s[:])
	}
	if err := os.WriteFile(filepath.Join(dir, name+".wasm"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf(`{"name":%q,"version":%q,"sha256":%q,"priority":%d}`, name, version, sum, priority)
	if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDirectoryChangesTakeEffectWithoutRestart(t *testing.T) {
	r := newRegistry(t)
	dir := t.TempDir()
	ctx := context.Background()
	sync := func() error { return r.Sync(ctx, dir, os.DirFS(dir), registry.Options{RequireChecksum: true}) }
	jsonld := sdktest.Build(t, "../../adapters/jsonld/guest")
	html := sdktest.Build(t, "../../adapters/html/guest")

	writeAdapter(t, dir, "jsonld", jsonldadapter.Version, 5, jsonld, "")
	writeAdapter(t, dir, "html", htmladapter.Version, 9, html, "")
	if err := sync(); err != nil || names(r) != "html,jsonld" {
		t.Fatalf("after adding: %s, %v", names(r), err)
	}

	// A changed manifest reloads the adapter.
	writeAdapter(t, dir, "jsonld", jsonldadapter.Version, 50, jsonld, "")
	if err := sync(); err != nil || names(r) != "jsonld,html" {
		t.Fatalf("after reprioritising: %s, %v", names(r), err)
	}

	// A module that does not match its checksum is refused; the loaded version stays.
	writeAdapter(t, dir, "html", htmladapter.Version, 9, html, strings.Repeat("0", 64))
	err := sync()
	if err == nil || !strings.Contains(err.Error(), "sha256") || names(r) != "jsonld,html" {
		t.Fatalf("after a bad checksum: %s, %v", names(r), err)
	}

	// A manifest that lies about the version is refused.
	writeAdapter(t, dir, "html", "2.0.0", 9, html, "")
	if err := sync(); err == nil || !strings.Contains(err.Error(), "2.0.0") {
		t.Fatalf("version mismatch: %v", err)
	}

	// Removing the files drops the adapter.
	os.Remove(filepath.Join(dir, "jsonld.json"))
	writeAdapter(t, dir, "html", htmladapter.Version, 9, html, "")
	if err := sync(); err != nil || names(r) != "html" {
		t.Fatalf("after removing: %s, %v", names(r), err)
	}
}

func TestWatchPicksUpNewAdapters(t *testing.T) {
	r := newRegistry(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Watch(ctx, dir, 20*time.Millisecond, registry.Options{})
	writeAdapter(t, dir, "html", htmladapter.Version, 1, sdktest.Build(t, "../../adapters/html/guest"), "")
	deadline := time.Now().Add(10 * time.Second)
	for names(r) != "html" {
		if time.Now().After(deadline) {
			t.Fatal("watch did not load the new adapter")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
