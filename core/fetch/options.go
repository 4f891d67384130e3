package fetch

import (
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"
)

// DefaultUserAgent is sent when Options.UserAgent is empty.
const DefaultUserAgent = "StockroomBot/1.0 (+https://github.com/stockroom/stockroom)"

// Options configure a Fetcher. The zero value is a polite, safe fetcher for the public
// internet; every field documents its default (what zero means).
type Options struct {
	// UserAgent is the User-Agent header of every request. Zero means DefaultUserAgent.
	UserAgent string
	// RobotsToken is the product token matched against robots.txt User-agent lines
	// (case-insensitive). Zero means UserAgent's first token up to "/" ("StockroomBot").
	RobotsToken string

	// Delay is the time between the starts of two requests to one host (retries and
	// robots.txt included) that pacing starts from. Zero means 1s; negative means no delay
	// and no pacing. A longer robots.txt Crawl-delay wins.
	Delay time.Duration
	// MinDelay is the fastest pace: the shortest time between two request starts that
	// pacing speeds up to while a host answers quickly and cleanly. Zero means Delay (never
	// faster than Delay); one longer than a host's delay is cut to it. A longer robots.txt
	// Crawl-delay wins.
	MinDelay time.Duration
	// MaxDelay is the slowest pace: the longest time between two request starts that pacing
	// slows down to when a host refuses, fails or slows down. Zero means 1m.
	MaxDelay time.Duration
	// MaxConcurrentPerHost bounds the requests in flight to one host. Zero means 2.
	MaxConcurrentPerHost int
	// MaxCrawlDelay is the longest robots.txt Crawl-delay honoured; longer ones are cut to
	// it, so that one site cannot stall a crawl for hours. Zero means 30s.
	MaxCrawlDelay time.Duration
	// Hosts overrides politeness per host, keyed by "host:port" or "host" (lower case;
	// the "host:port" entry wins). Meant for loopback benchmarks and the demo store.
	Hosts map[string]HostLimits

	// RobotsTTL is how long a fetched robots.txt is used. Zero means 24h (RFC 9309's limit).
	RobotsTTL time.Duration
	// RobotsErrorTTL is how long a host whose robots.txt could not be read (5xx, 429,
	// network error) stays disallowed before robots.txt is tried again. Zero means 1m.
	RobotsErrorTTL time.Duration

	// MaxAttempts bounds the attempts at one URL (the first one included) when the answer
	// is 429, a 5xx or a network error. Zero means 4; 1 disables retries.
	MaxAttempts int
	// RetryBaseDelay is the backoff before the second attempt; it doubles for each
	// further one, with jitter. Zero means 500ms.
	RetryBaseDelay time.Duration
	// RetryMaxDelay caps one backoff. Zero means 30s.
	RetryMaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the fetcher waits for; a longer one ends the
	// fetch at once with a *StatusError carrying it, for the caller to reschedule.
	// Zero means 2m.
	MaxRetryAfter time.Duration

	// MaxRedirects bounds the redirects followed. Zero means 10; negative means redirects
	// are not followed and the 3xx response is returned.
	MaxRedirects int
	// MaxBodyBytes bounds a body, compressed and decompressed. Zero means 10 MiB.
	MaxBodyBytes int64
	// RequestTimeout bounds one attempt, body included. Zero means 30s.
	RequestTimeout time.Duration
	// TotalTimeout bounds one Fetch call: politeness waits, robots.txt, retries, redirects.
	// Zero means 2m.
	TotalTimeout time.Duration

	// CacheEntries bounds the responses kept in memory for conditional requests, when
	// Pages is not set. Zero means 512; negative disables the cache.
	CacheEntries int
	// CacheBytes bounds the bodies kept, in total. Zero means 64 MiB.
	CacheBytes int64
	// Pages keeps the pages that carry validators, for conditional requests from this
	// process and later ones, in place of the memory cache. Zero means none: only the
	// memory cache remembers them, for this process.
	Pages PageStore

	// Allow lets the fetcher reach addresses the guard refuses otherwise: CIDRs
	// ("127.0.0.0/8"), addresses ("::1") or "host:port" pairs ("127.0.0.1:8080",
	// "localhost:3000"). Zero means none: only public addresses are fetched.
	Allow []string
	// Resolver looks host names up. Zero means net.DefaultResolver.
	Resolver Resolver

	// PolitenessWaited, when set, is told of each request that waited for its host's
	// politeness (the delay, Crawl-delay or a Retry-After pause): the host ("host:port")
	// and how long it waited. It must be quick: it runs on the request's path.
	PolitenessWaited func(hostPort string, waited time.Duration)

	// Logger receives debug lines for each request and warnings. Zero means slog.Default().
	Logger *slog.Logger
}

