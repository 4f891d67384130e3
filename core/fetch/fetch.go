package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// Fetcher fetches web pages politely and safely. It is safe for concurrent use; one
// Fetcher should serve a whole process, since politeness and the cache are per Fetcher.
type Fetcher struct {
	opts         Options
	log          *slog.Logger
	guard        *guard
	transport    *http.Transport
	client       *http.Client // follows no redirects: Fetch does, hop by hop
	robotsClient *http.Client // follows robots.txt's redirects itself
	hosts        hosts
	cache        *cache
	moved        *movedOrigins
	stats        counters
	bodyBlocks   sync.Pool // *[bodyBlock]byte, see readBody
	// timedOut is the cause of a Fetch that ran out of TotalTimeout. It is made once,
	// because formatting it for each request cost a crawl measurable CPU.
	timedOut error
}

// Request is one URL to fetch (always with GET).
type Request struct {
	URL string
	// Header is added to each request, e.g. Accept or Accept-Language. The fetcher sets
	// User-Agent, Accept-Encoding and the conditional headers itself.
	Header http.Header
}

// Response is a fetched page. Every status the fetcher does not treat as an error comes
// back as a Response: a 404 says "no such product", which is the caller's to interpret.
type Response struct {
	// RequestedURL is Request.URL; FinalURL the URL that answered after redirects.
	RequestedURL string
	FinalURL     string
	// Redirects are the URLs that answered with a redirect, in order, starting with
	// RequestedURL; empty when there was none. The chain is Redirects then FinalURL. A
	// URL on an origin whose site has moved (see movedOrigins) is asked for where the
	// site went: FinalURL is there, and the chain starts there.
	Redirects []string
	Status    int
	// Header is the final response's. Content-Encoding and Content-Length are removed,
	// since Body is decompressed.
	Header http.Header
	// Body is the body converted to UTF-8 for text types (HTML, XML, JSON, text/*);
	// other types are as received.
	Body []byte
	// RawBody is the body decompressed but in its original charset.
	RawBody []byte
	// ContentType is the media type without parameters ("text/html"), sniffed when the
	// server sent none. Charset is the charset Body was converted from, WHATWG-named
	// ("utf-8", "windows-1252", "shift_jis"); empty for non-text types.
	ContentType string
	Charset     string
	// Revalidated is set when the server answered 304 Not Modified to a conditional
	// request and Body is the cached copy.
	Revalidated bool
	// Attempts counts the HTTP requests made for this fetch, retries and redirects
	// included (robots.txt not).
	Attempts int
	Duration time.Duration
}

// Stats are a Fetcher's counters since New.
type Stats struct {
	Requests     int64 // HTTP requests sent, robots.txt and retries included
	Retries      int64 // attempts after the first at one URL
	CacheHits    int64 // 304 Not Modified answers served from the cache
	Bytes        int64 // body bytes received, as sent (compressed)
	Blocked      int64 // fetches refused by the address guard
	BotWalls     int64 // bot walls recognised
	RobotsDenied int64 // fetches refused by robots.txt
}

type counters struct {
	requests, retries, cacheHits, bytes, blocked, botWalls, robotsDenied atomic.Int64
}

// New returns a Fetcher configured by opts (see Options for the defaults).
func New(opts Options) (*Fetcher, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	g, err := newGuard(opts.Allow, opts.Resolver)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	f := &Fetcher{
		opts:     opts,
		log:      opts.Logger.With("component", "fetch"),
		guard:    g,
		moved:    newMovedOrigins(),
		timedOut: fmt.Errorf("%w (%s): %w", ErrTimeout, opts.TotalTimeout, context.DeadlineExceeded),
	}
	if opts.Pages == nil {
		f.cache = newCache(opts.CacheEntries, opts.CacheBytes)
	}
	f.hosts = hosts{opts: &f.opts, m: map[string]*host{}}
	f.transport = &http.Transport{
		// No proxy, ever: the proxy would be dialed instead of the destination and the
		// guard would judge the wrong address.
		Proxy:                 nil,
		DialContext:           g.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   max(opts.MaxConcurrentPerHost, 2),
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true, // see acceptEncoding
	}
	f.client = &http.Client{
		Transport:     f.transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	f.robotsClient = &http.Client{
		Transport: f.transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > robotsMaxRedirects {
				return errRobotsRedirects
			}
			_, err := g.checkURL(req.URL.String())
			return err
		},
	}
	return f, nil
}

// Stats returns the counters so far.
func (f *Fetcher) Stats() Stats {
	return Stats{
		Requests:     f.stats.requests.Load(),
		Retries:      f.stats.retries.Load(),
		CacheHits:    f.stats.cacheHits.Load(),
		Bytes:        f.stats.bytes.Load(),
		Blocked:      f.stats.blocked.Load(),
		BotWalls:     f.stats.botWalls.Load(),
		RobotsDenied: f.stats.robotsDenied.Load(),
	}
}

