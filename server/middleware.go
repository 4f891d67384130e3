package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"golang.org/x/time/rate"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/usage"
)

const (
	localRequestID = "request_id"
	localPrincipal = "principal"
	localCredits   = "credits"
	localUnmatched = "unmatched"
)

// A client's own request id is kept when it is a sane token.
var saneRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

func requestID(c *fiber.Ctx) string {
	if id, ok := c.Locals(localRequestID).(string); ok {
		return id
	}
	id := uuid.NewString()
	c.Locals(localRequestID, id)
	c.Set("Request-ID", id)
	return id
}

// assignRequestID gives every response a Request-ID header, the client's when sane.
func assignRequestID(c *fiber.Ctx) error {
	id := c.Get("Request-ID")
	if !saneRequestID.MatchString(id) {
		id = uuid.NewString()
	}
	c.Locals(localRequestID, id)
	c.Set("Request-ID", id)
	return c.Next()
}

// principal returns who the request comes from; set by authenticate.
func principal(c *fiber.Ctx) access.Principal {
	p, _ := c.Locals(localPrincipal).(access.Principal)
	return p
}

// chargeCredits notes what the request charged, for its usage event.
func chargeCredits(c *fiber.Ctx, credits int64) { c.Locals(localCredits, credits) }

// observe answers errors in the documented shape, tells the request observer of every
// request, and records one usage event for every authenticated request, failed ones
// included.
func (s *Server) observe(c *fiber.Ctx) error {
	start := time.Now()
	if err := c.Next(); err != nil {
		if werr := writeError(c, err, s.logger); werr != nil {
			return werr
		}
	}
	if s.requests != nil {
		s.requests.ObserveRequest(c.Method(), s.routeTemplate(c), c.Response().StatusCode(), time.Since(start))
	}
	p := principal(c)
	if p.KeyID == "" || s.recorder == nil {
		return nil
	}
	credits, _ := c.Locals(localCredits).(int64)
	s.recorder.Record(usage.Event{
		Time:           start,
		OrganizationID: p.OrganizationID,
		KeyID:          p.KeyID,
		Method:         c.Method(),
		Path:           s.routeTemplate(c),
		Status:         c.Response().StatusCode(),
		Latency:        time.Since(start),
		Credits:        credits,
		RequestID:      requestID(c),
	})
	return nil
}

var routeParam = regexp.MustCompile(`:([A-Za-z_]+)`)

// routeTemplates maps each registered route path to the interface's notation
// (/v2/crawl/:execution_id to /v2/crawl/{execution_id}), computed once at start so that
// metering a call costs no regular expression.
func routeTemplates(app *fiber.App) map[string]string {
	templates := map[string]string{}
	for _, r := range app.GetRoutes() {
		templates[r.Path] = routeParam.ReplaceAllString(r.Path, "{$1}")
	}
	return templates
}

// routeTemplate is the matched route in the interface's notation, so usage groups by
// endpoint, not by id.
func (s *Server) routeTemplate(c *fiber.Ctx) string {
	if unmatched, _ := c.Locals(localUnmatched).(bool); unmatched {
		return "(unmatched)"
	}
	path := c.Route().Path
	if t, ok := s.routeTemplates[path]; ok {
		return t
	}
	return routeParam.ReplaceAllString(path, "{$1}")
}

// recoverPanics turns a panic into a 500 that still carries the request id.
func (s *Server) recoverPanics(c *fiber.Ctx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("panic in handler", "request_id", requestID(c), "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return c.Next()
}

// authenticate accepts x-api-key or Authorization: Bearer.
func (s *Server) authenticate(c *fiber.Ctx) error {
	secret := c.Get("x-api-key")
	if secret == "" {
		if auth := c.Get(fiber.HeaderAuthorization); len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
			secret = strings.TrimSpace(auth[7:])
		}
	}
	if secret == "" {
		return errUnauthorized{msgKeyRequired}
	}
	p, err := s.access.Authenticate(c.UserContext(), secret)
	if errors.Is(err, access.ErrUnknownKey) {
		return errUnauthorized{msgInvalidKey}
	}
	if err != nil {
		return fmt.Errorf("authenticate: %w", err)
	}
	c.Locals(localPrincipal, p)
	return c.Next()
}

// rateLimiter is a token bucket per API key: `requests` per `window`, refilled evenly.
type rateLimiter struct {
	requests int
	window   time.Duration
	mu       sync.Mutex
	buckets  map[string]*rate.Limiter
}

func newRateLimiter(requests int, window time.Duration) *rateLimiter {
	return &rateLimiter{requests: requests, window: window, buckets: map[string]*rate.Limiter{}}
}

func (l *rateLimiter) bucket(key string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		b = rate.NewLimiter(rate.Limit(float64(l.requests)/l.window.Seconds()), l.requests)
		l.buckets[key] = b
	}
	return b
}

// limit sets the RateLimit-* headers and refuses a request over the limit with 429.
func (l *rateLimiter) limit(c *fiber.Ctx) error {
	b := l.bucket(principal(c).KeyID)
	now := time.Now()
	allowed := b.AllowN(now, 1)
	tokens := b.TokensAt(now)
	perToken := l.window.Seconds() / float64(l.requests)
	c.Set("RateLimit-Limit", strconv.Itoa(l.requests))
	c.Set("RateLimit-Remaining", strconv.Itoa(max(0, int(math.Floor(tokens)))))
	c.Set("RateLimit-Reset", strconv.Itoa(int(math.Ceil((float64(l.requests)-tokens)*perToken))))
	if !allowed {
		retry := int(math.Ceil((1 - tokens) * perToken))
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(max(1, retry)))
		return &failure.Error{Kind: failure.RateLimited, Message: fmt.Sprintf("rate limit of %d requests per %s exceeded", l.requests, l.window)}
	}
	return c.Next()
}

// unmatched answers routes that do not exist.
func unmatched(c *fiber.Ctx) error {
	c.Locals(localUnmatched, true)
	return failure.NotFoundf("no route %s %s", c.Method(), c.Path())
}

// withTimeout bounds a handler's context; Fiber's own UserContext is never canceled.
func withTimeout(c *fiber.Ctx, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.UserContext(), d)
}
