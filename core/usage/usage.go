// Package usage meters API calls and reports them back per organization.
//
// Every authenticated call becomes one Event. A Recorder takes events off the request path
// (it never blocks on storage); a Reader answers aggregate questions over what was recorded.
package usage

import (
	"context"
	"time"

	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
)

// Event is one API call.
type Event struct {
	Time           time.Time
	OrganizationID string
	KeyID          string
	Method         string
	// Path is the route template, e.g. /v2/crawl/{execution_id}, so that calls group by endpoint.
	Path      string
	Status    int
	Latency   time.Duration
	Credits   int64
	RequestID string
}

// Recorder accepts events for storage. Record must return at once whatever the state of
// the storage behind it.
type Recorder interface {
	Record(Event)
}

// PathCount is the number of calls to one endpoint path.
type PathCount struct {
	Path       string
	TotalCalls int64
}

// Reader reads aggregates of recorded events.
type Reader interface {
	// CallsByPath counts an organization's calls per path since a time (zero: all time),
	// most called first, then by path. It returns the requested window and the number of
	// distinct paths. A limit of 0 means no limit.
	CallsByPath(ctx context.Context, organizationID string, since time.Time, offset, limit int) ([]PathCount, int, error)
	// ActivityByPath is an organization's activity per path since a time (zero: all
	// time), most called first, then by path, each with its calls per day.
	ActivityByPath(ctx context.Context, organizationID string, since time.Time) ([]PathActivity, error)
}

// PathActivity is how one endpoint path was used over a period: how often, how often it
// failed, how fast it answered, and how its calls spread over the days.
type PathActivity struct {
	Path   string
	Calls  int64
	Errors int64 // answers with a status of 400 or more
	// P95Latency is the 95th percentile of the time taken to answer, an estimate (a
	// t-digest) over the whole period.
	P95Latency time.Duration
	// Days are the days (UTC) with at least one call, oldest first.
	Days []DayCount
}

// DayCount is one path's calls on one day.
type DayCount struct {
	Date   string // YYYY-MM-DD, UTC
	Calls  int64
	Errors int64
}

// Period is a reporting window ending now.
type Period string

const (
	Day           Period = "24h"
	Week          Period = "7d"
	Month         Period = "30d"
	Quarter       Period = "90d"
	AllTime       Period = "all"
	DefaultPeriod        = Month
)

var periodLengths = map[Period]time.Duration{
	Day: 24 * time.Hour, Week: 7 * 24 * time.Hour, Month: 30 * 24 * time.Hour, Quarter: 90 * 24 * time.Hour, AllTime: 0,
}

// ParsePeriod reads a period parameter; empty means the default (30d).
func ParsePeriod(s string) (Period, error) {
	if s == "" {
		return DefaultPeriod, nil
	}
	p := Period(s)
	if _, ok := periodLengths[p]; !ok {
		return "", failure.OutOfRange("period", "must be one of 24h, 7d, 30d, 90d, all; got %q", s)
	}
	return p, nil
}

// Since is the start of the period when it ends at now; the zero time for all time.
func (p Period) Since(now time.Time) time.Time {
	d := periodLengths[p]
	if d == 0 {
		return time.Time{}
	}
	return now.Add(-d)
}

// Service answers usage reports.
type Service struct {
	reader Reader
	now    func() time.Time
}

// NewService returns a Service reading from reader.
func NewService(reader Reader) *Service {
	return &Service{reader: reader, now: time.Now}
}

// Report is one page of an organization's calls per path over a period.
func (s *Service) Report(ctx context.Context, organizationID string, period Period, req page.Request) (page.Result[PathCount], error) {
	items, total, err := s.reader.CallsByPath(ctx, organizationID, period.Since(s.now()), req.Offset(), req.Size)
	if err != nil {
		return page.Result[PathCount]{}, err
	}
	return page.Result[PathCount]{Items: items, Request: req, TotalItems: total}, nil
}

// All is every path's count over a period, unpaginated (the legacy endpoint's shape).
func (s *Service) All(ctx context.Context, organizationID string, period Period) ([]PathCount, error) {
	items, _, err := s.reader.CallsByPath(ctx, organizationID, period.Since(s.now()), 0, 0)
	return items, err
}

// Activity is an organization's activity per path over a period, unpaginated: paths are
// route templates, a few dozen at most.
func (s *Service) Activity(ctx context.Context, organizationID string, period Period) ([]PathActivity, error) {
	return s.reader.ActivityByPath(ctx, organizationID, period.Since(s.now()))
}
