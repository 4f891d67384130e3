// Package configs loads Stockroom's configuration: the defaults in default.yaml (embedded, and
// documented key by key there), then an optional file, then environment variables.
package configs

import (
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/rawbytes"
	"github.com/knadh/koanf/v2"

	"github.com/stockroom/stockroom/core/affiliate"
)

//go:embed default.yaml
var defaults []byte

// Config is the whole configuration.
type Config struct {
	Server     Server     `koanf:"server"`
	Database   Database   `koanf:"database"`
	ClickHouse ClickHouse `koanf:"clickhouse"`
	Usage      Usage      `koanf:"usage"`
	Adapters   Adapters   `koanf:"adapters"`
	Fetch      Fetch      `koanf:"fetch"`
	Jobs       Jobs       `koanf:"jobs"`
	Crawl      Crawl      `koanf:"crawl"`
	Render     Render     `koanf:"render"`
	Extract    Extract    `koanf:"extract"`
	RateLimit  RateLimit  `koanf:"rate_limit"`
	Auth       Auth       `koanf:"auth"`
	Credits    Credits    `koanf:"credits"`
	Search     Search     `koanf:"search"`
	Affiliate  Affiliate  `koanf:"affiliate"`
	Webhooks   Webhooks   `koanf:"webhooks"`
	Log        Log        `koanf:"log"`
	Metrics    Metrics    `koanf:"metrics"`
	Tracing    Tracing    `koanf:"tracing"`
}

// Metrics configures the Prometheus endpoint (docs/METRICS.md).
type Metrics struct {
	// Listen is the address GET /metrics is served on, a listener of its own apart from
	// the API's. Empty: not served.
	Listen string `koanf:"listen"`
}

// Tracing configures OpenTelemetry tracing (docs/OBSERVABILITY.md).
type Tracing struct {
	// Enabled turns tracing on. Off, no span is recorded and nothing is exported.
	Enabled bool `koanf:"enabled"`
	// Endpoint is the OTLP/HTTP URL spans are sent to (http://collector:4318/v1/traces).
	// Empty: the exporter's own settings, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
	// OTEL_EXPORTER_OTLP_ENDPOINT, or else http://localhost:4318/v1/traces.
	Endpoint string `koanf:"endpoint"`
	// SampleRatio is the share of new traces recorded, from 0 to 1. A request that carries
	// a traceparent follows its caller's decision.
	SampleRatio float64 `koanf:"sample_ratio"`
	// ServiceName names the service in the exported spans (service.name).
	ServiceName string `koanf:"service_name"`
}

type Server struct {
	Address         string        `koanf:"address"`
	BodyLimit       int           `koanf:"body_limit"`
	ReadTimeout     time.Duration `koanf:"read_timeout"`
	WriteTimeout    time.Duration `koanf:"write_timeout"`
	ShutdownTimeout time.Duration `koanf:"shutdown_timeout"`
	DebugAddress    string        `koanf:"debug_address"`
	GCPercent       int           `koanf:"gc_percent"`
}

type Database struct {
	URL      string `koanf:"url"`
	MaxConns int32  `koanf:"max_conns"`
}

type ClickHouse struct {
	URL string `koanf:"url"`
}

type Usage struct {
	Enabled       bool          `koanf:"enabled"`
	BatchSize     int           `koanf:"batch_size"`
	FlushInterval time.Duration `koanf:"flush_interval"`
	Buffer        int           `koanf:"buffer"`
	SpoolDir      string        `koanf:"spool_dir"`
	SpoolMaxBytes int64         `koanf:"spool_max_bytes"`
}

type Adapters struct {
	Dir             string        `koanf:"dir"`
	WatchInterval   time.Duration `koanf:"watch_interval"`
	RequireChecksum bool          `koanf:"require_checksum"`
	CacheDir        string        `koanf:"cache_dir"`
	PoolSize        int           `koanf:"pool_size"`
	CallTimeout     time.Duration `koanf:"call_timeout"`
	MemoryLimit     uint64        `koanf:"memory_limit"`
}

