// Package registry keeps the set of loaded adapters: it reads adapter manifests from a
// file system (the built-ins embedded in the binary, a configured directory for
// third-party adapters), verifies and loads each adapter, and, for a directory, picks up
// added, changed and removed adapters while the server runs. It implements
// adapter.Source. Built-in adapters go through exactly the same life cycle.
package registry

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/wasm"
)

// Manifest describes one adapter: NAME.json beside NAME.wasm, or beside the module File
// names, which may hold several adapters (adapters/ABI.md, "Loading").
type Manifest struct {
	// Name must equal the name the adapter gives itself.
	Name string `json:"name"`
	// Version must equal the version the adapter gives itself.
	Version string `json:"version"`
	// File is the module's file name; default Name + ".wasm". Manifests of the adapters of
	// one module all name it.
	File string `json:"file,omitempty"`
	// SHA256 is the hex digest of the module; required for a directory loaded with
	// RequireChecksum, verified whenever present.
	SHA256 string `json:"sha256,omitempty"`
	// Priority orders adapters (higher first) within their kind: platform adapters always
	// run before generic ones.
	Priority int `json:"priority"`
}

// Validate reports the first problem of m, naming the key.
func (m *Manifest) Validate() error {
	switch {
	case m.Name == "":
		return errors.New("name: required")
	case strings.ContainsAny(m.Name, `/\ `):
		return fmt.Errorf("name: %q is not a plain name", m.Name)
	case m.Version == "":
		return errors.New("version: required")
	case m.SHA256 != "" && len(m.SHA256) != 64:
		return errors.New("sha256: want 64 hex digits")
	case m.File != "" && path.Base(m.File) != m.File:
		return fmt.Errorf("file: %q must be a file name in the manifest's directory", m.File)
	}
	return nil
}

func (m *Manifest) file() string { return cmp.Or(m.File, m.Name+".wasm") }

// Registry is the set of loaded adapters. Its methods are safe for concurrent use.
type Registry struct {
	rt  *wasm.Runtime
	log *slog.Logger

	mu      sync.Mutex // serialises Sync
	entries map[string]*entry
	snap    atomic.Pointer[[]adapter.Module]
}

type entry struct {
	manifest Manifest
	origin   string
	stamp    string
	mod      *wasm.Module
}

// New returns an empty registry loading adapters into rt. log defaults to slog.Default().
func New(rt *wasm.Runtime, log *slog.Logger) *Registry {
	if log == nil {
		log = slog.Default()
	}
	r := &Registry{rt: rt, log: log, entries: map[string]*entry{}}
	r.snap.Store(&[]adapter.Module{})
	return r
}

// Modules returns the loaded adapters, highest priority first. The slice is shared: do
// not modify it.
func (r *Registry) Modules() []adapter.Module { return *r.snap.Load() }

// Options tune one Sync.
type Options struct {
	// RequireChecksum refuses adapters whose manifest has no sha256. Set it for
	// directories anyone but the operator can write; the embedded built-ins are part of
	// the binary and need none.
	RequireChecksum bool
}

// Sync makes the adapters of origin (a name for fsys in messages and logs, such as
// "builtin" or a directory path) match the manifests at the root of fsys: new and changed
// adapters are loaded, removed ones dropped. An adapter that fails to load is logged and
// left out (a previous good version of it stays); the error joins every such failure.
func (r *Registry) Sync(ctx context.Context, origin string, fsys fs.FS, opts Options) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return fmt.Errorf("adapters %s: %w", origin, err)
	}
	var errs []error
	seen := map[string]bool{}
	for _, file := range names {
		name, err := r.syncOne(ctx, origin, fsys, file, opts)
		if name != "" {
			seen[name] = true
		}
		if err != nil {
			r.log.Error("adapter not loaded", "origin", origin, "manifest", file, "err", err)
			errs = append(errs, err)
		}
	}
	for name, e := range r.entries {
		if e.origin == origin && !seen[name] {
			r.log.Info("adapter removed", "adapter", name, "origin", origin)
			delete(r.entries, name)
			r.publish()
			e.mod.Close(ctx)
		}
	}
	return errors.Join(errs...)
}

