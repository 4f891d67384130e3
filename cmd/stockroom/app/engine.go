package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"time"

	"github.com/stockroom/stockroom/adapters/builtin"
	"github.com/stockroom/stockroom/cmd/stockroom/app/metrics"
	"github.com/stockroom/stockroom/cmd/stockroom/app/tracing"
	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/crawl"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/render"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/core/webhook"
	"github.com/stockroom/stockroom/plugins/document"
	"github.com/stockroom/stockroom/plugins/registry"
	"github.com/stockroom/stockroom/plugins/wasm"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
)

// engine is the part of a process that crawls, extracts and searches: adapters, fetcher,
// the job queue and the pipelines it runs.
type engine struct {
	runtime  *wasm.Runtime
	registry *registry.Registry
	queue    *jobs.Queue
	// queues are the names of the queue's queues, one per execution kind.
	queues   []string
	crawl    *crawl.Service
	extract  *extract.Service
	search   *search.Service
	webhooks *webhook.Service
	// renderer draws application shells; nil when render.enabled is off.
	renderer *render.Renderer
	stop     context.CancelFunc
	done     chan struct{}
}

// startEngine loads the adapters and starts working the queue. The returned engine's
// services start executions; close stops the work (running executions are resumed by
// another process, or by this one after a restart).
func (s *Service) startEngine(ctx context.Context) (*engine, error) {
	cfg := s.cfg
	rt, err := wasm.New(ctx, wasm.Config{
		CacheDir:    cfg.Adapters.CacheDir,
		MemoryLimit: cfg.Adapters.MemoryLimit,
		PoolSize:    cfg.Adapters.PoolSize,
		CallTimeout: cfg.Adapters.CallTimeout,
		Logger:      s.logger,
	})
	if err != nil {
		return nil, err
	}
	reg := registry.New(rt, s.logger)
	if err := reg.Sync(ctx, "builtin", builtin.FS, registry.Options{}); err != nil {
		// A built-in that fails to load is a broken build, not a reason to refuse to serve
		// the rest: it is logged by the registry and named here.
		s.logger.Error("built-in adapters failed to load", "err", err)
	}
	classes := newHostClasses(cfg.Fetch.NoDelayHosts)
	var waited func(string, time.Duration)
	if m := s.metrics; m != nil {
		waited = func(hostPort string, d time.Duration) { m.PolitenessWaited(classes.ofHost(hostPort), d) }
	}
	pages := postgres.NewPageStore(s.pool)
	fetcher, err := newFetcher(cfg.Fetch, s.resolver, pages, waited, s.logger)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	set := &adapter.Set{
		Source:  s.tracing.Adapters(s.metrics.Adapters(reg, wasm.FailureOf), wasm.FailureOf),
		Fetcher: s.tracing.Fetcher(s.metrics.Fetcher(adapter.FetcherFunc(fetcher.FetchDocument), classes.ofURL)),
		Logger:  s.logger,
	}
	renderer, err := newRenderer(cfg.Render, fetcher, s.logger)
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	if renderer != nil {
		set.Renderer = renderer
		set.Fetcher = renderer.Always(set.Fetcher, cfg.Render.Vendors)
	}

	hooks, err := s.webhooks()
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	executions := postgres.NewExecutionStore(s.pool).WithEndHook(hooks.events.EndHook)
	items := postgres.NewExtractStore(s.pool)
	runnerOpts := execution.RunnerOptions{ReportEvery: cfg.Jobs.ReportEvery, LeaseTTL: cfg.Jobs.LeaseTTL, Logger: s.logger}
	if s.metrics != nil {
		runnerOpts.Observer = s.metrics
	}
	runner := execution.NewRunner(executions, runnerOpts)
	crawls := crawl.NewPipeline(set, s.catalog.Store(), runner, crawl.PipelineOptions{Collections: cfg.Crawl.Collections, MaxPages: cfg.Crawl.MaxPages, Logger: s.logger})
	extractions := extract.NewPipeline(set, items, s.catalog.Store(), executions, runner, extract.PipelineOptions{
		Concurrency: cfg.Extract.Concurrency, Attempts: cfg.Extract.Attempts, Backoff: cfg.Extract.Backoff,
		RecordMaxAge: cfg.Extract.RecordMaxAge, Logger: s.logger,
		StructuredData: document.StructuredData,
	})
	searches := search.NewPipeline(postgres.NewSearchStore(s.pool), items, executions, runner, search.PipelineOptions{
		DefaultLimit: cfg.Search.DefaultLimit, MaxLimit: cfg.Search.MaxLimit, MinResults: cfg.Search.MinResults,
		Candidates: cfg.Search.Candidates, MiniCandidates: cfg.Search.MiniCandidates, VocabularyTTL: cfg.Search.VocabularyTTL,
		Planner: searchPlanner(cfg.Search.LLM), Logger: s.logger,
	})
	handlers := map[execution.Kind]jobs.Handler{
		execution.Crawl:         crawls.Run,
		execution.ProductsBatch: extractions.Run,
		execution.Extract:       extractions.Run,
		execution.AgenticSearch: searches.Run,
	}
	for kind, handle := range handlers {
		handlers[kind] = tracing.Job(s.tracing, string(kind), metrics.Job(s.metrics, string(kind), rendering(renderer, handle)))
	}
	queue, err := jobs.New(s.pool, handlers, jobs.Options{Workers: cfg.Jobs.Workers, PollInterval: cfg.Jobs.PollInterval,
		PollIntervals: map[execution.Kind]time.Duration{execution.AgenticSearch: cfg.Jobs.SearchPollInterval},
		Webhooks:      hooks.delivery, Logger: s.logger,
		PageCache: &jobs.PageCacheOptions{Store: pages, MaxAge: cfg.Fetch.PageCacheMaxAge, MaxBytes: cfg.Fetch.PageCacheMaxBytes}})
	if err != nil {
		rt.Close(ctx)
		return nil, err
	}
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	if err := queue.StartWorking(runCtx); err != nil {
		stop()
		rt.Close(ctx)
		return nil, fmt.Errorf("start job queue: %w", err)
	}
	searches.Preload(runCtx)
	e := &engine{
		runtime: rt, registry: reg, queue: queue, queues: queueNames(handlers), stop: stop, done: make(chan struct{}),
		webhooks: hooks.service, renderer: renderer,
		crawl:   crawl.NewService(executions, queue, s.access.Store(), cfg.Credits.Crawl),
		extract: extract.NewService(executions, items, queue, s.access.Store(), s.catalog.Store(), extractions, cfg.Credits.ExtractPerURL),
		search: search.NewService(executions, searches, queue, s.access.Store(),
			search.Credits{Search: cfg.Credits.AgenticSearch, Mini: cfg.Credits.AgenticSearchMini}),
	}
	resumer := &execution.Resumer{Store: executions, Queue: queue, Logger: s.logger,
		Kinds: []execution.Kind{execution.Crawl, execution.ProductsBatch, execution.Extract, execution.AgenticSearch}, Interval: cfg.Jobs.LeaseTTL / 2}
	go func() {
		defer close(e.done)
		if cfg.Adapters.Dir != "" {
			go reg.Watch(runCtx, cfg.Adapters.Dir, cfg.Adapters.WatchInterval, registry.Options{RequireChecksum: cfg.Adapters.RequireChecksum})
		}
		resumer.Run(runCtx)
	}()
	if cfg.Adapters.Dir != "" {
		if _, err := os.Stat(cfg.Adapters.Dir); err != nil {
			s.logger.Warn("adapters.dir is not readable yet; it is watched", "dir", cfg.Adapters.Dir, "err", err)
		}
	}
	return e, nil
}