type Fetch struct {
	UserAgent            string        `koanf:"user_agent"`
	Delay                time.Duration `koanf:"delay"`
	MaxConcurrentPerHost int           `koanf:"max_concurrent_per_host"`
	MaxAttempts          int           `koanf:"max_attempts"`
	RequestTimeout       time.Duration `koanf:"request_timeout"`
	TotalTimeout         time.Duration `koanf:"total_timeout"`
	MaxBodyBytes         int64         `koanf:"max_body_bytes"`
	Allow                []string      `koanf:"allow"`
	NoDelayHosts         []string      `koanf:"no_delay_hosts"`
	// MinDelay and MaxDelay bound the adaptive pace; zero MinDelay means Delay.
	MinDelay time.Duration `koanf:"min_delay"`
	MaxDelay time.Duration `koanf:"max_delay"`
	Hosts    []FetchHost   `koanf:"hosts"`
	// PageCacheMaxAge and PageCacheMaxBytes prune the pages kept for conditional
	// requests: those unused for the age, then the least recently used over the size.
	PageCacheMaxAge   time.Duration `koanf:"page_cache_max_age"`
	PageCacheMaxBytes int64         `koanf:"page_cache_max_bytes"`
}

// FetchHost overrides the politeness of one host; a zero field keeps fetch's value.
type FetchHost struct {
	// Host is "host" or "host:port", lower case.
	Host          string        `koanf:"host"`
	Delay         time.Duration `koanf:"delay"`
	MinDelay      time.Duration `koanf:"min_delay"`
	MaxDelay      time.Duration `koanf:"max_delay"`
	MaxConcurrent int           `koanf:"max_concurrent"`
}

type Jobs struct {
	Workers      int           `koanf:"workers"`
	ReportEvery  time.Duration `koanf:"report_every"`
	LeaseTTL     time.Duration `koanf:"lease_ttl"`
	PollInterval time.Duration `koanf:"poll_interval"`
	// SearchPollInterval is PollInterval for searches, which a caller waits on.
	SearchPollInterval time.Duration `koanf:"search_poll_interval"`
}

type Crawl struct {
	Collections int `koanf:"collections"`
	MaxPages    int `koanf:"max_pages"`
}

// Render configures the drawing of pages through headless Chromium (core/render):
// application shells the adapters find nothing in, and every page of Vendors.
type Render struct {
	Enabled bool `koanf:"enabled"`
	// Chromium is the browser binary; empty means chromium on PATH.
	Chromium string        `koanf:"chromium"`
	Tabs     int           `koanf:"tabs"`
	Timeout  time.Duration `koanf:"timeout"`
	Quiet    time.Duration `koanf:"quiet"`
	// Vendors are the hosts whose HTML pages are always rendered.
	Vendors []string `koanf:"vendors"`
}

type Extract struct {
	Concurrency  int           `koanf:"concurrency"`
	Attempts     int           `koanf:"attempts"`
	Backoff      time.Duration `koanf:"backoff"`
	RecordMaxAge time.Duration `koanf:"record_max_age"`
}

type RateLimit struct {
	Requests int           `koanf:"requests"`
	Window   time.Duration `koanf:"window"`
}

type Auth struct {
	CacheTTL time.Duration `koanf:"cache_ttl"`
}

type Credits struct {
	ExtractPerURL     int64 `koanf:"extract_per_url"`
	AgenticSearch     int64 `koanf:"agentic_search"`
	AgenticSearchMini int64 `koanf:"agentic_search_mini"`
	Crawl             int64 `koanf:"crawl"`
}

type Search struct {
	DefaultLimit   int           `koanf:"default_limit"`
	MaxLimit       int           `koanf:"max_limit"`
	MinResults     int           `koanf:"min_results"`
	Candidates     int           `koanf:"candidates"`
	MiniCandidates int           `koanf:"mini_candidates"`
	VocabularyTTL  time.Duration `koanf:"vocabulary_ttl"`
	LLM            SearchLLM     `koanf:"llm"`
}

type SearchLLM struct {
	Enabled bool          `koanf:"enabled"`
	BaseURL string        `koanf:"base_url"`
	Model   string        `koanf:"model"`
	APIKey  string        `koanf:"api_key"`
	Timeout time.Duration `koanf:"timeout"`
}

// Affiliate is the affiliate network of /v1/affiliate and /v2/affiliate; the rules of its
// template and vendors are core/affiliate's.
type Affiliate struct {
	Template string   `koanf:"template"`
	Vendors  []string `koanf:"vendors"`
}

// Network builds the configured network, nil when none is configured. Its errors name the
// key at fault.
func (a Affiliate) Network() (*affiliate.Network, error) {
	n, err := affiliate.New(affiliate.Options{Template: a.Template, Vendors: a.Vendors})
	if err != nil {
		return nil, fmt.Errorf("affiliate.%w", err)
	}
	return n, nil
}

// Webhooks are the deliveries of executions' ends to clients' receivers (core/webhook).
type Webhooks struct {
	Allow         []string        `koanf:"allow"`
	RetrySchedule []time.Duration `koanf:"retry_schedule"`
	Timeout       time.Duration   `koanf:"timeout"`
	Workers       int             `koanf:"workers"`
	PollInterval  time.Duration   `koanf:"poll_interval"`
}

