package wasm

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// ABIMajor is the only guest ABI major this host runs; ABIMinor the newest minor it
// serves. Minors only add host functions, so a guest of any minor up to ABIMinor runs.
const (
	ABIMajor = 1
	ABIMinor = 7
)

// Config tunes a Runtime. Each zero field means its documented default.
type Config struct {
	// CacheDir keeps compiled adapters across restarts (wazero's compilation cache), so a
	// restart loads an adapter in tens of milliseconds instead of seconds. "" keeps them in
	// memory only.
	CacheDir string
	// MemoryLimit caps each instance's linear memory, in bytes. Default 64 MiB.
	MemoryLimit uint64
	// RecycleAbove replaces an instance after a call that left its memory above this many
	// bytes, so one huge page does not pin memory forever. Default 48 MiB.
	RecycleAbove uint64
	// PoolSize is the number of ready instances per adapter. Default 2.
	PoolSize int
	// CallTimeout bounds one round of one call. Default 5 s.
	CallTimeout time.Duration
	// MaxOutput caps the bytes a guest may answer with. Default 4 MiB.
	MaxOutput int
	// Interrupt chooses how a deadline stops a running guest; the zero value is
	// InterruptInstrumented.
	Interrupt Interrupt
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.MemoryLimit == 0 {
		c.MemoryLimit = 64 << 20
	}
	if c.RecycleAbove == 0 {
		c.RecycleAbove = 48 << 20
	}
	if c.PoolSize <= 0 {
		c.PoolSize = 2
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 5 * time.Second
	}
	if c.MaxOutput <= 0 {
		c.MaxOutput = 4 << 20
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Interrupt is a way to stop a guest that overruns its deadline. RATIONALE.md compares
// their costs.
type Interrupt int

const (
	// InterruptInstrumented adds a flag check at every loop head of the guest when it is
	// loaded, and sets the flag when the deadline passes. Modules the rewriter cannot read
	// (SIMD, exceptions) fall back to InterruptContext.
	InterruptInstrumented Interrupt = iota
	// InterruptContext uses wazero's WithCloseOnContextDone: slower guest code, any module.
	InterruptContext
	// InterruptNone never stops a running guest: a runaway loop holds its goroutine and a
	// core for good. Only for benchmarks.
	InterruptNone
)

// Runtime compiles and runs adapters. One Runtime serves every adapter of a process.
type Runtime struct {
	cfg   Config
	cache wazero.CompilationCache
	// rt runs guests that need no wazero interruption (instrumented, or none);
	// ctxRT, made on first need, those wazero must interrupt itself.
	rt      wazero.Runtime
	ctxOnce sync.Once
	ctxRT   wazero.Runtime
	ctxErr  error

	// code, guarded by mu, holds the compiled modules of the loaded adapters by the digest
	// of the module as given, so that adapters of one module share it. The built-ins are
	// one module (adapters/bundle), compiled once rather than once per adapter, which
	// saves the machine code and decoded module of every adapter but one.
	mu   sync.Mutex
	code map[[sha256.Size]byte]*sharedCode
}

// sharedCode is one compiled module and the number of loaded adapters running it.
type sharedCode struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	refs     int
}

// New returns a Runtime with the WASI and stockroom host modules ready.
func New(ctx context.Context, cfg Config) (*Runtime, error) {
	cfg = cfg.withDefaults()
	r := &Runtime{cfg: cfg, code: map[[sha256.Size]byte]*sharedCode{}}
	if cfg.CacheDir != "" {
		var err error
		if r.cache, err = wazero.NewCompilationCacheWithDir(cfg.CacheDir); err != nil {
			return nil, fmt.Errorf("wasm: compilation cache %s: %w", cfg.CacheDir, err)
		}
	}
	var err error
	if r.rt, err = r.newWazero(ctx, cfg.Interrupt == InterruptContext); err != nil {
		r.Close(ctx)
		return nil, err
	}
	return r, nil
}

func (r *Runtime) newWazero(ctx context.Context, closeOnDone bool) (wazero.Runtime, error) {
	rc := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(uint32(r.cfg.MemoryLimit / 65536)).
		WithCloseOnContextDone(closeOnDone)
	if r.cache != nil {
		rc = rc.WithCompilationCache(r.cache)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	// WASI is there because the Go runtime needs it to start (clocks, random, stderr);
	// wazero's defaults make the clocks and random source deterministic and there is no
	// file system or network, which keeps adapters pure.
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasm: instantiate WASI: %w", err)
	}
	if _, err := hostModule(rt).Instantiate(ctx); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("wasm: instantiate host module: %w", err)
	}
	return rt, nil
}

