package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/plugins/registry"
)

// runCLI runs the command line with args and returns its exit status and output.
func runCLI(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	status = run(context.Background(), args, &out, &errs)
	return status, out.String(), errs.String()
}

// Asked for help, the kit and each of its commands print their usage and succeed.
func TestAdapterHelpSucceeds(t *testing.T) {
	for _, args := range [][]string{
		{"adapter", "--help"}, {"adapter", "-h"}, {"adapter", "help"},
		{"adapter", "new", "--help"}, {"adapter", "test", "-h"}, {"adapter", "run", "--help"},
		{"adapter", "install", "--help"}, {"adapter", "manifest", "--help"},
	} {
		status, out, errs := runCLI(t, args...)
		if status != 0 || !strings.HasPrefix(out, "usage: stockroom adapter") || errs != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), status, out, errs)
		}
	}
	if status, _, errs := runCLI(t, "adapter", "new"); status != 2 || !strings.Contains(errs, "usage: stockroom adapter new NAME") {
		t.Errorf("adapter new without a name: exit %d, stderr %q", status, errs)
	}
}

// TestAnAuthorWritesAPrestaShopAdapter walks the authoring kit as a new author does:
// scaffold an adapter, write a PrestaShop one in its place (testdata/prestashop: the
// guest, and saved pages with what detect, discover, list and extract must answer),
// build it, test it, install it into an adapters folder, and run it there beside the
// built-in adapters as the service would.
func TestAnAuthorWritesAPrestaShopAdapter(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain to build adapters")
	}
	if _, err := builtin.FS.Open("builtin.wasm"); err != nil {
		t.Skip("built-in modules not built (run make wasm)")
	}
	// Compiled modules are kept across runs, away from the user's cache.
	t.Setenv("XDG_CACHE_HOME", filepath.Join(os.TempDir(), "stockroom-kit-test-cache"))
	root, _ := filepath.Abs("../..")
	dir := filepath.Join(t.TempDir(), "prestashop")
	if status, _, errs := runCLI(t, "adapter", "new", "prestashop", "--dir", dir, "--stockroom", root); status != 0 {
		t.Fatalf("adapter new: exit %d\n%s", status, errs)
	}
	// The author replaces the scaffold's adapter and pages with their own.
	os.RemoveAll(filepath.Join(dir, "testdata"))
	copyTree(t, "testdata/prestashop", dir)
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", "prestashop.wasm", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the adapter does not build: %v\n%s", err, out)
	}
	module := filepath.Join(dir, "prestashop.wasm")
	testdata := filepath.Join(dir, "testdata")

	status, out, errs := runCLI(t, "adapter", "test", module, testdata)
	for _, want := range []string{"ok   home detect", "ok   home discover", "ok   category list", "ok   product extract", "3 cases, 8 checks, 0 failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("adapter test printed no %q", want)
		}
	}
	if status != 0 {
		t.Fatalf("adapter test: exit %d\n%s%s", status, out, errs)
	}

	folder := t.TempDir()
	status, out, errs = runCLI(t, "adapter", "install", "--adapters", folder, module)
	if status != 0 || !strings.HasPrefix(out, "prestashop 0.1.0 (prestashop.wasm, sha256 ") {
		t.Fatalf("adapter install: exit %d\n%s%s", status, out, errs)
	}
	manifest := readManifest(t, filepath.Join(folder, "prestashop.json"))
	if manifest.Name != "prestashop" || manifest.Version != "0.1.0" || len(manifest.SHA256) != 64 || manifest.Priority != 10 {
		t.Errorf("installed manifest %+v, want prestashop 0.1.0 with its sha256 at the priority of the manifest beside the module", manifest)
	}
	// Writing the folder's manifests again changes nothing.
	if status, _, errs := runCLI(t, "adapter", "manifest", folder); status != 0 || readManifest(t, filepath.Join(folder, "prestashop.json")) != manifest {
		t.Errorf("adapter manifest: exit %d, manifest now %+v\n%s", status, readManifest(t, filepath.Join(folder, "prestashop.json")), errs)
	}

	// The service's configuration names the folder; the installed adapter runs beside
	// the built-ins, and is found by its name.
	t.Setenv("STOCKROOM_ADAPTERS__DIR", folder)
	category := filepath.Join(testdata, "category.html")
	status, out, errs = runCLI(t, "adapter", "run", "--op", "list", "--url", "https://atelier-lumiere.example/3-luminaires", "--file", category)
	var page struct {
		Platform, Adapter, Next string
		Listings                []struct{ URL, Title string }
	}
	if err := json.Unmarshal([]byte(out), &page); status != 0 || err != nil {
		t.Fatalf("adapter run --op list: exit %d, %v\n%s%s", status, err, out, errs)
	}
	if page.Platform != "prestashop" || page.Adapter != "prestashop" || len(page.Listings) != 2 || page.Next != "https://atelier-lumiere.example/3-luminaires?page=2" {
		t.Errorf("listed beside the built-ins: %s", out)
	}
	status, out, errs = runCLI(t, "adapter", "run", "--op", "detect", "--adapter", "prestashop", "--url", "https://atelier-lumiere.example/", "--file", filepath.Join(testdata, "home.html"))
	if status != 0 || !strings.Contains(out, `"platform": "prestashop"`) {
		t.Errorf("adapter run --adapter prestashop: exit %d\n%s%s", status, out, errs)
	}
	if status, out, errs := runCLI(t, "adapter", "test", "prestashop", testdata); status != 0 {
		t.Errorf("adapter test prestashop (installed): exit %d\n%s%s", status, out, errs)
	}
	// A new build runs in place of the installed adapter of its name.
	status, out, errs = runCLI(t, "adapter", "run", "--adapter", module, "--url", "https://atelier-lumiere.example/luminaires/19-lampe-de-bureau-laiton.html", "--file", filepath.Join(testdata, "product.html"))
	if status != 0 || !strings.Contains(out, `"sku": "LBL-01"`) || !strings.Contains(out, `"platform": "prestashop"`) {
		t.Errorf("adapter run --adapter FILE.wasm beside the installed one: exit %d\n%s%s", status, out, errs)
	}

	// A broken expectation fails with the field that differs.
	expected := filepath.Join(testdata, "category.expected.json")
	raw, _ := os.ReadFile(expected)
	os.WriteFile(expected, bytes.Replace(raw, []byte(`"alt_text": "Lampe de bureau en laiton"`), []byte(`"alt": "Lampe"`), 1), 0o644)
	status, out, _ = runCLI(t, "adapter", "test", module, testdata)
	if status != 1 || !strings.Contains(out, "listings[0].images[0].alt: unknown key; known here: alt_text,") {
		t.Errorf("an unknown key in an image: exit %d\n%s", status, out)
	}
}

func readManifest(t *testing.T, path string) registry.Manifest {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m registry.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// copyTree copies the files under src into dst, replacing those there.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