// close stops the queue, letting running executions end for a while, then unloads the
// adapters.
func (e *engine) close(ctx context.Context) error {
	err := e.queue.Stop(ctx)
	e.stop()
	<-e.done
	e.registry.Close(ctx)
	if e.renderer != nil {
		e.renderer.Close()
	}
	return errors.Join(err, e.runtime.Close(ctx))
}

// newRenderer is the renderer of the render settings, drawing through fetcher; nil when
// rendering is off. Chromium starts with the first page that needs it, so it must be
// installed now.
func newRenderer(cfg configs.Render, fetcher *fetch.Fetcher, logger *slog.Logger) (*render.Renderer, error) {
	if !cfg.Enabled {
		return nil, nil
	}
	path := render.ExecPath(cfg.Chromium)
	if path == "" {
		return nil, errors.New("render.enabled: chromium is not installed (apt-get install chromium, or set render.chromium)")
	}
	return render.New(render.Options{Fetcher: fetcher, ExecPath: path, Tabs: cfg.Tabs, Timeout: cfg.Timeout, Quiet: cfg.Quiet, Logger: logger})
}

// rendering scopes each run of handle to a browser context of its own, so that the cookies
// and storage one execution's pages set are discarded with it and never reach another
// vendor's pages. Without a renderer, handle is returned as is.
func rendering(renderer *render.Renderer, handle jobs.Handler) jobs.Handler {
	if renderer == nil {
		return handle
	}
	return func(ctx context.Context, executionID string) error {
		ctx, end := renderer.Scope(ctx)
		defer end()
		return handle(ctx, executionID)
	}
}

// searchPlanner is the optional language-model planner of search.llm, or nil when it is
// off: search is then deterministic.
func searchPlanner(cfg configs.SearchLLM) search.Planner {
	if !cfg.Enabled {
		return nil
	}
	return &search.ChatPlanner{BaseURL: cfg.BaseURL, Model: cfg.Model, APIKey: cfg.APIKey, Timeout: cfg.Timeout}
}

// queueNames are the names of the queues of handlers: each kind's own.
func queueNames(handlers map[execution.Kind]jobs.Handler) []string {
	var out []string
	for kind := range handlers {
		out = append(out, string(kind))
	}
	slices.Sort(out)
	return out
}
