package wasm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/plugins/document"
	"github.com/stockroom/stockroom/plugins/wire"
)

// Module is one loaded adapter: its compiled code and a pool of ready instances. It
// implements adapter.Module and is safe for concurrent use; at most PoolSize calls run at
// once, the others wait for an instance.
type Module struct {
	name     string
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cfg      Config
	log      *slog.Logger
	info     adapter.Info
	// release lets go of compiled, which other adapters of the same module may share.
	release func(context.Context) error

	ready chan *instance
	// instantiations counts the instances created since load (see Instantiations).
	instantiations atomic.Int64
	// guestLoops counts the loop heads the guest passed in calls (see GuestLoops).
	guestLoops atomic.Int64
	// stop ends the refill goroutines when the module is closed.
	stop     chan struct{}
	stopOnce sync.Once
	refills  sync.WaitGroup
}

// adapterEnv names, to each instance, the adapter it serves: a module may hold several
// (ABI.md, "Loading"; the SDK's AdapterEnv).
const adapterEnv = "STOCKROOM_ADAPTER"

// instance is one instantiated guest with its call state.
type instance struct {
	mod       api.Module
	interrupt api.MutableGlobal
	// budget and trips are the instrumentation's loop counters (see loopCount).
	budget, trips api.Global
	call          api.Function
	st            *callState
	stack         []uint64
	stderr        *tail
}

// Info returns the adapter's own description, read once at load.
func (m *Module) Info() adapter.Info { return m.info }

func (m *Module) start(ctx context.Context) error {
	m.ready = make(chan *instance, m.cfg.PoolSize)
	m.stop = make(chan struct{})
	first, err := m.instantiate(ctx)
	if err != nil {
		return err
	}
	info, err := m.describe(ctx, first)
	if err != nil {
		first.close(ctx)
		return err
	}
	m.info = info
	m.ready <- first
	// Fill the rest of the pool now: the request path never instantiates.
	for i := 1; i < m.cfg.PoolSize; i++ {
		inst, err := m.instantiate(ctx)
		if err != nil {
			m.Close(ctx)
			return err
		}
		m.ready <- inst
	}
	return nil
}

func (m *Module) instantiate(ctx context.Context) (*instance, error) {
	stderr := &tail{max: 4096}
	// An anonymous name lets one compiled module be instantiated many times.
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").WithStderr(stderr).
		WithEnv(adapterEnv, m.name)
	m.instantiations.Add(1)
	mod, err := m.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, memoryAllocator()), m.compiled, cfg)
	if err != nil {
		return nil, fmt.Errorf("adapter %s: instantiate: %w%s", m.name, err, stderr.suffix())
	}
	// Present when the module was instrumented (see instrument).
	interrupt, _ := mod.ExportedGlobal(interruptExport).(api.MutableGlobal)
	return &instance{
		mod:       mod,
		interrupt: interrupt,
		budget:    mod.ExportedGlobal(budgetExport),
		trips:     mod.ExportedGlobal(tripsExport),
		call:      mod.ExportedFunction("stockroom_call"),
		st:        &callState{session: document.NewSession(nil, 0), maxOutput: m.cfg.MaxOutput},
		stack:     make([]uint64, 1),
		stderr:    stderr,
	}, nil
}

func (i *instance) close(ctx context.Context) { i.mod.Close(ctx) }

// describe asks a fresh instance for the adapter's Info.
func (m *Module) describe(ctx context.Context, inst *instance) (adapter.Info, error) {
	out, _, err := m.invoke(ctx, inst, []byte(`{"op":"info"}`), nil)
	if err != nil {
		return adapter.Info{}, err
	}
	var resp struct {
		Info *adapter.Info `json:"info"`
	}
	if err := json.Unmarshal(out, &resp); err != nil || resp.Info == nil || resp.Info.Name == "" {
		return adapter.Info{}, fmt.Errorf("adapter %s: bad info answer %.200q", m.name, out)
	}
	return *resp.Info, nil
}