type Log struct {
	Level  string `koanf:"level"`
	Format string `koanf:"format"`
}

// EnvPrefix starts every environment variable that overrides a key.
const EnvPrefix = "STOCKROOM_"

// Load reads the defaults, then the file at path (when not empty), then environ (os.Environ()
// form), and validates the result.
func Load(path string, environ []string) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(rawbytes.Provider(defaults), yaml.Parser()); err != nil {
		return nil, fmt.Errorf("load defaults: %w", err)
	}
	if path != "" {
		if err := k.Load(file.Provider(path), yaml.Parser()); err != nil {
			return nil, fmt.Errorf("load config file %s: %w", path, err)
		}
	}
	// The conventional variables first, so that STOCKROOM_* ones win when both are set.
	aliases := map[string]any{}
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "DATABASE_URL" && value != "":
			aliases["database.url"] = value
		case name == "CLICKHOUSE_URL" && value != "":
			aliases["clickhouse.url"] = value
		}
	}
	if err := k.Load(confmap.Provider(aliases, "."), nil); err != nil {
		return nil, err
	}
	envProvider := env.Provider(".", env.Opt{
		Prefix:      EnvPrefix,
		EnvironFunc: func() []string { return environ },
		TransformFunc: func(name, value string) (string, any) {
			key := strings.ToLower(strings.TrimPrefix(name, EnvPrefix))
			return strings.ReplaceAll(key, "__", "."), value
		},
	})
	if err := k.Load(envProvider, nil); err != nil {
		return nil, fmt.Errorf("load environment: %w", err)
	}
	// Lists come from the environment as comma-separated strings.
	for _, key := range []string{"fetch.allow", "fetch.no_delay_hosts", "affiliate.vendors", "webhooks.allow", "webhooks.retry_schedule", "render.vendors"} {
		if v, ok := k.Get(key).(string); ok {
			var items []string
			for _, item := range strings.Split(v, ",") {
				if item = strings.TrimSpace(item); item != "" {
					items = append(items, item)
				}
			}
			_ = k.Set(key, items)
		}
	}
	if unknown := unknownKeys(k); len(unknown) > 0 {
		return nil, fmt.Errorf("unknown configuration keys: %s", strings.Join(unknown, ", "))
	}
	var c Config
	if err := k.UnmarshalWithConf("", &c, koanf.UnmarshalConf{Tag: "koanf", FlatPaths: false}); err != nil {
		return nil, fmt.Errorf("read configuration: %w", err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// unknownKeys finds keys that the defaults do not have: a misspelt key must not pass silently.
func unknownKeys(k *koanf.Koanf) []string {
	known := koanf.New(".")
	_ = known.Load(rawbytes.Provider(defaults), yaml.Parser())
	var unknown []string
	for _, key := range k.Keys() {
		if !known.Exists(key) {
			unknown = append(unknown, key)
		}
	}
	return unknown
}

// Validate checks every key's value and names the key at fault.
func (c *Config) Validate() error {
	var errs []error
	check := func(ok bool, key, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
		}
	}
	check(c.Server.Address != "", "server.address", "must not be empty")
	check(c.Server.BodyLimit > 0, "server.body_limit", "must be positive, got %d", c.Server.BodyLimit)
	check(c.Server.ReadTimeout > 0, "server.read_timeout", "must be positive")
	check(c.Server.WriteTimeout > 0, "server.write_timeout", "must be positive")
	check(c.Server.ShutdownTimeout > 0, "server.shutdown_timeout", "must be positive")
	check(c.Server.GCPercent >= 0, "server.gc_percent", "must not be negative (0 keeps Go's default), got %d", c.Server.GCPercent)
	check(c.Database.MaxConns > 0, "database.max_conns", "must be positive, got %d", c.Database.MaxConns)
	check(c.Usage.BatchSize > 0, "usage.batch_size", "must be positive, got %d", c.Usage.BatchSize)
	check(c.Usage.FlushInterval > 0, "usage.flush_interval", "must be positive")
	check(c.Usage.Buffer > 0, "usage.buffer", "must be positive, got %d", c.Usage.Buffer)
	check(c.Usage.SpoolDir != "", "usage.spool_dir", "must not be empty")
	check(c.Usage.SpoolMaxBytes > 0, "usage.spool_max_bytes", "must be positive")
	check(c.Adapters.WatchInterval > 0, "adapters.watch_interval", "must be positive")
	check(c.Adapters.PoolSize > 0, "adapters.pool_size", "must be positive, got %d", c.Adapters.PoolSize)
	check(c.Adapters.CallTimeout > 0, "adapters.call_timeout", "must be positive")
	check(c.Adapters.MemoryLimit >= 1<<20, "adapters.memory_limit", "must be at least 1 MiB, got %d", c.Adapters.MemoryLimit)
	check(c.Fetch.UserAgent != "", "fetch.user_agent", "must not be empty")
	check(c.Fetch.Delay >= 0, "fetch.delay", "must not be negative")
	check(c.Fetch.MaxConcurrentPerHost > 0, "fetch.max_concurrent_per_host", "must be positive, got %d", c.Fetch.MaxConcurrentPerHost)
	check(c.Fetch.MaxAttempts > 0, "fetch.max_attempts", "must be positive, got %d", c.Fetch.MaxAttempts)
	check(c.Fetch.RequestTimeout > 0, "fetch.request_timeout", "must be positive")
	check(c.Fetch.TotalTimeout >= c.Fetch.RequestTimeout, "fetch.total_timeout", "must be at least fetch.request_timeout")
	check(c.Fetch.MaxBodyBytes > 0, "fetch.max_body_bytes", "must be positive")
	check(c.Fetch.MinDelay >= 0, "fetch.min_delay", "must not be negative, got %s", c.Fetch.MinDelay)
	check(c.Fetch.PageCacheMaxAge > 0, "fetch.page_cache_max_age", "must be positive, got %s", c.Fetch.PageCacheMaxAge)
	check(c.Fetch.PageCacheMaxBytes >= 0, "fetch.page_cache_max_bytes", "must not be negative, got %d", c.Fetch.PageCacheMaxBytes)
	check(c.Fetch.MaxDelay >= c.Fetch.Delay, "fetch.max_delay", "must be at least fetch.delay (%s), got %s", c.Fetch.Delay, c.Fetch.MaxDelay)
	for i, h := range c.Fetch.Hosts {
		key := fmt.Sprintf("fetch.hosts[%d]", i)
		check(h.Host != "" && h.Host == strings.ToLower(h.Host), key+".host", "must be a lower-case host or host:port, got %q", h.Host)
		check(h.Delay >= 0 && h.MinDelay >= 0 && h.MaxDelay >= 0, key, "delays must not be negative")
		check(h.MaxConcurrent >= 0, key+".max_concurrent", "must not be negative, got %d", h.MaxConcurrent)
	}
	check(c.Jobs.Workers > 0, "jobs.workers", "must be positive, got %d", c.Jobs.Workers)
	// A running crawl holds a connection while it lists (its catalog writer's); the crawls'
	// leases and progress saves, the requests and the job queue's fetches take the rest
	// for a moment each, and would wait on a pool the crawls hold whole.
	check(int(c.Database.MaxConns) >= c.Jobs.Workers+2, "database.max_conns",
		"must be at least jobs.workers + 2 = %d (each running crawl holds one while it lists), got %d", c.Jobs.Workers+2, c.Database.MaxConns)
	check(c.Jobs.ReportEvery > 0 && c.Jobs.ReportEvery <= 2*time.Second, "jobs.report_every", "must be between 0 and 2s (progress is promised every 2 s)")
	check(c.Jobs.PollInterval >= 10*time.Millisecond, "jobs.poll_interval", "must be at least 10ms, got %s", c.Jobs.PollInterval)
	check(c.Jobs.SearchPollInterval >= 10*time.Millisecond, "jobs.search_poll_interval", "must be at least 10ms, got %s", c.Jobs.SearchPollInterval)
	check(c.Jobs.LeaseTTL > 2*c.Jobs.ReportEvery, "jobs.lease_ttl", "must be more than twice jobs.report_every")
	check(c.Crawl.Collections > 0, "crawl.collections", "must be positive, got %d", c.Crawl.Collections)
	check(c.Crawl.MaxPages > 0, "crawl.max_pages", "must be positive, got %d", c.Crawl.MaxPages)
	check(c.Render.Tabs > 0, "render.tabs", "must be positive, got %d", c.Render.Tabs)
	check(c.Render.Timeout > 0, "render.timeout", "must be positive")
	check(c.Render.Quiet > 0 && c.Render.Quiet < c.Render.Timeout, "render.quiet", "must be positive and shorter than render.timeout, got %s", c.Render.Quiet)
	for i, v := range c.Render.Vendors {
		check(v != "" && v == strings.ToLower(v) && !strings.Contains(v, "/"), fmt.Sprintf("render.vendors[%d]", i), "must be a lower-case host name, got %q", v)
	}
	check(c.Extract.Concurrency > 0, "extract.concurrency", "must be positive, got %d", c.Extract.Concurrency)
	check(c.Extract.Attempts > 0, "extract.attempts", "must be positive, got %d", c.Extract.Attempts)
	check(c.Extract.Backoff > 0, "extract.backoff", "must be positive")
	check(c.Extract.RecordMaxAge >= 0, "extract.record_max_age", "must not be negative")
	check(c.RateLimit.Requests >= 0, "rate_limit.requests", "must not be negative, got %d", c.RateLimit.Requests)
	check(c.RateLimit.Requests == 0 || c.RateLimit.Window > 0, "rate_limit.window", "must be positive")
	check(c.Auth.CacheTTL >= 0, "auth.cache_ttl", "must not be negative")
	for key, v := range map[string]int64{"credits.extract_per_url": c.Credits.ExtractPerURL, "credits.agentic_search": c.Credits.AgenticSearch,
		"credits.agentic_search_mini": c.Credits.AgenticSearchMini, "credits.crawl": c.Credits.Crawl} {
		check(v >= 0, key, "must not be negative, got %d", v)
	}
	check(c.Search.DefaultLimit > 0, "search.default_limit", "must be positive, got %d", c.Search.DefaultLimit)
	check(c.Search.MaxLimit >= c.Search.DefaultLimit, "search.max_limit", "must be at least search.default_limit, got %d", c.Search.MaxLimit)
	check(c.Search.MinResults > 0, "search.min_results", "must be positive, got %d", c.Search.MinResults)
	check(c.Search.Candidates >= c.Search.MaxLimit, "search.candidates", "must be at least search.max_limit, got %d", c.Search.Candidates)
	check(c.Search.MiniCandidates >= 10, "search.mini_candidates", "must be at least 10 (a mini search returns up to 10), got %d", c.Search.MiniCandidates)
	check(c.Search.VocabularyTTL > 0, "search.vocabulary_ttl", "must be positive")
	if c.Search.LLM.Enabled {
		check(strings.HasPrefix(c.Search.LLM.BaseURL, "http://") || strings.HasPrefix(c.Search.LLM.BaseURL, "https://"),
			"search.llm.base_url", "must be an http(s) URL when search.llm.enabled is true, got %q", c.Search.LLM.BaseURL)
		check(c.Search.LLM.Model != "", "search.llm.model", "must be set when search.llm.enabled is true")
		check(c.Search.LLM.Timeout > 0, "search.llm.timeout", "must be positive")
	}
	if _, err := c.Affiliate.Network(); err != nil {
		errs = append(errs, err)
	}
	check(len(c.Webhooks.RetrySchedule) > 0, "webhooks.retry_schedule", "must hold at least one wait")
	for i, wait := range c.Webhooks.RetrySchedule {
		check(wait > 0, fmt.Sprintf("webhooks.retry_schedule[%d]", i), "must be positive, got %s", wait)
	}
	check(c.Webhooks.Timeout > 0, "webhooks.timeout", "must be positive")
	check(c.Webhooks.Workers > 0, "webhooks.workers", "must be positive, got %d", c.Webhooks.Workers)
	check(c.Webhooks.PollInterval >= 10*time.Millisecond, "webhooks.poll_interval", "must be at least 10ms, got %s", c.Webhooks.PollInterval)
	if c.Tracing.Enabled {
		check(c.Tracing.Endpoint == "" || strings.HasPrefix(c.Tracing.Endpoint, "http://") || strings.HasPrefix(c.Tracing.Endpoint, "https://"),
			"tracing.endpoint", "must be an http(s) URL or empty, got %q", c.Tracing.Endpoint)
		check(c.Tracing.ServiceName != "", "tracing.service_name", "must not be empty when tracing.enabled is true")
	}
	check(c.Tracing.SampleRatio >= 0 && c.Tracing.SampleRatio <= 1, "tracing.sample_ratio", "must be between 0 and 1, got %v", c.Tracing.SampleRatio)
	var level slog.Level
	check(level.UnmarshalText([]byte(c.Log.Level)) == nil, "log.level", "must be debug, info, warn or error, got %q", c.Log.Level)
	check(c.Log.Format == "text" || c.Log.Format == "json", "log.format", "must be text or json, got %q", c.Log.Format)
	return errors.Join(errs...)
}

// RequireDatabase reports a missing database URL by its key and its variables.
func (c *Config) RequireDatabase() error {
	if c.Database.URL == "" {
		return errors.New("database.url: must be set (or DATABASE_URL / STOCKROOM_DATABASE__URL)")
	}
	return nil
}

// Logger builds the process logger the configuration asks for.
func (c *Config) Logger() *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}
