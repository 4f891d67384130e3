// Package server is Stockroom's HTTP API: it maps each generation's requests (/v1, /v2 and
// the legacy /api) onto core calls and the results onto that generation's shapes. Behaviour
// lives in core/; this package only parses and renders.
package server

import (
	"context"
	"log/slog"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/trace"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/affiliate"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/crawl"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/core/webhook"
	"github.com/stockroom/stockroom/server/console"
)

// Check reports whether a dependency is reachable, for /healthz.
type Check struct {
	Name string
	// Required checks make /healthz answer 503 when they fail; the others only degrade it.
	Required bool
	Probe    func(ctx context.Context) error
}

// Deps are the core services the API serves.
type Deps struct {
	Access  *access.Service
	Catalog *catalog.Service
	// Crawl serves the crawl endpoints; nil leaves them out.
	Crawl *crawl.Service
	// Extract serves the extraction endpoints; nil leaves them out.
	Extract *extract.Service
	// Search serves the agentic search endpoints and legacy /api/search; nil leaves them out.
	Search search.API
	// Usage answers the usage endpoints; nil when no ClickHouse is configured.
	Usage *usage.Service
	// Affiliate makes the links of /v1/affiliate and /v2/affiliate; nil (no network) makes
	// them answer 503.
	Affiliate *affiliate.Network
	// Webhooks serves /v2/webhooks and the webhook of start requests; nil leaves the
	// endpoints out and refuses starts that carry a webhook.
	Webhooks *webhook.Service
	// Recorder receives one event per authenticated call; nil turns metering off.
	Recorder usage.Recorder
	Checks   []Check
	// Stats adds live figures (such as the usage spool) to /healthz.
	Stats func() map[string]any
	// Requests is told of every request answered (metrics); nil tells nobody.
	Requests RequestObserver
	// Tracer records a span for every request (tracing); nil records none.
	Tracer trace.Tracer
	Logger *slog.Logger
}

// RequestObserver is told of each request the API answers: its method, its route
// template (/v2/crawl/{execution_id}, or (unmatched)), its status and how long it took.
type RequestObserver interface {
	ObserveRequest(method, route string, status int, elapsed time.Duration)
}

// Options are the HTTP settings. Zero values take the defaults of configs/default.yaml.
type Options struct {
	BodyLimit    int
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	RateRequests int // 0: no rate limit
	RateWindow   time.Duration
}

// Server is the API.
type Server struct {
	app      *fiber.App
	access   *access.Service
	catalog  *catalog.Service
	crawl    *crawl.Service
	extract  *extract.Service
	search   search.API
	usage    *usage.Service
	webhooks *webhook.Service
	recorder usage.Recorder
	checks   []Check
	stats    func() map[string]any
	requests RequestObserver
	tracer   trace.Tracer
	logger   *slog.Logger
	// routeTemplates is read-only once New returns.
	routeTemplates map[string]string
	// affiliate is the network of the affiliate endpoints; nil when none is configured.
	affiliate *affiliate.Network
}

