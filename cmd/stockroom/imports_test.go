package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/stockroom/stockroom/"

// developmentTooling is what `make run`, `make test` and the tests use to stand a service
// up: local databases and demo stores. The service itself never needs it.
var developmentTooling = []string{"cmd/stockroom/internal/devstack", "examples/demo-store"}

// mayUseDevelopmentTooling says whether a package may depend on the development tooling:
// the commands (but not the composition root, cmd/stockroom/app, which is the service),
// the examples, and the search evaluation, which is a test harness.
func mayUseDevelopmentTooling(pkg string) bool {
	if under(pkg, "cmd/stockroom/app") {
		return false
	}
	return under(pkg, "cmd") || under(pkg, "examples") || under(pkg, "evaluation")
}

// coreMustNotReach are the layers above and beside core: core defines the interfaces
// they implement, and never imports them.
var coreMustNotReach = []string{"storage", "server", "plugins"}

// importRuleBreaches lists how the packages break the rules, given each package's
// dependencies (direct and indirect, test files left out), as paths in the module.
func importRuleBreaches(deps map[string][]string) []string {
	var breaches []string
	for _, pkg := range slices.Sorted(maps.Keys(deps)) {
		for _, dep := range deps[pkg] {
			for _, tool := range developmentTooling {
				if under(dep, tool) && !under(pkg, tool) && !mayUseDevelopmentTooling(pkg) {
					breaches = append(breaches, fmt.Sprintf("%s depends on the development tooling %s", pkg, dep))
				}
			}
			if !under(pkg, "core") {
				continue
			}
			for _, layer := range coreMustNotReach {
				if under(dep, layer) {
					breaches = append(breaches, fmt.Sprintf("%s (core) depends on %s", pkg, dep))
				}
			}
		}
	}
	return breaches
}

// under says whether pkg is dir or inside it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// moduleDependencies asks `go list` for each package of the module and the module's
// packages it depends on, its test files left out, as paths in the module.
func moduleDependencies(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Deps,Error", module+"...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	deps := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Deps       []string
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		pkg := strings.TrimPrefix(p.ImportPath, module)
		deps[pkg] = []string{}
		for _, d := range p.Deps {
			if rest, ok := strings.CutPrefix(d, module); ok {
				deps[pkg] = append(deps[pkg], rest)
			}
		}
	}
	return deps
}

// Only the commands and tests use the development tooling (local databases, demo stores),
// and core reaches none of storage, server and plugins, directly or through another
// package.
func TestPackagesKeepToTheirLayers(t *testing.T) {
	deps := moduleDependencies(t)
	for _, pkg := range []string{"core/crawl", "cmd/stockroom/app", "cmd/stockroom/internal/devstack", "examples/demo-store"} {
		if _, ok := deps[pkg]; !ok {
			t.Fatalf("go list did not list %s; the rules below would check nothing", pkg)
		}
	}
	for _, breach := range importRuleBreaches(deps) {
		t.Error(breach)
	}
}

// The rules name each breach in a dependency graph, and let the commands, the examples
// and the evaluation use the development tooling.
func TestImportRulesCatchBreaches(t *testing.T) {
	deps := map[string][]string{
		"cmd/stockroom":                   {"cmd/stockroom/app", "cmd/stockroom/internal/devstack", "examples/demo-store"},
		"cmd/stockroom/internal/devstack": {"cmd/stockroom/app", "examples/demo-store"},
		"evaluation":                      {"examples/demo-store"},
		"examples/demo-store/cmd/demo":    {"examples/demo-store"},
		"core/search":                     {"core/usage"},
		// Breaches:
		"cmd/stockroom/app": {"core/crawl", "cmd/stockroom/internal/devstack"},
		"server":            {"core/search", "evaluation", "examples/demo-store"},
		"core/crawl":        {"core/adapter", "plugins/wasm"},
		"core/extract":      {"core/fetch", "storage/postgres"},
		"core/usage":        {"server"},
	}
	want := []string{
		"cmd/stockroom/app depends on the development tooling cmd/stockroom/internal/devstack",
		"core/crawl (core) depends on plugins/wasm",
		"core/extract (core) depends on storage/postgres",
		"core/usage (core) depends on server",
		"server depends on the development tooling examples/demo-store",
	}
	if got := importRuleBreaches(deps); !slices.Equal(got, want) {
		t.Errorf("breaches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