// HostLimits override Options' politeness for one host.
type HostLimits struct {
	// Delay replaces Options.Delay. Zero means Options.Delay; negative means no delay.
	Delay time.Duration
	// MinDelay and MaxDelay replace Options.MinDelay and Options.MaxDelay. Zero means
	// Options' value; a negative MinDelay means no lower bound.
	MinDelay time.Duration
	MaxDelay time.Duration
	// MaxConcurrent replaces Options.MaxConcurrentPerHost. Zero means that value.
	MaxConcurrent int
	// IgnoreCrawlDelay skips robots.txt's Crawl-delay (robots.txt rules still apply).
	IgnoreCrawlDelay bool
}

// withDefaults returns o with zero fields set to their defaults, or an error naming the
// first field out of range.
func (o Options) withDefaults() (Options, error) {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.RobotsToken == "" {
		tok, _, _ := strings.Cut(o.UserAgent, "/")
		tok, _, _ = strings.Cut(tok, " ")
		o.RobotsToken = tok
	}
	def(&o.Delay, time.Second)
	def(&o.MaxCrawlDelay, 30*time.Second)
	def(&o.MaxDelay, time.Minute)
	def(&o.RobotsTTL, 24*time.Hour)
	def(&o.RobotsErrorTTL, time.Minute)
	def(&o.RetryBaseDelay, 500*time.Millisecond)
	def(&o.RetryMaxDelay, 30*time.Second)
	def(&o.MaxRetryAfter, 2*time.Minute)
	def(&o.RequestTimeout, 30*time.Second)
	def(&o.TotalTimeout, 2*time.Minute)
	if o.MaxConcurrentPerHost == 0 {
		o.MaxConcurrentPerHost = 2
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 4
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = 10
	}
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = 10 << 20
	}
	if o.CacheEntries == 0 {
		o.CacheEntries = 512
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = 64 << 20
	}
	if o.Resolver == nil {
		o.Resolver = net.DefaultResolver
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	for _, f := range []struct {
		name string
		bad  bool
	}{
		{"MaxConcurrentPerHost", o.MaxConcurrentPerHost < 0},
		{"MaxAttempts", o.MaxAttempts < 0},
		{"MaxBodyBytes", o.MaxBodyBytes < 0},
		{"CacheBytes", o.CacheBytes < 0},
		{"MaxCrawlDelay", o.MaxCrawlDelay < 0},
		{"MinDelay", o.MinDelay < 0},
		{"MaxDelay", o.MaxDelay < 0},
		{"RobotsTTL", o.RobotsTTL < 0},
		{"RobotsErrorTTL", o.RobotsErrorTTL < 0},
		{"RetryBaseDelay", o.RetryBaseDelay < 0},
		{"RetryMaxDelay", o.RetryMaxDelay < 0},
		{"MaxRetryAfter", o.MaxRetryAfter < 0},
		{"RequestTimeout", o.RequestTimeout < 0},
		{"TotalTimeout", o.TotalTimeout < 0},
	} {
		if f.bad {
			return o, fmt.Errorf("fetch: Options.%s must not be negative", f.name)
		}
	}
	for host, l := range o.Hosts {
		if l.MaxConcurrent < 0 {
			return o, fmt.Errorf("fetch: Options.Hosts[%q].MaxConcurrent must not be negative", host)
		}
		if l.MaxDelay < 0 {
			return o, fmt.Errorf("fetch: Options.Hosts[%q].MaxDelay must not be negative", host)
		}
	}
	return o, nil
}

// hostLimits are one host's resolved politeness.
type hostLimits struct {
	delay            time.Duration // where pacing starts; zero: no delay, no pacing
	fastest, slowest time.Duration // the bounds of pacing
	concurrent       int
	ignoreCrawlDelay bool
}

// limitsFor resolves the politeness of one host ("host:port", lower case).
func (o *Options) limitsFor(hostPort string) hostLimits {
	l := hostLimits{delay: o.Delay, fastest: o.MinDelay, slowest: o.MaxDelay, concurrent: o.MaxConcurrentPerHost}
	fastestSet := o.MinDelay != 0
	over, ok := o.Hosts[hostPort]
	if !ok {
		host, _, _ := net.SplitHostPort(hostPort)
		over, ok = o.Hosts[host]
	}
	if ok {
		if over.Delay != 0 {
			l.delay = over.Delay
		}
		if over.MinDelay != 0 {
			l.fastest, fastestSet = over.MinDelay, true
		}
		if over.MaxDelay != 0 {
			l.slowest = over.MaxDelay
		}
		if over.MaxConcurrent != 0 {
			l.concurrent = over.MaxConcurrent
		}
		l.ignoreCrawlDelay = over.IgnoreCrawlDelay
	}
	l.delay = max(l.delay, 0)
	if !fastestSet {
		l.fastest = l.delay
	}
	// Pacing starts at the delay, so the fastest pace is never slower than it: a host
	// given a shorter delay than MinDelay (or none) may be fetched that fast.
	l.fastest = min(max(l.fastest, 0), l.delay)
	return l
}
