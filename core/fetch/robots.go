package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/temoto/robotstxt"
)

// robotsMaxBytes is how much of a robots.txt is read; RFC 9309 asks parsers to read at
// least 500 KiB and lets them ignore the rest.
const robotsMaxBytes = 500 << 10

// robotsMaxRedirects is RFC 9309's "at least five consecutive redirects".
const robotsMaxRedirects = 5

// robotsRules is what one origin's robots.txt says to us.
type robotsRules struct {
	group       *robotstxt.Group // nil: everything allowed (no robots.txt, 4xx)
	unavailable error            // non-nil: complete disallow (5xx, 429, network)
	expires     time.Time
	// file is the robots.txt the rules were read from, when it answered 200: a fetch of
	// robots.txt itself (a sitemap reader looking for its Sitemap lines) is given this
	// copy, the one the fetcher obeys, instead of asking the host again.
	file *hopResult
}

// copyFor returns the robots.txt the rules were read from when u asks for it without
// extra headers; nil otherwise.
func (r *robotsRules) copyFor(u *url.URL, extra http.Header) *hopResult {
	if r.file == nil || u.EscapedPath() != "/robots.txt" || u.RawQuery != "" || len(extra) > 0 {
		return nil
	}
	return &hopResult{status: r.file.status, header: r.file.header.Clone(), body: bytes.Clone(r.file.body)}
}

func (r *robotsRules) allows(u *url.URL) bool {
	if r.unavailable != nil {
		return false
	}
	if r.group == nil {
		return true
	}
	// RFC 9309 matches rules against the path and query, percent-encoded as sent.
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return r.group.Test(path)
}

