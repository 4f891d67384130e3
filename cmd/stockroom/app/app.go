// Package app wires a Stockroom service from its configuration: the Postgres and ClickHouse
// stores, the adapters, the fetcher, the job queue, the crawl, extraction and search
// pipelines, and the API over them. It is the one place that knows every part; the parts
// know only the interfaces core defines.
//
// `stockroom serve` is, in short:
//
//	svc, err := app.New(ctx, cfg, app.Options{})
//	if err != nil {
//		return err
//	}
//	defer svc.Close()
//	if err := svc.Migrate(ctx); err != nil {
//		return err
//	}
//	return svc.Run(ctx) // until ctx ends
//
// `make run` (cmd/stockroom/internal/devstack) starts local databases and demo stores
// around the same calls, and the end-to-end tests beside this file start a service the
// same way, with Start and Wait in place of Run.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stockroom/stockroom/cmd/stockroom/app/metrics"
	"github.com/stockroom/stockroom/cmd/stockroom/app/tracing"
	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/affiliate"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/storage/postgres"
)

// Service is a Stockroom service wired from its configuration: its connections to the
// databases, and once started, its engine and its API.
type Service struct {
	cfg      *configs.Config
	logger   *slog.Logger
	version  string
	pool     *pgxpool.Pool
	access   *access.Service
	catalog  *catalog.Service
	metering *metering // nil when ClickHouse is not configured
	// affiliate is the configured affiliate network, nil when there is none.
	affiliate *affiliate.Network
	// resolver looks up the names of the sites the engine fetches; nil means the
	// system's. Tests give stores on loopback names with it.
	resolver fetch.Resolver
	// metrics measures the service, in metricsRegistry; both nil when metrics.listen is
	// empty. metricsAddress is where GET /metrics is served once started.
	metrics         *metrics.Metrics
	metricsRegistry *prometheus.Registry
	metricsAddress  string
	// tracing records the service's spans; nil when tracing.enabled is false.
	tracing *tracing.Tracing

	// running is what Start started, for Wait to stop; nil before Start.
	running *running
}

// Options are what New takes besides the configuration.
type Options struct {
	// Logger receives the service's logs. Zero means the configured one (cfg.Logger()).
	Logger *slog.Logger
	// Version is the build's version, logged when the API starts. Zero means "dev".
	Version string
	// Resolver looks up the names of the sites the engine fetches. Zero means the system's
	// resolver; tests give stores on loopback names with it.
	Resolver fetch.Resolver
}

// New connects everything the API needs: Postgres, and ClickHouse when clickhouse.url is
// set. Nothing runs until Start or Run; Close disconnects.
func New(ctx context.Context, cfg *configs.Config, opts Options) (*Service, error) {
	s, err := openPostgres(ctx, cfg, opts)
	if err != nil {
		return nil, err
	}
	if s.tracing, err = newTracing(ctx, cfg.Tracing, s.version); err != nil {
		s.Close()
		return nil, err
	}
	if cfg.ClickHouse.URL == "" {
		s.logger.Warn("clickhouse.url is empty: usage is not recorded and the usage endpoints answer 503")
		return s, nil
	}
	s.metering, err = openMetering(ctx, cfg, s.logger)
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// NewAdmin connects only what the administrative commands need, Postgres: organizations,
// credits and keys (Access).
func NewAdmin(ctx context.Context, cfg *configs.Config) (*Service, error) {
	return openPostgres(ctx, cfg, Options{})
}

func openPostgres(ctx context.Context, cfg *configs.Config, opts Options) (*Service, error) {
	logger := opts.Logger
	if logger == nil {
		logger = cfg.Logger()
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	network, err := cfg.Affiliate.Network()
	if err != nil {
		return nil, err
	}
	m, reg, err := newMetrics(cfg.Metrics.Listen)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	pool, err := postgres.Open(ctx, cfg.Database.URL, postgres.PoolOptions{MaxConns: cfg.Database.MaxConns})
	if err != nil {
		return nil, err
	}
	return &Service{
		cfg:       cfg,
		logger:    logger,
		version:   version,
		pool:      pool,
		access:    access.NewService(postgres.NewAccessStore(pool), access.ServiceOptions{CacheTTL: cfg.Auth.CacheTTL, Logger: logger}),
		catalog:   catalog.NewService(postgres.NewCatalogStore(pool)).WithAffiliateNetwork(network),
		affiliate: network,
		resolver:  opts.Resolver,
		metrics:   m, metricsRegistry: reg,
	}, nil
}

// Access is the organizations, credits and keys: what the administrative commands manage
// and what `make run` gives its demo key from.
func (s *Service) Access() *access.Service { return s.access }

// Close flushes the usage recorder (to ClickHouse, or to its spool) and the spans not yet
// exported, and disconnects from the databases. Call it after Run or Wait has returned.
func (s *Service) Close() {
	if s.tracing != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.tracing.Shutdown(ctx); err != nil {
			s.logger.Error("export the last spans", "err", err)
		}
	}
	if s.metering != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.metering.close(ctx); err != nil {
			s.logger.Error("close usage recorder", "err", err)
		}
	}
	s.pool.Close()
}

// Migrate brings both schemas up to date: Postgres (River's included) and, when it is
// configured, ClickHouse.
func (s *Service) Migrate(ctx context.Context) error {
	if err := postgres.Migrate(ctx, s.pool); err != nil {
		return err
	}
	if s.metering != nil {
		return s.metering.migrate(ctx)
	}
	return nil
}