// invoke runs one stockroom_call on inst under the call deadline and returns the guest's
// output. An error means the instance is no longer trustworthy unless it is a *guestError
// (the guest answered with an error message and is intact).
func (m *Module) invoke(ctx context.Context, inst *instance, input []byte, docs []*adapter.Document) ([]byte, []wire.Member, error) {
	st := inst.st
	st.session.Reset(docs)
	st.output, st.outErr, st.splices = st.output[:0], nil, st.splices[:0]
	defer st.session.Reset(nil)
	// The request crosses as a JSON value handle: decoded here, natively, and read by
	// the guest through value queries (no JSON decoder runs in the guest).
	req, err := st.session.AddJSON(input)
	if err != nil {
		return nil, nil, fmt.Errorf("adapter %s: request: %w", m.name, err)
	}

	cctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	cctx = context.WithValue(cctx, stateKey{}, st)
	inst.stack[0] = uint64(req)
	var interrupted func() bool
	if inst.interrupt != nil {
		// Raise the guest's interrupt flag when the call's deadline passes or its caller
		// gives up: the guest traps at its next loop head.
		stop := context.AfterFunc(cctx, func() { inst.interrupt.Set(1) })
		interrupted = func() bool { return !stop() }
	}
	loops := inst.loopCount()
	err = inst.call.CallWithStack(cctx, inst.stack)
	m.guestLoops.Add(int64(inst.loopCount() - loops))
	if interrupted != nil && interrupted() && err == nil {
		// The flag went up as the call ended: the result stands, but the instance would
		// trap on its next call, so report the overrun and let the caller retire it.
		err = errors.New("interrupted as it returned")
	}
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			return nil, nil, &callFailure{kind: FailureTimeout, err: fmt.Errorf("adapter %s: call exceeded its %v deadline: %w", m.name, m.cfg.CallTimeout, err)}
		}
		return nil, nil, &callFailure{kind: FailureTrap, err: fmt.Errorf("adapter %s: %w%s", m.name, err, inst.stderr.suffix())}
	}
	if st.outErr != nil {
		return nil, nil, &guestError{fmt.Sprintf("adapter %s: %v", m.name, st.outErr)}
	}
	if uint32(inst.stack[0]) != 0 {
		return nil, nil, &guestError{fmt.Sprintf("adapter %s: %s", m.name, st.output)}
	}
	// The state is reused by the next call: hand out copies. The spliced values' text
	// is the session's, which outlives its handles.
	return bytes.Clone(st.output), slices.Clone(st.splices), nil
}

// loopCount is how many loop heads the instance has passed, modulo 2^32 (differences of
// two counts are right across a wrap); 0 when it was not instrumented.
func (i *instance) loopCount() uint32 {
	if i.budget == nil || i.trips == nil {
		return 0
	}
	return uint32(i.trips.Get())*yieldEvery + yieldEvery - uint32(i.budget.Get())
}

// guestError is a failure the guest reported itself; its instance stays usable.
type guestError struct{ msg string }

func (e *guestError) Error() string { return e.msg }

// The kinds of failed calls FailureOf tells apart.
const (
	// FailureTrap is a guest that trapped or crashed; its instance is retired.
	FailureTrap = "trap"
	// FailureTimeout is a call that overran adapters.call_timeout.
	FailureTimeout = "timeout"
	// FailureError is any other failure: one the guest reported itself, or of the host.
	FailureError = "error"
)

// callFailure is a call that ended without the guest's answer: a trap or a timeout.
type callFailure struct {
	kind string
	err  error
}

func (e *callFailure) Error() string { return e.err.Error() }
func (e *callFailure) Unwrap() error { return e.err }

// FailureOf names the kind of a failed Module.Call (FailureTrap, FailureTimeout or
// FailureError), for metrics.
func FailureOf(err error) string {
	var f *callFailure
	if errors.As(err, &f) {
		return f.kind
	}
	return FailureError
}

// wireRequest is the request JSON of ABI v1 (adapters/ABI.md).
type wireRequest struct {
	Op     adapter.Op `json:"op"`
	URL    string     `json:"url,omitempty"`
	Cursor string     `json:"cursor,omitempty"`
	Total  int        `json:"total,omitempty"`
	Round  int        `json:"round,omitempty"`
	Docs   []wireDoc  `json:"docs,omitempty"`
}

type wireDoc struct {
	URL      string              `json:"url"`
	FinalURL string              `json:"final_url,omitempty"`
	Status   int                 `json:"status"`
	Err      string              `json:"err,omitempty"`
	Header   map[string][]string `json:"header,omitempty"`
}

func encodeRequest(req *adapter.Request) ([]byte, error) {
	w := wireRequest{Op: req.Op, URL: req.URL, Cursor: req.Cursor, Total: req.Total, Round: req.Round, Docs: make([]wireDoc, len(req.Docs))}
	for i, d := range req.Docs {
		var h map[string][]string
		if len(d.Header) > 0 {
			h = make(map[string][]string, len(d.Header))
			for k, v := range d.Header {
				h[strings.ToLower(k)] = v
			}
		}
		w.Docs[i] = wireDoc{URL: d.URL, FinalURL: d.FinalURL, Status: d.Status, Err: d.Err, Header: h}
	}
	return json.Marshal(&w)
}