// syncOne loads the adapter of one manifest if it is new or changed. It returns the
// adapter's name once the manifest is readable, so a broken new version does not count
// as a removal of the old one.
func (r *Registry) syncOne(ctx context.Context, origin string, fsys fs.FS, file string, opts Options) (string, error) {
	raw, err := fs.ReadFile(fsys, file)
	if err != nil {
		return "", fmt.Errorf("adapters %s: read %s: %w", origin, file, err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", fmt.Errorf("adapters %s: manifest %s: %w", origin, file, err)
	}
	if err := m.Validate(); err != nil {
		return "", fmt.Errorf("adapters %s: manifest %s: %w", origin, file, err)
	}
	if want := m.Name + ".json"; file != want {
		return "", fmt.Errorf("adapters %s: manifest %s must be named %s", origin, file, want)
	}
	stamp, err := stampOf(fsys, file, m.file(), raw)
	if err != nil {
		return m.Name, fmt.Errorf("adapter %s (%s): %w", m.Name, origin, err)
	}
	old := r.entries[m.Name]
	if old != nil && old.origin != origin {
		return "", fmt.Errorf("adapter %s (%s): name already taken by the adapter from %s", m.Name, origin, old.origin)
	}
	if old != nil && old.stamp == stamp {
		return m.Name, nil
	}
	mod, err := r.load(ctx, origin, fsys, &m, opts)
	if err != nil {
		return m.Name, err
	}
	r.entries[m.Name] = &entry{manifest: m, origin: origin, stamp: stamp, mod: mod}
	r.publish()
	r.log.Info("adapter loaded", "adapter", m.Name, "version", m.Version, "origin", origin, "priority", m.Priority)
	if old != nil {
		old.mod.Close(ctx)
	}
	return m.Name, nil
}

func (r *Registry) load(ctx context.Context, origin string, fsys fs.FS, m *Manifest, opts Options) (*wasm.Module, error) {
	bin, err := fs.ReadFile(fsys, m.file())
	if err != nil {
		return nil, fmt.Errorf("adapter %s (%s): %w", m.Name, origin, err)
	}
	if m.SHA256 == "" && opts.RequireChecksum {
		return nil, fmt.Errorf("adapter %s (%s): manifest has no sha256", m.Name, origin)
	}
	if m.SHA256 != "" {
		sum := sha256.Sum256(bin)
		if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, m.SHA256) {
			return nil, fmt.Errorf("adapter %s (%s): %s has sha256 %s, manifest says %s", m.Name, origin, m.file(), got, m.SHA256)
		}
	}
	start := time.Now()
	mod, err := r.rt.Load(ctx, m.Name, bin)
	if err != nil {
		return nil, err
	}
	info := mod.Info()
	if info.Name != m.Name || info.Version != m.Version {
		mod.Close(ctx)
		return nil, fmt.Errorf("adapter %s (%s): module says it is %s %s, manifest says %s %s",
			m.Name, origin, info.Name, info.Version, m.Name, m.Version)
	}
	r.log.Debug("adapter compiled", "adapter", m.Name, "elapsed", time.Since(start))
	return mod, nil
}

// stampOf identifies a version of an adapter's files without reading the module: the
// manifest's bytes and the module's size and modification time.
func stampOf(fsys fs.FS, manifest, module string, raw []byte) (string, error) {
	fi, err := fs.Stat(fsys, module)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	return fmt.Sprintf("%x/%d/%d", sum[:8], fi.Size(), fi.ModTime().UnixNano()), nil
}

// publish rebuilds the snapshot Modules returns; callers hold r.mu.
func (r *Registry) publish() {
	es := make([]*entry, 0, len(r.entries))
	for _, e := range r.entries {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b *entry) int {
		return cmp.Or(cmp.Compare(b.manifest.Priority, a.manifest.Priority), cmp.Compare(a.manifest.Name, b.manifest.Name))
	})
	mods := make([]adapter.Module, len(es))
	for i, e := range es {
		mods[i] = e.mod
	}
	r.snap.Store(&mods)
}

// Watch syncs the directory dir every interval until ctx ends, so adapters dropped into
// it, replaced or deleted take effect without a restart. Polling needs no platform
// support, survives the directory being replaced wholesale (a volume remount, an atomic
// rename of the directory), and a few stat calls every seconds cost nothing.
func (r *Registry) Watch(ctx context.Context, dir string, interval time.Duration, opts Options) {
	fsys := os.DirFS(dir)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		// Errors are logged by Sync; a broken adapter must not stop the watch.
		_ = r.Sync(ctx, dir, fsys, opts)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close unloads every adapter.
func (r *Registry) Close(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, e := range r.entries {
		delete(r.entries, name)
		e.mod.Close(ctx)
	}
	r.publish()
}
