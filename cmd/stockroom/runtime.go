package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/storage/postgres"
)

// services are the running parts of a Stockroom process, wired from the configuration.
type services struct {
	cfg      *configs.Config
	logger   *slog.Logger
	pool     *pgxpool.Pool
	access   *access.Service
	catalog  *catalog.Service
	metering *metering // nil when ClickHouse is not configured
	// resolver looks up the names of the sites the engine fetches; nil means the
	// system's. Tests give stores on loopback names with it.
	resolver fetch.Resolver
}

func loadConfig(path string) (*configs.Config, error) {
	cfg, err := configs.Load(path, os.Environ())
	if err != nil {
		return nil, err
	}
	return cfg, cfg.RequireDatabase()
}

// openAdmin connects what the administrative commands need: Postgres only.
func openAdmin(ctx context.Context, configPath string) (*services, error) {
	cfg, err := loadConfig(configPath)
	if err != nil {
		return nil, err
	}
	return openPostgres(ctx, cfg, cfg.Logger())
}

func openPostgres(ctx context.Context, cfg *configs.Config, logger *slog.Logger) (*services, error) {
	pool, err := postgres.Open(ctx, cfg.Database.URL, postgres.PoolOptions{MaxConns: cfg.Database.MaxConns})
	if err != nil {
		return nil, err
	}
	return &services{
		cfg:     cfg,
		logger:  logger,
		pool:    pool,
		access:  access.NewService(postgres.NewAccessStore(pool), access.ServiceOptions{CacheTTL: cfg.Auth.CacheTTL, Logger: logger}),
		catalog: catalog.NewService(postgres.NewCatalogStore(pool)),
	}, nil
}

// openServices connects everything the API needs.
func openServices(ctx context.Context, cfg *configs.Config, logger *slog.Logger) (*services, error) {
	s, err := openPostgres(ctx, cfg, logger)
	if err != nil {
		return nil, err
	}
	if cfg.ClickHouse.URL == "" {
		logger.Warn("clickhouse.url is empty: usage is not recorded and the usage endpoints answer 503")
		return s, nil
	}
	s.metering, err = openMetering(ctx, cfg, logger)
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *services) close() {
	if s.metering != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.metering.close(ctx); err != nil {
			s.logger.Error("close usage recorder", "err", err)
		}
	}
	s.pool.Close()
}

// migrate brings both schemas up to date.
func (s *services) migrate(ctx context.Context) error {
	if err := postgres.Migrate(ctx, s.pool); err != nil {
		return err
	}
	if s.metering != nil {
		return s.metering.migrate(ctx)
	}
	return nil
}

// api builds the HTTP server over the services and, when given, the engine's.
func (s *services) api(eng *engine) *server.Server {
	deps := server.Deps{
		Access:  s.access,
		Catalog: s.catalog,
		Logger:  s.logger,
		Checks: []server.Check{{Name: "postgres", Required: true, Probe: func(ctx context.Context) error {
			return s.pool.Ping(ctx)
		}}},
	}
	if eng != nil {
		deps.Crawl, deps.Extract, deps.Search = eng.crawl, eng.extract, eng.search
	}
	if s.metering != nil {
		deps.Usage = usage.NewService(s.metering.reader)
		if s.cfg.Usage.Enabled {
			deps.Recorder = s.metering.recorder
		}
		deps.Checks = append(deps.Checks, server.Check{Name: "clickhouse", Probe: s.metering.ping})
		deps.Stats = s.metering.stats
	}
	return server.New(deps, server.Options{
		BodyLimit:    s.cfg.Server.BodyLimit,
		ReadTimeout:  s.cfg.Server.ReadTimeout,
		WriteTimeout: s.cfg.Server.WriteTimeout,
		RateRequests: s.cfg.RateLimit.Requests,
		RateWindow:   s.cfg.RateLimit.Window,
	})
}

func serveCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	configPath := fs.String("config", "", "configuration file (see configs/default.yaml)")
	migrate := fs.Bool("migrate", false, "migrate the schemas before serving")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return err
	}
	logger := cfg.Logger()
	setGCPercent(cfg.Server.GCPercent, os.LookupEnv)
	s, err := openServices(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer s.close()
	if *migrate {
		if err := s.migrate(ctx); err != nil {
			return err
		}
	}
	eng, err := s.startEngine(ctx)
	if err != nil {
		return err
	}
	defer s.stopEngine(eng)
	if cfg.Server.DebugAddress != "" {
		if err := serveDebug(ctx, cfg.Server.DebugAddress, logger); err != nil {
			return fmt.Errorf("profiling endpoints on %s: %w", cfg.Server.DebugAddress, err)
		}
	}
	logger.Info("api listening", "address", cfg.Server.Address, "version", version)
	return s.api(eng).Listen(ctx, cfg.Server.Address, cfg.Server.ShutdownTimeout)
}

func migrateCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	configPath := fs.String("config", "", "configuration file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return err
	}
	s, err := openServices(ctx, cfg, cfg.Logger())
	if err != nil {
		return err
	}
	defer s.close()
	if err := s.migrate(ctx); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "schemas are up to date")
	return err
}

// stopEngine gives running executions the shutdown grace to end; the rest are resumed by
// another process (or this one, restarted) once their leases lapse.
func (s *services) stopEngine(eng *engine) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Server.ShutdownTimeout)
	defer cancel()
	if err := eng.close(ctx); err != nil {
		s.logger.Error("stop engine", "err", err)
	}
}

func when(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}