// CloseIdleConnections closes the connections kept for reuse (tests, shutdown).
func (f *Fetcher) CloseIdleConnections() { f.transport.CloseIdleConnections() }

// Fetch fetches req.URL: address guard, robots.txt, politeness, retries, redirects,
// decompression, charset conversion. It returns as soon as ctx is done, with ctx's error.
// Errors wrap the sentinels and types of errors.go; IsTransient tells which may pass.
func (f *Fetcher) Fetch(ctx context.Context, req *Request) (*Response, error) {
	start := time.Now()
	u, err := f.guard.checkURL(req.URL)
	if err != nil {
		if errors.Is(err, ErrForbiddenAddress) {
			f.stats.blocked.Add(1)
		}
		return nil, fmt.Errorf("fetch %s: %w", req.URL, err)
	}
	if moved := f.moved.rewrite(u, start); moved != u {
		if u, err = f.guard.checkURL(moved.String()); err != nil {
			return nil, fmt.Errorf("fetch %s (moved to %s): %w", req.URL, moved, err)
		}
	}
	resp := &Response{RequestedURL: req.URL}
	b := &budget{left: f.opts.TotalTimeout}
	fail := func(err error) (*Response, error) {
		if len(resp.Redirects) > 0 {
			return nil, fmt.Errorf("fetch %s (redirected to %s): %w", req.URL, u, err)
		}
		return nil, fmt.Errorf("fetch %s: %w", req.URL, err)
	}
	for {
		hop, err := f.fetchURL(ctx, u, req.Header, resp, b)
		if err != nil {
			return fail(err)
		}
		if loc := hop.header.Get("Location"); isRedirect(hop.status) && loc != "" && f.opts.MaxRedirects >= 0 {
			if len(resp.Redirects) >= f.opts.MaxRedirects {
				return fail(fmt.Errorf("%w (%d)", ErrTooManyRedirects, f.opts.MaxRedirects))
			}
			next, err := u.Parse(loc)
			if err != nil {
				return fail(fmt.Errorf("redirect to %q: %w: %v", loc, ErrInvalidURL, err))
			}
			next.Fragment = ""
			resp.Redirects = append(resp.Redirects, u.String())
			f.log.Debug("redirect", "from", u.String(), "to", next.String(), "status", hop.status)
			checked, err := f.guard.checkURL(next.String())
			from := u
			u = next
			if err != nil {
				if errors.Is(err, ErrForbiddenAddress) {
					f.stats.blocked.Add(1)
				}
				return fail(err)
			}
			f.moved.learn(hop.status, from, checked, time.Now())
			u = checked
			continue
		}
		resp.FinalURL = u.String()
		resp.Status = hop.status
		resp.Header = hop.header
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.RawBody = hop.body
		resp.ContentType, resp.Body, resp.Charset = decodeText(hop.body, hop.header.Get("Content-Type"))
		resp.Revalidated = hop.revalidated
		resp.Duration = time.Since(start)
		return resp, nil
	}
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// hopResult is one URL's answer, before charset conversion.
type hopResult struct {
	status      int
	header      http.Header
	body        []byte // decompressed; nil for redirects
	revalidated bool
}

// budget is what is left of one Fetch's TotalTimeout. Only the fetch's own work spends it
// (its requests and the backoffs between them): waiting for its turn at the host is
// politeness, not a sign that the fetch failed, and does not count.
type budget struct{ left time.Duration }

func (b *budget) spend(since time.Time) { b.left -= time.Since(since) }

// fetchURL fetches one URL of a redirect chain: robots.txt, then attempts until an answer
// that is not retried, the attempts run out, the budget is spent or ctx is done.
func (f *Fetcher) fetchURL(ctx context.Context, u *url.URL, extra http.Header, resp *Response, b *budget) (*hopResult, error) {
	key, hostPort := hostKey(u)
	h := f.hosts.get(key, hostPort)
	rules, err := f.checkRobots(ctx, h, u)
	if err != nil {
		return nil, err
	}
	if file := rules.copyFor(u, extra); file != nil {
		return file, nil
	}
	ckey := cacheKey(u.String(), extra)
	cached := f.knownEntry(ctx, ckey)
	var last error
	for attempt := 1; ; attempt++ {
		resp.Attempts++
		res, retryAfter, err := f.attempt(ctx, h, u, extra, cached, attempt > 1, b)
		if err != nil {
			switch {
			case ctx.Err() != nil:
				return nil, context.Cause(ctx)
			case errors.Is(err, errBudgetSpent):
				return nil, f.timedOut
			case errors.Is(err, ErrForbiddenAddress):
				f.stats.blocked.Add(1)
				return nil, err
			case errors.Is(err, ErrBodyTooLarge), errors.Is(err, ErrUnsupportedEncoding), errors.Is(err, ErrTimeout):
				return nil, err
			case !transientNetwork(err):
				return nil, &NetworkError{URL: u.String(), Attempts: attempt, Err: err}
			}
			last = &NetworkError{URL: u.String(), Attempts: attempt, Err: err}
		} else {
			if service, ok := DetectBotWall(res.status, res.header, res.body); ok {
				f.stats.botWalls.Add(1)
				return nil, &BotWallError{URL: u.String(), Status: res.status, Service: service}
			}
			if res.status == http.StatusNotModified && cached != nil {
				f.stats.cacheHits.Add(1)
				return f.revalidated(ctx, cached, res.header), nil
			}
			if !retryableStatus(res.status) {
				f.keep(ctx, ckey, res.status, res.header, res.body, cached)
				return res, nil
			}
			se := &StatusError{URL: u.String(), Status: res.status, Attempts: attempt, RetryAfter: retryAfter}
			if retryAfter > f.opts.MaxRetryAfter {
				return nil, se
			}
			// Other requests to the host wait too: Retry-After is about the server.
			h.pause(retryAfter)
			last = se
		}
		if attempt >= f.opts.MaxAttempts {
			return nil, last
		}
		wait := f.backoff(attempt, retryAfter)
		if wait > b.left {
			return nil, fmt.Errorf("%w; last attempt: %w", f.timedOut, last)
		}
		f.log.Debug("retry", "url", u.String(), "attempt", attempt, "wait", wait, "err", last)
		slept := time.Now()
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
		b.spend(slept)
		f.stats.retries.Add(1)
	}
}

// errBudgetSpent is an attempt not made because the fetch's TotalTimeout is spent.
var errBudgetSpent = errors.New("the fetch's time is spent")

// attempt sends one request once a politeness slot is free, and reads the answer. It
// counts the request in ctx's Meter and adapts the host's pace to the answer.
func (f *Fetcher) attempt(ctx context.Context, h *host, u *url.URL, extra http.Header, cached *cacheEntry, retry bool, b *budget) (_ *hopResult, retryAfter time.Duration, _ error) {
	release, err := acquireObserved(ctx, h)
	if err != nil {
		return nil, 0, err
	}
	defer release()
	if b.left <= 0 {
		return nil, 0, errBudgetSpent
	}
	start := time.Now()
	defer b.spend(start)
	actx, cancel := context.WithTimeout(ctx, min(f.opts.RequestTimeout, b.left))
	defer cancel()
	counted := sent{retry: retry, conditional: cached != nil}
	defer func() { meterFrom(ctx).count(counted) }()
	timedOut := func(err error) error {
		if actx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("attempt timed out after %s: %w", f.opts.RequestTimeout, err)
		}
		return err
	}

	req, err := http.NewRequestWithContext(actx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrInvalidURL, err)
	}
	for k, v := range extra {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	}
	if cached != nil {
		cached.conditional(req.Header)
	}

	f.stats.requests.Add(1)
	resp, err := f.client.Do(req)
	if err != nil {
		f.log.Debug("request failed", "url", u.String(), "err", err)
		if ctx.Err() == nil {
			h.observe(answer{latency: time.Since(start)})
		}
		return nil, 0, timedOut(err)
	}
	defer resp.Body.Close()
	retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	h.observe(answer{latency: time.Since(start), status: resp.StatusCode, retryAfter: retryAfter})
	counted.answered = true
	counted.redirect = isRedirect(resp.StatusCode)
	counted.contentType = resp.Header.Get("Content-Type")
	if resp.StatusCode == http.StatusNotModified && cached != nil {
		counted.notModified = true
		counted.contentType = cached.header.Get("Content-Type")
	}
	res := &hopResult{status: resp.StatusCode, header: resp.Header}
	if isRedirect(resp.StatusCode) {
		// Read a little so the connection can be reused; the body of a redirect is noise.
		n, _ := io.CopyN(io.Discard, resp.Body, 4<<10)
		f.stats.bytes.Add(n)
		f.log.Debug("fetched", "url", u.String(), "status", resp.StatusCode, "duration", time.Since(start))
		return res, 0, nil
	}
	body, wire, err := readBody(resp.Body, resp.Header.Get("Content-Encoding"), resp.ContentLength, f.opts.MaxBodyBytes, &f.bodyBlocks)
	f.stats.bytes.Add(wire)
	if err != nil {
		if errors.Is(err, ErrBodyTooLarge) {
			return nil, 0, fmt.Errorf("%w: more than %d bytes", ErrBodyTooLarge, f.opts.MaxBodyBytes)
		}
		return nil, 0, timedOut(fmt.Errorf("read body: %w", err))
	}
	res.body = body
	f.log.Debug("fetched", "url", u.String(), "status", resp.StatusCode, "bytes", wire,
		"decoded", len(body), "duration", time.Since(start))
	return res, retryAfter, nil
}
