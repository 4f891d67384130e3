package kit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	htmladapter "github.com/stockroom/stockroom/adapters/html"
	jsonldadapter "github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/plugins/registry"
	"github.com/stockroom/stockroom/plugins/wasm"
)

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// WriteManifests brings a folder's manifests up to date as the service reads them: a
// replaced module's checksum and version are rewritten with its priority kept, a module
// without a manifest gets one, and the folder then loads with checksums required.
func TestWriteManifestsMakesAFolderTheServiceLoads(t *testing.T) {
	jsonld := sdktest.Build(t, "../jsonld/guest")
	html := sdktest.Build(t, "../html/guest")
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An older build's manifest, and a module dropped in with none.
	write("jsonld.wasm", jsonld)
	write("jsonld.json", []byte(`{"name": "jsonld", "version": "0.9.0", "sha256": "`+strings.Repeat("0", 64)+`", "priority": 7}`))
	write("page-reader.wasm", html)

	var out bytes.Buffer
	env := Env{CacheDir: sdktest.CacheDir()}
	if err := env.WriteManifests(context.Background(), &out, dir); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := map[string]registry.Manifest{
		"jsonld": {Name: "jsonld", Version: jsonldadapter.Version, SHA256: digest(jsonld), Priority: 7},
		"html":   {Name: "html", Version: htmladapter.Version, SHA256: digest(html), File: "page-reader.wasm"},
	}
	got, err := readManifests(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range want {
		if got[name] != m {
			t.Errorf("%s.json: %+v, want %+v", name, got[name], m)
		}
	}

	reg := registry.New(mustRuntime(t, env), env.logger())
	if err := reg.Sync(context.Background(), dir, os.DirFS(dir), registry.Options{RequireChecksum: true}); err != nil {
		t.Fatalf("the service would refuse the folder: %v", err)
	}
	if n := len(reg.Modules()); n != 2 {
		t.Errorf("%d adapters loaded, want 2", n)
	}

	// A manifest whose module is gone is reported.
	os.Remove(filepath.Join(dir, "page-reader.wasm"))
	if err := env.WriteManifests(context.Background(), &out, dir); err == nil || !strings.Contains(err.Error(), "html.json") {
		t.Errorf("a manifest without its module: %v", err)
	}
}

// Install copies the module under its adapter's name and keeps the installed priority
// unless one is given.
func TestInstallKeepsTheInstalledPriority(t *testing.T) {
	jsonld := sdktest.Build(t, "../jsonld/guest")
	src := filepath.Join(t.TempDir(), "build.wasm")
	if err := os.WriteFile(src, jsonld, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	env := Env{CacheDir: sdktest.CacheDir()}
	var out bytes.Buffer
	if err := env.Install(context.Background(), &out, src, dir, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "jsonld.wasm")); err != nil || !bytes.Equal(b, jsonld) {
		t.Fatalf("module not copied as jsonld.wasm: %v", err)
	}
	priority := 30
	if err := env.Install(context.Background(), &out, src, dir, &priority); err != nil {
		t.Fatal(err)
	}
	if err := env.Install(context.Background(), &out, src, dir, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := readManifests(dir)
	if m := got["jsonld"]; m.Priority != 30 || m.SHA256 != digest(jsonld) || m.Version != jsonldadapter.Version {
		t.Errorf("manifest %+v, want priority 30 kept, the module's digest and version", m)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the folder holds %d files, want the module and its manifest", len(entries))
	}
}

func mustRuntime(t *testing.T, env Env) *wasm.Runtime {
	t.Helper()
	rt, err := env.runtime(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return rt
}