// Call runs one round of req on a pooled instance. A trap, a timeout or an instance left
// with too much memory retires the instance; a fresh one replaces it in the background.
func (m *Module) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	input, err := encodeRequest(req)
	if err != nil {
		return nil, fmt.Errorf("adapter %s: encode request: %w", m.name, err)
	}
	var inst *instance
	select {
	case inst = <-m.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-m.stop:
		return nil, fmt.Errorf("adapter %s: unloaded", m.name)
	}
	start := time.Now()
	out, splices, err := m.invoke(ctx, inst, input, req.Docs)
	var ge *guestError
	switch {
	case err != nil && !errors.As(err, &ge):
		m.log.Warn("adapter call failed; instance retired", "op", req.Op, "url", req.URL, "elapsed", time.Since(start), "err", err)
		m.retire(inst)
	case uint64(inst.mod.Memory().Size()) > m.cfg.RecycleAbove:
		m.log.Info("adapter instance retired for memory", "bytes", inst.mod.Memory().Size())
		m.retire(inst)
	default:
		m.ready <- inst
		select {
		case <-m.stop:
			// Unloaded while this call ran: Close may already have drained the pool.
			m.drain(ctx)
		default:
		}
	}
	if err != nil {
		return nil, err
	}
	resp, err := wire.Decode(out)
	if err == nil {
		err = wire.Splice(resp, splices)
	}
	if err != nil {
		return nil, fmt.Errorf("adapter %s: bad %s answer: %w", m.name, req.Op, err)
	}
	return resp, nil
}

// Checkout takes a ready instance from the pool and returns the function that gives it
// back. It exists for the pool benchmarks: calls check out inside Call.
func (m *Module) Checkout(ctx context.Context) (release func(), err error) {
	select {
	case inst := <-m.ready:
		return func() { m.ready <- inst }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-m.stop:
		return nil, fmt.Errorf("adapter %s: unloaded", m.name)
	}
}

// Instantiations returns how many instances the module has created since it loaded: the
// pool's, filled at load, plus one in the background for each retired instance. Calls
// never instantiate; the benchmarks report it per call to show so.
func (m *Module) Instantiations() int64 { return m.instantiations.Load() }

// GuestLoops returns how many loop heads the guest's code has passed in calls since
// load, as the interrupt instrumentation counts them (0 when the module runs under
// another Interrupt). Go compiled to WebAssembly goes round its function's loop at every
// taken branch, so for such guests this counts their work; unlike CPU time it does not
// move with the machine's load, only with the guest's allocator and collector, by a few
// percent at most, so a change to an adapter can be measured by it where CPU time is
// noise (bench BenchmarkListPage's guest-loops/page).
func (m *Module) GuestLoops() int64 { return m.guestLoops.Load() }

// IdleMemory returns the linear memory, in bytes, of the largest instance idle in the
// pool: what an adapter costs at rest.
func (m *Module) IdleMemory() uint64 {
	var most uint64
	for range cap(m.ready) {
		select {
		case inst := <-m.ready:
			most = max(most, uint64(inst.mod.Memory().Size()))
			defer func() { m.ready <- inst }()
		default:
		}
	}
	return most
}

// retire closes inst and starts a replacement in the background, retrying with backoff
// while instantiation fails (it should not: the module instantiated before).
func (m *Module) retire(inst *instance) {
	inst.close(context.Background())
	m.refills.Add(1)
	go func() {
		defer m.refills.Done()
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 30*time.Second) {
			select {
			case <-m.stop:
				return
			default:
			}
			fresh, err := m.instantiate(context.Background())
			if err == nil {
				select {
				case m.ready <- fresh:
				case <-m.stop:
					fresh.close(context.Background())
				}
				return
			}
			m.log.Error("adapter instance refill failed", "err", err, "retry_in", wait)
			select {
			case <-time.After(wait):
			case <-m.stop:
				return
			}
		}
	}()
}

// Close unloads the adapter: new calls fail, idle instances close now, instances in use
// close when their call ends.
func (m *Module) Close(ctx context.Context) error {
	m.stopOnce.Do(func() { close(m.stop) })
	m.refills.Wait()
	m.drain(ctx)
	// wazero lets instances still in a call outlive their compiled module.
	return m.release(ctx)
}

func (m *Module) drain(ctx context.Context) {
	for {
		select {
		case inst := <-m.ready:
			inst.close(ctx)
		default:
			return
		}
	}
}

// tail keeps the last bytes a guest wrote to stderr (a Go panic trace ends there), to add
// to the error of a failed call.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	if i := strings.LastIndex(s, "\n\n"); i > 0 && len(s)-i < 200 {
		s = s[:i]
	}
	if len(s) > 600 {
		s = s[:600] + "..."
	}
	return " (guest stderr: " + s + ")"
}
