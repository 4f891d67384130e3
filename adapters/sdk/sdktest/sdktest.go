// Package sdktest builds adapter guests for tests: `go build` with GOOS=wasip1, once per
// package per test binary, into a temporary directory. The Go build cache makes repeated
// runs cheap.
package sdktest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

type build struct {
	once sync.Once
	wasm []byte
	err  error
	out  string
}

var builds sync.Map // package directory -> *build; a test binary's memo, never reset

// Build compiles the guest in dir (a directory of Go files, relative to the caller's
// package or absolute) and returns its .wasm bytes. It skips the test when no Go toolchain
// is on PATH, and fails it when the build fails.
func Build(tb testing.TB, dir string) []byte {
	tb.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		tb.Skip("no go toolchain to build guests")
	}
	wasm, err := Compile(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return wasm
}

// Compile is Build for code that has no testing.TB, such as an Example function: it
// returns an error where Build would skip or fail the test. Each directory is built once
// per test binary.
func Compile(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("build guest %s: %w", dir, err)
	}
	v, _ := builds.LoadOrStore(abs, &build{})
	b := v.(*build)
	b.once.Do(func() {
		tmp, err := os.MkdirTemp("", "stockroom-guest-*")
		if err != nil {
			b.err = err
			return
		}
		defer os.RemoveAll(tmp)
		outFile := filepath.Join(tmp, "guest.wasm")
		cmd := exec.Command(goTool, "build", "-buildmode=c-shared", "-o", outFile, ".")
		cmd.Dir = abs
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.err, b.out = err, string(out)
			return
		}
		b.wasm, b.err = os.ReadFile(outFile)
	})
	if b.err != nil {
		return nil, fmt.Errorf("build guest %s: %w\n%s", dir, b.err, b.out)
	}
	return b.wasm, nil
}

// CacheDir is a wazero compilation cache shared by test runs, so guests compile once per
// machine rather than once per run.
func CacheDir() string { return filepath.Join(os.TempDir(), "stockroom-wazero-test-cache") }
