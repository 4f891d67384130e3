// Package kit is the adapter authoring kit behind `stockroom adapter`: run the adapters
// on a saved page as the service runs them, test an adapter against saved pages with the
// answers expected of each operation, scaffold a new adapter, and install one into the
// service's adapters folder with its manifest. Everything works offline: follow-up
// fetches an adapter asks for fail with status 0 unless a saved copy is given.
package kit

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/registry"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// Env is what the kit's commands share.
type Env struct {
	// CacheDir is the compilation cache; "" means the user cache directory.
	CacheDir string
	// Logger receives the runtime's and registry's log lines; nil discards them.
	Logger *slog.Logger
	// AdaptersDir is the folder of third-party adapters the service loads beside the
	// built-ins (its adapters.dir); "" for none.
	AdaptersDir string
	// RequireChecksum refuses the adapters of AdaptersDir whose manifest has no sha256,
	// as the service's adapters.require_checksum does.
	RequireChecksum bool
}

func (e Env) logger() *slog.Logger {
	if e.Logger != nil {
		return e.Logger
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func (e Env) runtime(ctx context.Context) (*wasm.Runtime, error) {
	dir := e.CacheDir
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "stockroom", "wazero")
		}
	}
	return wasm.New(ctx, wasm.Config{CacheDir: dir, PoolSize: 1, Logger: e.logger()})
}

// isModuleFile reports whether spec names an adapter module file rather than an adapter.
func isModuleFile(spec string) bool { return strings.HasSuffix(spec, ".wasm") }

// alone loads the one adapter spec names, to run it by itself: a module file
// (FILE.wasm), or the name of a built-in adapter or of one in the adapters folder. The
// returned close releases it.
func (e Env) alone(ctx context.Context, spec string) (adapter.Source, func(), error) {
	rt, err := e.runtime(ctx)
	if err != nil {
		return nil, nil, err
	}
	closeRT := func() { rt.Close(ctx) }
	m, err := e.loadAlone(ctx, rt, spec)
	if err != nil {
		closeRT()
		return nil, nil, err
	}
	return staticSource{m}, closeRT, nil
}

func (e Env) loadAlone(ctx context.Context, rt *wasm.Runtime, spec string) (adapter.Module, error) {
	if isModuleFile(spec) {
		bin, err := os.ReadFile(spec)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(spec), ".wasm")
		if ms := manifestsBeside(spec); len(ms) == 1 {
			name = ms[0].Name
		}
		return rt.Load(ctx, name, bin)
	}
	reg, err := e.builtins(ctx, rt)
	if err != nil {
		return nil, err
	}
	if m := find(reg, spec); m != nil {
		return m, nil
	}
	known := names(reg)
	if e.AdaptersDir != "" {
		folder := registry.New(rt, e.logger())
		err := folder.Sync(ctx, e.AdaptersDir, os.DirFS(e.AdaptersDir), registry.Options{RequireChecksum: e.RequireChecksum})
		if m := find(folder, spec); m != nil {
			return m, nil
		}
		if err != nil {
			return nil, fmt.Errorf("no adapter %q: not a built-in, and the adapters folder %s: %w", spec, e.AdaptersDir, err)
		}
		known = append(known, names(folder)...)
	}
	return nil, fmt.Errorf("no adapter %q among %s (built-ins, and the adapters folder %q)", spec, strings.Join(known, ", "), e.AdaptersDir)
}