// contextRuntime returns the runtime whose guests wazero interrupts itself.
func (r *Runtime) contextRuntime(ctx context.Context) (wazero.Runtime, error) {
	if r.cfg.Interrupt == InterruptContext {
		return r.rt, nil
	}
	r.ctxOnce.Do(func() { r.ctxRT, r.ctxErr = r.newWazero(ctx, true) })
	return r.ctxRT, r.ctxErr
}

// Close releases the runtime and every module loaded in it.
func (r *Runtime) Close(ctx context.Context) error {
	var err error
	if r.rt != nil {
		err = r.rt.Close(ctx)
	}
	if r.ctxRT != nil {
		r.ctxRT.Close(ctx)
	}
	if r.cache != nil {
		r.cache.Close(ctx)
	}
	return err
}

// Load compiles wasm as the adapter name, checks its ABI, fills its instance pool and asks
// it to describe itself. name is the adapter the module's instances are told to serve
// (AdapterEnv), which matters only to a module holding several; it names the adapter in
// messages until its own Info is known. Adapters loaded from the same module share its
// compiled code.
func (r *Runtime) Load(ctx context.Context, name string, wasm []byte) (*Module, error) {
	key := sha256.Sum256(wasm)
	code, err := r.acquire(ctx, name, key, wasm)
	if err != nil {
		return nil, err
	}
	// Once only: a module failing to start is closed, and then released here again.
	var once sync.Once
	release := func(ctx context.Context) (err error) {
		once.Do(func() { err = r.release(ctx, key) })
		return err
	}
	m := &Module{name: name, rt: code.rt, compiled: code.compiled, cfg: r.cfg, log: r.cfg.Logger.With("adapter", name), release: release}
	if err := m.start(ctx); err != nil {
		_ = m.release(ctx)
		return nil, err
	}
	return m, nil
}

// acquire returns the compiled module of wasm, compiling it unless an adapter loaded from
// the same module holds it already.
func (r *Runtime) acquire(ctx context.Context, name string, key [sha256.Size]byte, wasm []byte) (*sharedCode, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if code := r.code[key]; code != nil {
		code.refs++
		return code, nil
	}
	rt := r.rt
	wasm = coalesceData(wasm)
	if r.cfg.Interrupt == InterruptInstrumented {
		instrumented, err := instrument(wasm)
		switch {
		case errors.Is(err, errUninstrumentable):
			r.cfg.Logger.Info("adapter falls back to wazero interruption", "adapter", name, "reason", err)
			if rt, err = r.contextRuntime(ctx); err != nil {
				return nil, err
			}
		case err != nil:
			return nil, fmt.Errorf("adapter %s: %w", name, err)
		default:
			wasm = instrumented
		}
	}
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("adapter %s: compile: %w", name, err)
	}
	if err := checkABI(name, compiled, rt.Module(hostModuleName)); err != nil {
		compiled.Close(ctx)
		return nil, err
	}
	code := &sharedCode{rt: rt, compiled: compiled, refs: 1}
	r.code[key] = code
	return code, nil
}

// release gives up one adapter's hold on a compiled module, closing it after the last.
func (r *Runtime) release(ctx context.Context, key [sha256.Size]byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	code := r.code[key]
	if code == nil {
		return nil
	}
	if code.refs--; code.refs > 0 {
		return nil
	}
	delete(r.code, key)
	return code.compiled.Close(ctx)
}

const abiMarkerPrefix = "stockroom_abi_v"

// checkABI reads the ABI major from the marker export's name and checks that the host
// has every stockroom function the module imports, before anything runs: a module built
// for a newer minor than this host serves is refused with a message that says so, rather
// than failing to instantiate.
func checkABI(name string, compiled wazero.CompiledModule, host api.Module) error {
	exports := compiled.ExportedFunctions()
	for export := range exports {
		if !strings.HasPrefix(export, abiMarkerPrefix) {
			continue
		}
		major, err := strconv.Atoi(strings.TrimPrefix(export, abiMarkerPrefix))
		if err != nil {
			return fmt.Errorf("adapter %s: malformed ABI marker export %q", name, export)
		}
		if major != ABIMajor {
			return fmt.Errorf("adapter %s speaks adapter ABI v%d; this host speaks v%d", name, major, ABIMajor)
		}
		if _, ok := exports["stockroom_call"]; !ok {
			return fmt.Errorf("adapter %s: ABI v%d module exports no stockroom_call", name, major)
		}
		served := host.ExportedFunctionDefinitions()
		for _, imp := range compiled.ImportedFunctions() {
			module, fn, _ := imp.Import()
			if _, ok := served[fn]; module == hostModuleName && !ok {
				return fmt.Errorf("adapter %s needs host function %s.%s, which this host (ABI v%d.%d) lacks: it was built for a newer ABI minor",
					name, module, fn, ABIMajor, ABIMinor)
			}
		}
		return nil
	}
	return fmt.Errorf("adapter %s: no %s<major> export: not a Stockroom adapter (build it with adapters/sdk)", name, abiMarkerPrefix)
}