// New builds the API.
func New(deps Deps, opts Options) *Server {
	if opts.BodyLimit == 0 {
		opts.BodyLimit = 1 << 20
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	s := &Server{
		access: deps.Access, catalog: deps.Catalog, crawl: deps.Crawl, extract: deps.Extract, search: deps.Search, usage: deps.Usage, recorder: deps.Recorder,
		webhooks: deps.Webhooks,
		checks:   deps.Checks, stats: deps.Stats, requests: deps.Requests, tracer: deps.Tracer, logger: deps.Logger,
		affiliate: deps.Affiliate,
	}
	s.app = fiber.New(fiber.Config{
		AppName:               "stockroom",
		BodyLimit:             opts.BodyLimit,
		ReadTimeout:           opts.ReadTimeout,
		WriteTimeout:          opts.WriteTimeout,
		DisableStartupMessage: true,
		// go-json renders the same bytes as encoding/json for less CPU, and list responses
		// are most of the API's work.
		JSONEncoder: gojson.Marshal,
		// Errors raised before the middleware chain (a body over the limit) end up here.
		ErrorHandler: func(c *fiber.Ctx, err error) error { return writeError(c, err, s.logger) },
	})
	s.routes(opts)
	s.routeTemplates = routeTemplates(s.app)
	return s
}

// App exposes the Fiber app, for tests (app.Test) and for listening.
func (s *Server) App() *fiber.App { return s.app }

func (s *Server) routes(opts Options) {
	app := s.app
	app.Use(assignRequestID)
	if s.tracer != nil {
		// Before observe, so that the span sees the status of an error observe answers.
		app.Use(s.trace)
	}
	app.Use(s.observe, s.recoverPanics)
	app.Get("/healthz", s.health)
	app.Get("/openapi.json", openAPIDocument)
	app.Get("/docs", docsPage)
	app.Get("/docs/:asset", docsAsset)
	console.Register(app)
	app.Use(s.authenticate)
	if opts.RateRequests > 0 {
		app.Use(newRateLimiter(opts.RateRequests, opts.RateWindow).limit)
	}

	v1 := app.Group("/v1")
	v1.Get("/vendors", s.vendors(vendorsPage, vendorsV1Shape))
	v1.Post("/collections", s.collections(fromBody, collectionsV1, collectionsV1Shape))
	v1.Post("/listings", s.listings(fromBody, "collection_urls", listingsV1, listingsV1Shape))
	v1.Get("/usage", s.usageReport)
	v1.Post("/affiliate", s.affiliateLinks(affiliateV1Shape))

	v2 := app.Group("/v2")
	v2.Get("/vendors", s.vendors(vendorsPage, vendorsV2Shape))
	v2.Get("/collections", s.collections(fromQuery, collectionsV2, collectionsV2Shape))
	v2.Post("/collections", s.collections(fromBody, collectionsV2, collectionsV2Shape))
	v2.Get("/listings", s.listings(fromQuery, "collection_url", listingsV2, listingsV2Shape))
	v2.Post("/listings", s.listings(fromBody, "collection_url", listingsV2, listingsV2Shape))
	v2.Get("/usage", s.usageReport)
	v2.Get("/usage/activity", s.usageActivity)
	v2.Get("/account", s.account)
	v2.Post("/affiliate", s.affiliateLinks(affiliateV2Shape))

	if s.crawl != nil {
		v1.Post("/crawl", s.crawlStart(false))
		v1.Get("/crawl", s.crawlList(executionListV1, executionsV1))
		v1.Get("/crawl/:execution_id", s.crawlStatus(crawlV1))
		v1.Delete("/crawl/:execution_id", s.crawlCancel)
		v2.Post("/crawl", s.crawlStart(true))
		v2.Get("/crawl", s.crawlList(executionListV2, executionsV2))
		v2.Get("/crawl/:execution_id", s.crawlStatus(crawlV2))
		v2.Delete("/crawl/:execution_id", s.crawlCancel)
	}

	legacy := app.Group("/api")
	if s.extract != nil {
		v1.Post("/products", s.productsStartV1)
		v1.Get("/products", s.extractList(execution.ProductsBatch, executionListV2, executionsV1))
		v1.Get("/products/:execution_id", s.productsStatusV1)
		v1.Delete("/products/:execution_id", s.extractCancel(execution.ProductsBatch))
		v2.Post("/extract", s.extractStartV2)
		v2.Get("/extract", s.extractList(execution.Extract, executionListV2, executionsV2))
		v2.Get("/extract/:execution_id", s.extractStatusV2)
		v2.Delete("/extract/:execution_id", s.extractCancel(execution.Extract))
		legacy.Post("/product", s.legacyProduct)
		legacy.Post("/products", s.legacyProducts)
	}
	if s.search != nil {
		v1.Post("/agentic-search", s.searchNow)
		v1.Post("/agentic-search-mini", s.miniV1)
		v2.Post("/agentic-search", s.searchStart)
		v2.Get("/agentic-search", s.searchList)
		v2.Get("/agentic-search/:execution_id", s.searchStatus)
		v2.Delete("/agentic-search/:execution_id", s.searchCancel)
		v2.Post("/agentic-search-mini", s.miniV2)
		legacy.Post("/agentic-search-mini", s.miniV1)
		legacy.Post("/search", s.legacySearch)
	}
	if s.webhooks != nil {
		// Before /webhooks/:webhook_id, which would take "deliveries" for an id.
		v2.Get("/webhooks/deliveries", s.executionDeliveries)
		v2.Post("/webhooks", s.webhookCreate)
		v2.Get("/webhooks", s.webhookList)
		v2.Get("/webhooks/:webhook_id", s.webhookGet)
		v2.Delete("/webhooks/:webhook_id", s.webhookDelete)
		v2.Get("/webhooks/:webhook_id/deliveries", s.webhookDeliveries)
	}
	legacy.Get("/vendors", s.legacyVendors)
	legacy.Get("/usage", s.legacyUsage)

	app.Use(unmatched)
}

// Listen serves on address until ctx ends, then drains requests in flight for up to grace.
func (s *Server) Listen(ctx context.Context, address string, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- s.app.Listen(address) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.logger.Info("api stopping", "grace", grace)
	return s.app.ShutdownWithTimeout(grace)
}

// health reports each dependency's reachability; it needs no key.
func (s *Server) health(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	status, code := "ok", fiber.StatusOK
	checks := fiber.Map{}
	for _, check := range s.checks {
		start := time.Now()
		err := check.Probe(ctx)
		result := fiber.Map{"ok": err == nil, "latency_ms": float64(time.Since(start).Microseconds()) / 1000}
		if err != nil {
			result["error"] = err.Error()
			if check.Required {
				status, code = "unavailable", fiber.StatusServiceUnavailable
			} else if status == "ok" {
				status = "degraded"
			}
		}
		checks[check.Name] = result
	}
	body := fiber.Map{"status": status, "checks": checks}
	if s.stats != nil {
		for k, v := range s.stats() {
			body[k] = v
		}
	}
	return c.Status(code).JSON(body)
}
