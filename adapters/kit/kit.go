// Package kit is the adapter authoring kit behind `stockroom adapter`: run an adapter on
// a saved page, test one against saved pages with expected outputs, scaffold a new one.
// Everything works offline: follow-up fetches an adapter asks for fail with status 0
// unless a saved copy is given.
package kit

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/adapters/rank"
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
}

func (e Env) runtime(ctx context.Context) (*wasm.Runtime, error) {
	dir := e.CacheDir
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "stockroom", "wazero")
		}
	}
	log := e.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return wasm.New(ctx, wasm.Config{CacheDir: dir, PoolSize: 1, Logger: log})
}

// source loads the adapters a command runs: spec "" means every built-in, a name one
// built-in, a path ending in .wasm that module alone. The returned close releases them.
func (e Env) source(ctx context.Context, spec string) (adapter.Source, func(), error) {
	rt, err := e.runtime(ctx)
	if err != nil {
		return nil, nil, err
	}
	closeRT := func() { rt.Close(ctx) }
	if strings.HasSuffix(spec, ".wasm") {
		bin, err := os.ReadFile(spec)
		if err != nil {
			closeRT()
			return nil, nil, err
		}
		m, err := rt.Load(ctx, filepath.Base(spec), bin)
		if err != nil {
			closeRT()
			return nil, nil, err
		}
		return staticSource{m}, closeRT, nil
	}
	reg, err := e.builtins(ctx, rt)
	if err != nil {
		closeRT()
		return nil, nil, err
	}
	if spec == "" {
		return reg, closeRT, nil
	}
	for _, m := range reg.Modules() {
		if m.Info().Name == spec {
			return staticSource{m}, closeRT, nil
		}
	}
	closeRT()
	return nil, nil, fmt.Errorf("no built-in adapter %q", spec)
}

// serviceSource loads the adapters the service runs: every built-in and, when file is
// not "", that module beside them, loaded through the registry as the service loads one
// from its adapters directory. The module's manifest is the one beside it that names it,
// or, when there is none, its own name and version at priority 0. The returned close
// releases them.
func (e Env) serviceSource(ctx context.Context, file string) (adapter.Source, func(), error) {
	rt, err := e.runtime(ctx)
	if err != nil {
		return nil, nil, err
	}
	closeRT := func() { rt.Close(ctx) }
	reg, err := e.builtins(ctx, rt)
	if err == nil && file != "" {
		err = addModule(ctx, rt, reg, file)
	}
	if err != nil {
		closeRT()
		return nil, nil, err
	}
	return reg, closeRT, nil
}

// builtins is a registry of the built-in adapters loaded into rt.
func (e Env) builtins(ctx context.Context, rt *wasm.Runtime) (*registry.Registry, error) {
	reg := registry.New(rt, e.Logger)
	if err := reg.Sync(ctx, "builtin", builtin.FS, registry.Options{}); err != nil && len(reg.Modules()) == 0 {
		return nil, fmt.Errorf("built-in adapters: %w (run make wasm)", err)
	}
	return reg, nil
}

// addModule loads the adapter module at file into reg, with the manifests beside it that
// name it, or one made from the module's own name and version.
func addModule(ctx context.Context, rt *wasm.Runtime, reg *registry.Registry, file string) error {
	bin, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	dir, base := filepath.Dir(file), filepath.Base(file)
	fsys := fstest.MapFS{base: {Data: bin}}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var m registry.Manifest
		if json.Unmarshal(raw, &m) == nil && m.Name != "" && cmp.Or(m.File, m.Name+".wasm") == base {
			fsys[filepath.Base(p)] = &fstest.MapFile{Data: raw}
		}
	}
	if len(fsys) == 1 {
		mod, err := rt.Load(ctx, base, bin)
		if err != nil {
			return err
		}
		info := mod.Info()
		mod.Close(ctx)
		raw, _ := json.Marshal(registry.Manifest{Name: info.Name, Version: info.Version, File: base})
		fsys[info.Name+".json"] = &fstest.MapFile{Data: raw}
	}
	return reg.Sync(ctx, dir, fsys, registry.Options{})
}

type staticSource []adapter.Module

func (s staticSource) Modules() []adapter.Module { return s }

// savedPages serves documents from files: the page itself, and follow-ups from dir, where
// a follow-up URL is saved under its path with "/" replaced by "_" (for
// https://shop/products/x.json, products_x.json). Anything else fails as offline.
type savedPages struct {
	page *adapter.Document
	dir  string
}

func (s savedPages) Fetch(_ context.Context, rawURL string) (*adapter.Document, error) {
	if rawURL == s.page.URL {
		return s.page, nil
	}
	if s.dir != "" {
		if u, err := url.Parse(rawURL); err == nil {
			name := strings.ReplaceAll(strings.TrimPrefix(u.Path, "/"), "/", "_")
			if body, err := os.ReadFile(filepath.Join(s.dir, name)); err == nil && name != "" {
				return &adapter.Document{URL: rawURL, Status: 200, Body: body}, nil
			}
		}
	}
	return &adapter.Document{URL: rawURL, Err: "offline: no saved copy"}, nil
}

func savedPage(rawURL, file string) (*adapter.Document, error) {
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return &adapter.Document{URL: rawURL, Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: body}, nil
}

// extract runs the adapters of src over a saved page and renders the result as the kit
// prints it: the v2 product, or {"outcome", "message"}. It asks an adapter.Set, as the
// service does, so the merge rules are the service's.
func (e Env) extract(ctx context.Context, src adapter.Source, rawURL, file, docsDir string) (map[string]any, error) {
	set := &adapter.Set{Source: src, Logger: e.Logger}
	var page *adapter.Document
	if file != "" {
		var err error
		if page, err = savedPage(rawURL, file); err != nil {
			return nil, err
		}
	} else {
		page = &adapter.Document{URL: rawURL, Err: "no page given"}
	}
	set.Fetcher = savedPages{page: page, dir: docsDir}
	res, err := set.Extract(ctx, rawURL, page)
	if err != nil {
		return nil, err
	}
	if res.Product == nil {
		return map[string]any{"outcome": string(res.Outcome), "message": res.Message}, nil
	}
	return V2(res.Product, rawURL), nil
}

// Explain writes how the candidate ranker (adapters/rank) reads the saved page file, with
// the weights the built-in adapters ship: per field, the candidates with their source,
// features and score, and which won. It reads the page natively with the guest's code.
func (e Env) Explain(ctx context.Context, w io.Writer, rawURL, file string) error {
	body, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	g, err := rank.GatherPage(ctx, rawURL, body)
	if err != nil {
		return fmt.Errorf("explain %s: %w", file, err)
	}
	rank.Default().Rank(g).Explain(w)
	return nil
}
