package fetch

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"strings"
	"sync/atomic"
	"time"
)

// Meter counts what one job (a crawl, an extraction) cost the hosts it fetched from: the
// requests it made, by kind, how many of its fetches wait for their turn at a host now,
// and the pace of the host it fetched from last. A job attaches one to its context with
// WithMeter; every fetch under that context is counted. Its methods are safe for
// concurrent use, and a nil *Meter counts nothing.
type Meter struct {
	total, pages, json, sitemaps, robots, redirects, failed atomic.Int64
	retries, conditional, notModified                       atomic.Int64
	waiting                                                 atomic.Int64
	pace                                                    atomic.Int64 // time.Duration
}

// Requests are the HTTP requests a job made. Every request counts once in Total and once in
// exactly one of Pages, JSON, Sitemaps, Robots, Redirects and Failed, by what it answered;
// Retries, Conditional and NotModified count some of the same requests again.
type Requests struct {
	Total int64 `json:"total"`
	// Pages answered with HTML or anything not listed below (error pages included).
	Pages int64 `json:"pages"`
	// JSON answered with JSON: a platform's catalog or product documents.
	JSON int64 `json:"json"`
	// Sitemaps answered with XML: sitemaps and sitemap indexes.
	Sitemaps int64 `json:"sitemaps"`
	Robots   int64 `json:"robots"`
	// Redirects answered with a redirect, which the fetch followed.
	Redirects int64 `json:"redirects"`
	// Failed got no answer (refused connection, timeout).
	Failed int64 `json:"failed"`
	// Retries are attempts after the first at one URL.
	Retries int64 `json:"retries"`
	// Conditional asked whether a stored page changed (If-None-Match, If-Modified-Since);
	// NotModified of them were answered 304, and the stored page used.
	Conditional int64 `json:"conditional"`
	NotModified int64 `json:"not_modified"`
}

type meterKey struct{}

// WithMeter returns ctx with m attached: fetches under it are counted in m.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

func meterFrom(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}

// Requests returns the counts so far.
func (m *Meter) Requests() Requests {
	if m == nil {
		return Requests{}
	}
	return Requests{
		Total: m.total.Load(), Pages: m.pages.Load(), JSON: m.json.Load(), Sitemaps: m.sitemaps.Load(),
		Robots: m.robots.Load(), Redirects: m.redirects.Load(), Failed: m.failed.Load(),
		Retries: m.retries.Load(), Conditional: m.conditional.Load(), NotModified: m.notModified.Load(),
	}
}

// Waiting is how many of the job's fetches are waiting for their turn at a host now.
func (m *Meter) Waiting() int {
	if m == nil {
		return 0
	}
	return int(m.waiting.Load())
}

// Pace is the time between request starts of the host the job fetched from last; zero
// before its first fetch, or for a host fetched without delay.
func (m *Meter) Pace() time.Duration {
	if m == nil {
		return 0
	}
	return time.Duration(m.pace.Load())
}

func (m *Meter) wait(n int64) {
	if m != nil {
		m.waiting.Add(n)
	}
}

func (m *Meter) setPace(d time.Duration) {
	if m != nil {
		m.pace.Store(int64(d))
	}
}

// sent is one request sent, as the meter classifies it.
type sent struct {
	robots, retry, conditional, notModified, redirect bool
	// answered is false when no answer came.
	answered    bool
	contentType string // of the answer, or of the stored page a 304 confirmed
}

func (m *Meter) count(s sent) {
	if m == nil {
		return
	}
	m.total.Add(1)
	switch {
	case s.robots:
		m.robots.Add(1)
	case !s.answered:
		m.failed.Add(1)
	case s.redirect:
		m.redirects.Add(1)
	default:
		media, _, _ := mime.ParseMediaType(s.contentType)
		switch {
		case strings.HasSuffix(media, "json"):
			m.json.Add(1)
		case strings.HasSuffix(media, "xml") && !strings.Contains(media, "xhtml"):
			m.sitemaps.Add(1)
		default:
			m.pages.Add(1)
		}
	}
	for _, c := range []struct {
		on bool
		n  *atomic.Int64
	}{{s.retry, &m.retries}, {s.conditional, &m.conditional}, {s.notModified, &m.notModified}} {
		if c.on {
			c.n.Add(1)
		}
	}
}

// meterJSON is how a Meter is saved with a job's progress: what it has counted so far.
type meterJSON struct {
	Requests Requests `json:"requests"`
	// Waiting and PaceMS are Waiting and Pace when the progress was saved.
	Waiting int   `json:"urls_waiting_for_host"`
	PaceMS  int64 `json:"host_delay_ms"`
}

// MarshalJSON saves the counts as they are now, so that a job's progress document carries
// them up to the moment it is saved.
func (m *Meter) MarshalJSON() ([]byte, error) {
	return json.Marshal(meterJSON{Requests: m.Requests(), Waiting: m.Waiting(), PaceMS: m.Pace().Milliseconds()})
}

// UnmarshalJSON reads saved counts back, for a status read or a resumed job (see
// Continued).
func (m *Meter) UnmarshalJSON(b []byte) error {
	var j meterJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("read request counts: %w", err)
	}
	r := j.Requests
	for _, c := range []struct {
		n *atomic.Int64
		v int64
	}{{&m.total, r.Total}, {&m.pages, r.Pages}, {&m.json, r.JSON}, {&m.sitemaps, r.Sitemaps}, {&m.robots, r.Robots},
		{&m.redirects, r.Redirects}, {&m.failed, r.Failed}, {&m.retries, r.Retries}, {&m.conditional, r.Conditional},
		{&m.notModified, r.NotModified}, {&m.waiting, int64(j.Waiting)}, {&m.pace, (time.Duration(j.PaceMS) * time.Millisecond).Nanoseconds()}} {
		c.n.Store(c.v)
	}
	return nil
}

// Continued is a Meter for a job that resumes where m's left off: it counts on from m's
// requests, with nothing waiting yet. A nil m gives a new Meter.
func (m *Meter) Continued() *Meter {
	next := &Meter{}
	if m != nil {
		b, _ := json.Marshal(meterJSON{Requests: m.Requests()})
		_ = next.UnmarshalJSON(b)
	}
	return next
}

// SavedRequests reads the request counts from a job's saved progress document, which
// keeps its Meter under the key "fetch"; nil when it holds none.
func SavedRequests(progress []byte) *Requests {
	var doc struct {
		Fetch *Meter `json:"fetch"`
	}
	if json.Unmarshal(progress, &doc) != nil || doc.Fetch == nil {
		return nil
	}
	r := doc.Fetch.Requests()
	return &r
}