// service loads the adapters the service runs: every built-in and every adapter of the
// adapters folder, and, when file is not "", that module beside them, loaded through the
// registry as the service loads one from its adapters folder. The module's manifests are
// those beside it that name it or, when there are none, one made from its own name and
// version at priority 0; an adapter of the folder with the same name gives way to it, so
// that a new build of an installed adapter can be tried. The returned close releases
// them.
func (e Env) service(ctx context.Context, file string) (adapter.Source, func(), error) {
	rt, err := e.runtime(ctx)
	if err != nil {
		return nil, nil, err
	}
	closeRT := func() { rt.Close(ctx) }
	reg, err := e.builtins(ctx, rt)
	if err != nil {
		closeRT()
		return nil, nil, err
	}
	var module fstest.MapFS
	var replaced []string
	if file != "" {
		if module, replaced, err = moduleFS(ctx, rt, file); err != nil {
			closeRT()
			return nil, nil, err
		}
	}
	if e.AdaptersDir != "" {
		if _, err := os.Stat(e.AdaptersDir); err != nil {
			closeRT()
			return nil, nil, fmt.Errorf("adapters folder: %w", err)
		}
		// As in the service, an adapter of the folder that does not load is logged and
		// left out; the others run.
		_ = reg.Sync(ctx, e.AdaptersDir, withoutAdapters{os.DirFS(e.AdaptersDir), replaced}, registry.Options{RequireChecksum: e.RequireChecksum})
	}
	if file != "" {
		if err := reg.Sync(ctx, filepath.Dir(file), module, registry.Options{}); err != nil {
			closeRT()
			return nil, nil, err
		}
	}
	return reg, closeRT, nil
}

// builtins is a registry of the built-in adapters loaded into rt.
func (e Env) builtins(ctx context.Context, rt *wasm.Runtime) (*registry.Registry, error) {
	reg := registry.New(rt, e.logger())
	if err := reg.Sync(ctx, "builtin", builtin.FS, registry.Options{}); err != nil && len(reg.Modules()) == 0 {
		return nil, fmt.Errorf("built-in adapters: %w (run make wasm)", err)
	}
	return reg, nil
}

// moduleFS is the module at file with its manifests, as a directory the registry loads:
// the manifests beside it that name it, or one made from the module's own name and
// version. It also returns the names of the adapters it holds.
func moduleFS(ctx context.Context, rt *wasm.Runtime, file string) (fstest.MapFS, []string, error) {
	bin, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	base := filepath.Base(file)
	fsys := fstest.MapFS{base: {Data: bin}}
	var held []string
	for _, m := range manifestsBeside(file) {
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, nil, err
		}
		fsys[m.Name+".json"] = &fstest.MapFile{Data: raw}
		held = append(held, m.Name)
	}
	if len(held) == 0 {
		mod, err := rt.Load(ctx, strings.TrimSuffix(base, ".wasm"), bin)
		if err != nil {
			return nil, nil, err
		}
		info := mod.Info()
		mod.Close(ctx)
		raw, err := json.Marshal(registry.Manifest{Name: info.Name, Version: info.Version, File: base})
		if err != nil {
			return nil, nil, err
		}
		fsys[info.Name+".json"] = &fstest.MapFile{Data: raw}
		held = append(held, info.Name)
	}
	return fsys, held, nil
}

// manifestsBeside returns the manifests in the directory of the module file that name it.
// Their checksum is left out: a manifest beside a module being built is usually older
// than the build.
func manifestsBeside(file string) []registry.Manifest {
	base := filepath.Base(file)
	paths, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "*.json"))
	var out []registry.Manifest
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var m registry.Manifest
		if json.Unmarshal(raw, &m) == nil && m.Name != "" && cmp.Or(m.File, m.Name+".wasm") == base && filepath.Base(p) == m.Name+".json" {
			m.SHA256, m.File = "", base
			out = append(out, m)
		}
	}
	return out
}

// withoutAdapters is an adapters folder with the manifests of some adapters hidden.
type withoutAdapters struct {
	fs.FS
	hidden []string
}

func (w withoutAdapters) isHidden(name string) bool {
	base, ok := strings.CutSuffix(name, ".json")
	return ok && slices.Contains(w.hidden, base)
}

func (w withoutAdapters) Open(name string) (fs.File, error) {
	if w.isHidden(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.FS.Open(name)
}

func (w withoutAdapters) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(w.FS, name)
	return slices.DeleteFunc(entries, func(d fs.DirEntry) bool { return name == "." && w.isHidden(d.Name()) }), err
}

func find(reg *registry.Registry, name string) adapter.Module {
	for _, m := range reg.Modules() {
		if m.Info().Name == name {
			return m
		}
	}
	return nil
}

func names(reg *registry.Registry) []string {
	var out []string
	for _, m := range reg.Modules() {
		out = append(out, m.Info().Name)
	}
	return out
}

type staticSource []adapter.Module

func (s staticSource) Modules() []adapter.Module { return s }
