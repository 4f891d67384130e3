package fetch

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The pace starts at the configured delay, slows down on refusals, failures and rising
// latency, speeds up while answers are quick and clean, and stays within its bounds.
func TestPaceAdapts(t *testing.T) {
	ms := time.Millisecond
	limits := hostLimits{delay: 100 * ms, fastest: 50 * ms, slowest: 800 * ms}
	quick := answer{latency: 10 * ms, status: 200}
	cases := []struct {
		name    string
		answers []answer
		want    time.Duration
	}{
		{"starts at the delay", nil, 100 * ms},
		{"a 429 doubles the spacing", []answer{{latency: 10 * ms, status: 429}}, 200 * ms},
		{"a 503 doubles the spacing", []answer{{latency: 10 * ms, status: 503}}, 200 * ms},
		{"a Retry-After doubles the spacing", []answer{{latency: 10 * ms, status: 200, retryAfter: time.Second}}, 200 * ms},
		{"no answer doubles the spacing", []answer{{latency: 10 * ms}}, 200 * ms},
		{"refusals stop at the slowest pace", repeat(answer{status: 429}, 10), 800 * ms},
		{"a quick answer speeds up", []answer{quick}, 90 * ms},
		{"quick answers stop at the fastest pace", repeat(quick, 50), 50 * ms},
		{"rising latency slows down", append(repeat(quick, 1), answer{latency: 300 * ms, status: 200}), 135 * ms},
		{"jitter of a quick host is not load", append(repeat(quick, 1), answer{latency: 30 * ms, status: 200}), 90 * ms},
		{"recovers after refusals", append(repeat(answer{status: 429}, 3), repeat(quick, 60)...), 50 * ms},
		{"a 404 is a clean answer", []answer{{latency: 10 * ms, status: 404}}, 90 * ms},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPace(limits)
			for _, a := range c.answers {
				p.observe(a)
			}
			if got := p.now(); got != c.want {
				t.Errorf("spacing %v; want %v", got, c.want)
			}
		})
	}
}

func repeat(a answer, n int) []answer {
	out := make([]answer, n)
	for i := range out {
		out[i] = a
	}
	return out
}

// Never faster than robots.txt's Crawl-delay, however quick the answers; a host fetched
// without delay is never paced.
func TestPaceBounds(t *testing.T) {
	p := newPace(hostLimits{delay: 100 * time.Millisecond, fastest: 10 * time.Millisecond, slowest: time.Minute})
	p.atLeast(2 * time.Second)
	for range 100 {
		p.observe(answer{latency: time.Millisecond, status: 200})
	}
	if got := p.now(); got != 2*time.Second {
		t.Errorf("spacing %v after quick answers; want Crawl-delay's 2s", got)
	}
	free := newPace(hostLimits{})
	free.observe(answer{status: 429, retryAfter: time.Second})
	if got := free.now(); got != 0 {
		t.Errorf("a host without delay paced to %v; want no pacing", got)
	}
}

// starts records when each request reached the server, to check the spacing and the
// concurrency a fetcher keeps from the server's side.
type starts struct {
	mu    sync.Mutex
	times []time.Time
}

func (s *starts) add() {
	s.mu.Lock()
	s.times = append(s.times, time.Now())
	s.mu.Unlock()
}

// minGap is the shortest time between two consecutive request starts.
func (s *starts) minGap() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	gap := time.Duration(1<<63 - 1)
	for i := 1; i < len(s.times); i++ {
		gap = min(gap, s.times[i].Sub(s.times[i-1]))
	}
	return gap
}

// The fetcher slows down when the server answers 429 and when it becomes slow, recovers
// once it answers quickly again, and its spacing and concurrency never break the bounds
// (as the server counts them).
func TestPacingReactsAndRecovers(t *testing.T) {
	var phase atomic.Value // "429", "slow" or "ok"
	phase.Store("ok")
	var in inflight
	var seen starts
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		in.enter()
		defer in.leave()
		seen.add()
		switch phase.Load() {
		case "429":
			w.WriteHeader(http.StatusTooManyRequests)
		case "slow":
			time.Sleep(250 * time.Millisecond)
		}
	})
	const delay, fastest = 40 * time.Millisecond, 30 * time.Millisecond
	opts := testOptions()
	opts.Delay, opts.MinDelay, opts.MaxDelay = delay, fastest, 8*delay
	opts.MaxConcurrentPerHost = 2
	opts.MaxAttempts = 1
	f := newFetcher(t, opts)
	meter := &Meter{}
	ctx := WithMeter(context.Background(), meter)
	run := func(n int) {
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { _, _ = get(ctx, f, fmt.Sprintf("%s/p%d", s.URL, i)) })
		}
		wg.Wait()
	}
	pace := func() time.Duration { _, _ = get(ctx, f, s.URL+"/probe"); return meter.Pace() }

	run(4)
	if got := pace(); got > delay {
		t.Fatalf("pace %v while the host answers quickly; want at most the delay %v", got, delay)
	}
	phase.Store("429")
	run(4)
	throttled := pace()
	if throttled < 8*delay {
		t.Errorf("pace %v after 429s; want it slowed well below the delay %v", throttled, delay)
	}
	phase.Store("ok")
	run(20)
	recovered := pace()
	if recovered >= throttled || recovered > 2*delay {
		t.Errorf("pace %v after quick answers; want it back near %v from %v", recovered, delay, throttled)
	}
	phase.Store("slow")
	run(4)
	if slowed := pace(); slowed <= recovered {
		t.Errorf("pace %v once the host answers slowly; want slower than %v", slowed, recovered)
	}
	// The server sees a request a little after it was sent, later still on a new
	// connection: allow that much.
	const jitter = 15 * time.Millisecond
	if gap := seen.minGap(); gap < fastest-jitter {
		t.Errorf("two requests started %v apart; want never less than the fastest pace %v", gap, fastest)
	}
	if peak := in.peak.Load(); peak > 2 {
		t.Errorf("%d requests in flight at once; want at most 2", peak)
	}
	if r := meter.Requests(); r.Total != int64(len(seen.times))+1 || r.Robots != 1 {
		t.Errorf("meter counted %+v; the server saw %d page requests and one robots.txt", r, len(seen.times))
	}
}

// A host configured without delay is not held to the fastest pace of the others.
func TestHostWithoutDelayIsNotHeldToMinDelay(t *testing.T) {
	o := Options{Delay: time.Second, MinDelay: 500 * time.Millisecond, MaxDelay: time.Minute,
		Hosts: map[string]HostLimits{"fast.test": {Delay: -1}, "slow.test": {Delay: 3 * time.Second}}}
	for _, c := range []struct {
		host           string
		start, fastest time.Duration
	}{
		{"other.test:443", time.Second, 500 * time.Millisecond},
		{"fast.test:443", 0, 0},
		{"slow.test:443", 3 * time.Second, 500 * time.Millisecond},
	} {
		p := newPace(o.limitsFor(c.host))
		if p.now() != c.start || p.fastest != c.fastest {
			t.Errorf("%s: starts at %v, fastest %v; want %v and %v", c.host, p.now(), p.fastest, c.start, c.fastest)
		}
	}
}