// Run starts the service and serves the API until ctx ends, then stops it: Start, then
// Wait.
func (s *Service) Run(ctx context.Context) error {
	if err := s.Start(ctx); err != nil {
		return err
	}
	return s.Wait()
}

// running is a started service: its engine and its API.
type running struct {
	engine  *engine
	stopAPI context.CancelFunc
	served  chan struct{} // closed when the API has stopped
	err     error         // why the API stopped; read after served is closed
}

// Start starts the engine and the API on server.address (and Go's profiling endpoints on
// server.debug_address, when set), and returns once the API accepts connections. The
// service runs until ctx ends; Wait then returns once it has stopped.
func (s *Service) Start(ctx context.Context) error {
	if s.running != nil {
		return errors.New("app: already started")
	}
	eng, err := s.startEngine(ctx)
	if err != nil {
		return err
	}
	if address := s.cfg.Server.DebugAddress; address != "" {
		if err := serveDebug(ctx, address, s.logger); err != nil {
			s.stopEngine(eng)
			return fmt.Errorf("profiling endpoints on %s: %w", address, err)
		}
	}
	if s.metricsRegistry != nil {
		if err := s.startMetrics(ctx, eng); err != nil {
			s.stopEngine(eng)
			return err
		}
	}
	address := s.cfg.Server.Address
	s.logger.Info("api listening", "address", address, "version", s.version)
	api := s.api(eng)
	apiCtx, stopAPI := context.WithCancel(ctx)
	r := &running{engine: eng, stopAPI: stopAPI, served: make(chan struct{})}
	go func() {
		defer close(r.served)
		r.err = api.Listen(apiCtx, address, s.cfg.Server.ShutdownTimeout)
	}()
	if err := waitListening(ctx, address, r); err != nil {
		stopAPI()
		<-r.served
		s.stopEngine(eng)
		return err
	}
	s.running = r
	return nil
}

// startMetrics adds the families read at scrape time (the queue, the Postgres pool, the
// usage recorder) and serves GET /metrics on metrics.listen.
func (s *Service) startMetrics(ctx context.Context, eng *engine) error {
	src := metrics.Sources{Queue: eng.queue, Queues: eng.queues, Pool: s.pool, Logger: s.logger}
	if s.metering != nil {
		src.Usage = s.metering.recorder.Stats
	}
	if err := metrics.RegisterSources(s.metricsRegistry, src); err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	address, err := serveMetrics(ctx, s.cfg.Metrics.Listen, s.metricsRegistry, s.logger)
	if err != nil {
		return fmt.Errorf("metrics endpoint on %s: %w", s.cfg.Metrics.Listen, err)
	}
	s.metricsAddress = address
	return nil
}

// MetricsURL is the address of GET /metrics once Start has served it, or "" when
// metrics.listen is empty.
func (s *Service) MetricsURL() string {
	if s.metricsAddress == "" {
		return ""
	}
	return "http://" + s.metricsAddress + "/metrics"
}

// Wait waits until the API started by Start has stopped (its context ended, or it failed),
// then gives running executions server.shutdown_timeout to end; the rest are resumed by
// another process, or by this one restarted, once their leases lapse. It returns why the
// API stopped.
func (s *Service) Wait() error {
	r := s.running
	if r == nil {
		return errors.New("app: not started")
	}
	<-r.served
	r.stopAPI()
	s.stopEngine(r.engine)
	s.running = nil
	return r.err
}

// waitListening waits until address accepts connections or the API has stopped.
func waitListening(ctx context.Context, address string, r *running) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-r.served:
			return fmt.Errorf("api: %w", r.err)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if conn, err := net.DialTimeout("tcp", address, 200*time.Millisecond); err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("api did not start listening on %s", address)
}

// api builds the HTTP server over the services and, when given, the engine's.
func (s *Service) api(eng *engine) *server.Server {
	deps := server.Deps{
		Access:    s.access,
		Catalog:   s.catalog,
		Affiliate: s.affiliate,
		Logger:    s.logger,
		Checks: []server.Check{{Name: "postgres", Required: true, Probe: func(ctx context.Context) error {
			return s.pool.Ping(ctx)
		}}},
	}
	if eng != nil {
		deps.Crawl, deps.Extract, deps.Search, deps.Webhooks = eng.crawl, eng.extract, eng.search, eng.webhooks
	}
	if s.metering != nil {
		deps.Usage = usage.NewService(s.metering.reader)
		if s.cfg.Usage.Enabled {
			deps.Recorder = s.metering.recorder
		}
		deps.Checks = append(deps.Checks, server.Check{Name: "clickhouse", Probe: s.metering.ping})
		deps.Stats = s.metering.stats
	}
	if s.metrics != nil {
		deps.Requests = s.metrics
	}
	deps.Tracer = s.tracing.Tracer()
	return server.New(deps, server.Options{
		BodyLimit:    s.cfg.Server.BodyLimit,
		ReadTimeout:  s.cfg.Server.ReadTimeout,
		WriteTimeout: s.cfg.Server.WriteTimeout,
		RateRequests: s.cfg.RateLimit.Requests,
		RateWindow:   s.cfg.RateLimit.Window,
	})
}

// stopEngine gives running executions the shutdown grace to end; the rest are resumed by
// another process (or this one, restarted) once their leases lapse.
func (s *Service) stopEngine(eng *engine) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Server.ShutdownTimeout)
	defer cancel()
	if err := eng.close(ctx); err != nil {
		s.logger.Error("stop engine", "err", err)
	}
}