// checkRobots returns the rules in force when robots.txt lets us fetch u, fetching it
// first when the cached copy is missing or stale.
func (f *Fetcher) checkRobots(ctx context.Context, h *host, u *url.URL) (*robotsRules, error) {
	select {
	case h.robotsLock <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	defer func() { <-h.robotsLock }()

	if h.robots == nil || time.Now().After(h.robots.expires) {
		rules, err := f.fetchRobots(ctx, h, u)
		if err != nil {
			return nil, err
		}
		if rules.unavailable != nil && h.robots != nil && h.robots.unavailable == nil {
			// RFC 9309 §2.4 lets a crawler keep using a cached copy while robots.txt is
			// unreachable; only a host we never read is treated as fully disallowed.
			f.log.Warn("robots.txt unavailable, keeping the cached copy", "origin", origin(u), "err", rules.unavailable)
			rules.group, rules.file = h.robots.group, h.robots.file
			rules.unavailable = nil
		}
		h.robots = rules
		var crawlDelay time.Duration
		if rules.group != nil {
			crawlDelay = min(rules.group.CrawlDelay, f.opts.MaxCrawlDelay)
		}
		h.applyCrawlDelay(crawlDelay)
	}
	if !h.robots.allows(u) {
		f.stats.robotsDenied.Add(1)
		return nil, &RobotsError{URL: u.String(), Unavailable: h.robots.unavailable != nil, Cause: h.robots.unavailable}
	}
	return h.robots, nil
}

// fetchRobots reads u's origin's robots.txt. An error is returned only when the fetch must
// not be judged at all (ctx done, forbidden address); an unreadable robots.txt is a rule.
// A robots.txt that carries a validator is kept like any page (the cache, the PageStore),
// so that the next read, in this process or a later one, asks only whether it changed.
func (f *Fetcher) fetchRobots(ctx context.Context, h *host, u *url.URL) (*robotsRules, error) {
	robotsURL := origin(u) + "/robots.txt"
	now := time.Now()
	unavailable := func(err error) (*robotsRules, error) {
		f.log.Debug("robots.txt unavailable", "url", robotsURL, "err", err)
		return &robotsRules{unavailable: err, expires: now.Add(f.opts.RobotsErrorTTL)}, nil
	}

	release, err := h.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	actx, cancel := context.WithTimeout(ctx, f.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return nil, fmt.Errorf("robots.txt %s: %w", robotsURL, err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	cached := f.knownEntry(ctx, robotsURL)
	if cached != nil {
		cached.conditional(req.Header)
	}
	f.stats.requests.Add(1)
	counted := sent{robots: true, conditional: cached != nil}
	defer func() { meterFrom(ctx).count(counted) }()
	start := time.Now()
	resp, err := f.robotsClient.Do(req)
	if err == nil {
		h.observe(answer{latency: time.Since(start), status: resp.StatusCode, retryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())})
		counted.answered = true
	}
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, context.Cause(ctx)
		case errors.Is(err, ErrForbiddenAddress):
			f.stats.blocked.Add(1)
			return nil, fmt.Errorf("robots.txt %s: %w", robotsURL, err)
		case errors.Is(err, errRobotsRedirects):
			// RFC 9309 §2.3.1.2: past five redirects robots.txt may be taken as unavailable
			// in the 4xx sense, which allows everything.
			return &robotsRules{expires: now.Add(f.opts.RobotsTTL)}, nil
		}
		return unavailable(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, robotsMaxBytes))
	f.stats.bytes.Add(int64(len(body)))
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return unavailable(err)
	}
	status, header := resp.StatusCode, resp.Header
	if status == http.StatusNotModified && cached != nil {
		counted.notModified = true
		f.stats.cacheHits.Add(1)
		reused := f.revalidated(ctx, cached, resp.Header)
		status, header, body = reused.status, reused.header, reused.body
	} else if len(body) < robotsMaxBytes {
		// A file cut at robotsMaxBytes is obeyed, but not kept as if it were whole.
		f.keep(ctx, robotsURL, status, header, body, cached)
	}
	f.log.Debug("robots.txt", "url", robotsURL, "status", resp.StatusCode, "bytes", len(body))
	switch {
	case status == http.StatusTooManyRequests || status >= 500:
		// 429 is a request to slow down, not an absent file: treat it as a server error.
		return unavailable(fmt.Errorf("status %d", status))
	case status >= 400:
		return &robotsRules{expires: now.Add(f.opts.RobotsTTL)}, nil
	case status < 200 || status >= 300:
		return unavailable(fmt.Errorf("status %d", status))
	}
	rules := &robotsRules{expires: now.Add(f.opts.RobotsTTL)}
	if status == http.StatusOK {
		rules.file = &hopResult{status: status, header: header.Clone(), body: body}
	}
	data, err := parseRobots(body)
	if err != nil {
		f.log.Warn("robots.txt unparsable, allowing all", "url", robotsURL, "err", err)
		return rules, nil
	}
	rules.group = data.FindGroup(f.opts.RobotsToken)
	return rules, nil
}

var errRobotsRedirects = errors.New("robots.txt: too many redirects")

// parseRobots parses robots.txt leniently. The library rejects a whole file over one bad
// line (a rule before any User-agent, an unreadable Crawl-delay); RFC 9309 asks crawlers to
// use what they can parse, so such lines are dropped and the rest parsed again.
func parseRobots(body []byte) (*robotstxt.RobotsData, error) {
	data, err := robotstxt.FromBytes(body)
	if err == nil {
		return data, nil
	}
	var clean bytes.Buffer
	seenAgent := false
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), robotsMaxBytes)
	for sc.Scan() {
		line := sc.Text()
		key, value, _ := strings.Cut(line, ":")
		value, _, _ = strings.Cut(value, "#")
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "user-agent", "useragent":
			seenAgent = true
		case "allow", "disallow":
			if !seenAgent {
				continue
			}
		case "crawl-delay", "crawldelay":
			d, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			if !seenAgent || err != nil || d < 0 || d > 1e6 {
				continue
			}
		}
		clean.WriteString(line)
		clean.WriteByte('\n')
	}
	return robotstxt.FromBytes(clean.Bytes())
}

// origin is u's scheme and host as written, for robots.txt's URL.
func origin(u *url.URL) string {
	return u.Scheme + "://" + u.Host
}

// hostKey is u's host and port (explicit, lower case), as politeness is scoped, and
// the scheme-qualified origin key it is stored under.
func hostKey(u *url.URL) (key, hostPort string) {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	hostPort = hostPortKey(u.Hostname(), port)
	return u.Scheme + "://" + hostPort, hostPort
}
