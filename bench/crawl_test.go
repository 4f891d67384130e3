package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/jackc/pgx/v5"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(collyChildEnv); spec != "" {
		os.Exit(collyChild(spec))
	}
	storagetest.Main(m)
}

// concurrency is the requests in flight to the store, the same for both crawlers.
const concurrency = 4

// BenchmarkCrawl crawls the Shopify-like store (10,000 products) and the HTML store (5,000
// product pages) with Stockroom (the whole job: adapters, catalog writes) and with Colly
// (discovering and collecting the same listings), same concurrency, no delay. Each store
// is crawled twice: answering at once, where the crawlers, the store and Postgres share
// this machine's cores and CPU decides; and 20 ms late, a store across a network, where
// waiting for pages does.
func BenchmarkCrawl(b *testing.B) {
	late := demostore.Faults{Latency: 20 * time.Millisecond}
	stores := []struct {
		name string
		opts demostore.Options
	}{
		{"shopify", demostore.Options{Kind: demostore.Shopify, Products: 10_000}},
		{"html", demostore.Options{Kind: demostore.HTML, Products: 5_000}},
		{"shopify-20ms", demostore.Options{Kind: demostore.Shopify, Products: 10_000, Faults: late}},
		{"html-20ms", demostore.Options{Kind: demostore.HTML, Products: 5_000, Faults: late}},
	}
	rounds := openRounds(b)
	for _, s := range stores {
		// With -count, each of the two runs its crawls in a row: the line compares medians.
		var ours, colly []run
		crawlStockroom := func() {
			b.Run(s.name+"/stockroom", func(b *testing.B) { ours = append(ours, benchStockroom(b, s.opts)) })
		}
		crawlColly := func() { b.Run(s.name+"/colly", func(b *testing.B) { colly = append(colly, benchColly(b, s.opts)) }) }
		if rounds.collyFirst(s.name) {
			crawlColly()
			crawlStockroom()
		} else {
			crawlStockroom()
			crawlColly()
		}
		ours, colly, done := rounds.add(b, s.name, ours, colly)
		if done && len(ours) > 0 && len(colly) > 0 {
			// Printed: a benchmark that runs others shows its log only under -v.
			fmt.Println(compare(s.name, ours, colly))
		}
	}
}

// roundsFileEnv names a file that keeps every crawl of a series of rounds, each round a
// run of this benchmark (-count 1) that crawls every store once with each crawler. make
// bench runs BENCH_CRAWLS rounds, so that a store's two crawls are seconds apart rather
// than a minute or more, as with -count N; the machine's speed drifts over minutes
// (README.md shows by how much). Rounds alternate which crawler goes first, because a
// round's second crawl fares worse. roundsEnv is the series' length: the line after a
// store's crawls is printed once, in the last round, and compares the medians of all the
// rounds' crawls.
const (
	roundsFileEnv = "BENCH_ROUNDS_FILE"
	roundsEnv     = "BENCH_ROUNDS"
)

// rounds is the series a run of BenchmarkCrawl belongs to; nil outside a series.
type rounds struct {
	path  string
	total int
	// earlier are the crawls of the rounds before this one.
	earlier []crawlRecord
}

func openRounds(b *testing.B) *rounds {
	path := os.Getenv(roundsFileEnv)
	if path == "" {
		return nil
	}
	total, err := strconv.Atoi(os.Getenv(roundsEnv))
	if err != nil || total < 1 {
		b.Fatalf("%s=%q: want the number of rounds beside %s", roundsEnv, os.Getenv(roundsEnv), roundsFileEnv)
	}
	r := &rounds{path: path, total: total}
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		b.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var c crawlRecord
		if err := dec.Decode(&c); err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		r.earlier = append(r.earlier, c)
	}
	return r
}

// played is the rounds of store played before this one.
func (r *rounds) played(store string) int {
	n := 0
	for _, c := range r.earlier {
		if c.Store == store && c.Crawler == "stockroom" {
			n++
		}
	}
	return n
}

// collyFirst reports whether Colly crawls store first in this round.
func (r *rounds) collyFirst(store string) bool { return r != nil && r.played(store)%2 == 1 }

// add records this round's crawls of store and returns them with the earlier rounds',
// and whether this is the series' last round (always, outside a series).
func (r *rounds) add(b *testing.B, store string, ours, colly []run) (allOurs, allColly []run, last bool) {
	if r == nil {
		return ours, colly, true
	}
	f, err := os.OpenFile(r.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, c := range append(records(store, "stockroom", ours), records(store, "colly", colly)...) {
		if err := enc.Encode(c); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range r.earlier {
		if c.Store != store {
			continue
		}
		if c.Crawler == "stockroom" {
			allOurs = append(allOurs, c.run())
		} else {
			allColly = append(allColly, c.run())
		}
	}
	return append(allOurs, ours...), append(allColly, colly...), r.played(store)+1 >= r.total
}

// crawlRecord is a crawl in a rounds file.
type crawlRecord struct {
	Store, Crawler                         string
	Wall, CPU, DBCPU, StoreCPU, StartDelay time.Duration
	Pages, Faults, PeakRSS, MaxInFlight    int64
	Listings                               int
}

func records(store, crawler string, runs []run) []crawlRecord {
	out := make([]crawlRecord, len(runs))
	for i, r := range runs {
		out[i] = crawlRecord{Store: store, Crawler: crawler, Wall: r.wall, CPU: r.cpu, DBCPU: r.dbCPU, StoreCPU: r.storeCPU,
			StartDelay: r.startDelay, Pages: r.pages, Faults: r.faults, PeakRSS: r.peakRSS, MaxInFlight: r.maxInFlight, Listings: r.listings}
	}
	return out
}

func (c crawlRecord) run() run {
	return run{wall: c.Wall, cpu: c.CPU, dbCPU: c.DBCPU, storeCPU: c.StoreCPU, startDelay: c.StartDelay, pages: c.Pages,
		faults: c.Faults, peakRSS: c.PeakRSS, maxInFlight: c.MaxInFlight, listings: c.Listings}
}

// compare states the bar for one store from the crawls just run: at least Colly's pages
// per second with no more CPU per page (the crawler's own process; with Postgres beside).
// The wall times of the whole job (the same listings) are compared too: the crawlers'
// pages differ (Colly asks each collection for one empty page more, Stockroom reads
// robots.txt and the sitemaps). So is the CPU per page of the whole job, the store's
// included, with the cores each crawl kept busy: where both keep this machine's cores
// busy, the one that needs more CPU per page for its job serves fewer pages per second,
// whatever its own process spends.
func compare(kind string, ours, colly []run) string {
	rate := median(ours, run.pagesPerSecond) / median(colly, run.pagesPerSecond)
	wall := median(ours, run.wallSeconds) / median(colly, run.wallSeconds)
	cpu := median(ours, run.cpuPerPage) / median(colly, run.cpuPerPage)
	withDB := median(ours, run.allCPUPerPage) / median(colly, run.cpuPerPage)
	job := median(ours, run.jobCPUPerPage) / median(colly, run.jobCPUPerPage)
	memory := median(ours, run.peakMiB) / median(colly, run.peakMiB)
	verdict := "met"
	if rate < 1 || cpu > 1 {
		verdict = "not met"
	}
	return fmt.Sprintf("%s, stockroom/colly (medians of %d and %d crawls): pages/s %.2fx (wall time %.2fx); CPU per page %.2fx, %.2fx with Postgres, %.2fx with Postgres and the store; cores busy %.2f and %.2f of %d; peak memory %.2fx. Bar (pages/s >= 1x, CPU per page <= 1x): %s",
		kind, len(ours), len(colly), rate, wall, cpu, withDB, job, median(ours, run.busyCores), median(colly, run.busyCores), runtime.NumCPU(), memory, verdict)
}

// median is the median of one figure over runs.
func median(runs []run, figure func(run) float64) float64 {
	v := make([]float64, len(runs))
	for i, r := range runs {
		v[i] = figure(r)
	}
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

// run is one crawl's figures.
type run struct {
	wall  time.Duration
	pages int64
	cpu   time.Duration
	// dbCPU is the Postgres server's CPU time during the crawl (Stockroom's catalog
	// writes run there; Colly keeps nothing). It is reported apart from cpu, the crawler's
	// own process, which is what the bar compares, so that the database's share of the
	// job is in the figures too.
	dbCPU time.Duration
	// storeCPU is the store process's CPU time during the crawl: serving the pages, the
	// same work for both crawlers, on the same cores.
	storeCPU time.Duration
	// faults is the crawler process's minor page faults during the crawl: the memory it
	// touched for the first time (or again, after the Go runtime gave it back), a
	// part of its CPU time.
	faults      int64
	peakRSS     int64 // bytes
	listings    int
	maxInFlight int64
	// startDelay is how long Stockroom's crawl took to begin running after its start
	// request (zero for Colly's, which begins at once).
	startDelay time.Duration
}

func (r run) pagesPerSecond() float64 { return float64(r.pages) / r.wall.Seconds() }
func (r run) wallSeconds() float64    { return r.wall.Seconds() }

// cpuPerPage and allCPUPerPage are the crawler's CPU seconds per page, without and with
// the database's.
func (r run) cpuPerPage() float64    { return r.cpu.Seconds() / float64(r.pages) }
func (r run) allCPUPerPage() float64 { return (r.cpu + r.dbCPU).Seconds() / float64(r.pages) }

// jobCPU is the CPU time of everything the crawl kept busy: the crawler, Postgres and the
// store.
func (r run) jobCPU() time.Duration { return r.cpu + r.dbCPU + r.storeCPU }

// jobCPUPerPage is jobCPU per page. Where both crawls keep every core busy, the pages per
// second ratio is about the inverse of this one's.
func (r run) jobCPUPerPage() float64 { return r.jobCPU().Seconds() / float64(r.pages) }

// busyCores is the cores the whole job kept busy on average: near this machine's count,
// the crawl waits for CPU, and pages per second follow the job's CPU per page rather than
// the crawler's alone.
func (r run) busyCores() float64 { return r.jobCPU().Seconds() / r.wall.Seconds() }

func (r run) peakMiB() float64 { return float64(r.peakRSS) / (1 << 20) }

func (r run) report(b *testing.B) {
	b.ReportMetric(r.pagesPerSecond(), "pages/s")
	b.ReportMetric(r.cpuPerPage()*1000, "cpu-s/1000pages")
	if r.dbCPU > 0 {
		b.ReportMetric(r.dbCPU.Seconds()*1000/float64(r.pages), "db-cpu-s/1000pages")
	}
	b.ReportMetric(r.storeCPU.Seconds()*1000/float64(r.pages), "store-cpu-s/1000pages")
	b.ReportMetric(r.busyCores(), "busy-cores")
	if r.startDelay > 0 {
		b.ReportMetric(float64(r.startDelay)/float64(time.Millisecond), "start-ms")
	}
	b.ReportMetric(float64(r.faults)/float64(r.pages), "faults/page")
	b.ReportMetric(r.peakMiB(), "peak-MiB")
	b.ReportMetric(float64(r.listings), "listings")
	b.ReportMetric(r.wall.Seconds(), "wall-s")
	b.ReportMetric(float64(r.maxInFlight), "max-in-flight")
}

// store is a demo store running in its own process, so that neither crawler's CPU
// figure includes serving the pages.
type store struct {
	pid      int
	kind     demostore.Kind
	base     string
	products int
}

func (s store) URL(path string) string { return s.base + path }

// storeStats are a store's counters.
type storeStats struct {
	Requests int64 `json:"requests"`
	// MaxInFlight is the most requests the store answered at once: each crawler's
	// concurrency as the store saw it.
	MaxInFlight int64 `json:"max_in_flight"`
	// cpu is the store process's CPU time so far, from /proc.
	cpu time.Duration
}

func (s store) stats(b *testing.B) storeStats {
	resp, err := http.Get(s.base + "/_demo/stats.json")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var st storeStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		b.Fatal(err)
	}
	proc, err := storagetest.ReadProcStat(s.pid)
	if err != nil {
		b.Fatal(err)
	}
	st.cpu = proc.CPU
	return st
}

// finish completes r with what the store saw since before, and checks that the crawler
// kept to the concurrency both are given.
func (s store) finish(b *testing.B, r *run, before storeStats) {
	after := s.stats(b)
	r.pages = after.Requests - before.Requests - 1 // less the stats request itself
	r.maxInFlight = after.MaxInFlight
	r.storeCPU = after.cpu - before.cpu
	if r.maxInFlight > concurrency {
		b.Errorf("%d requests were in flight to the store at once, the crawlers are given %d", r.maxInFlight, concurrency)
	}
}

func launch(b *testing.B, opts demostore.Options) store {
	host := demostore.DefaultHost(opts.Kind)
	l, err := net.Listen("tcp", host+":0")
	if err != nil {
		b.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(stockroomBin(b), "demo-store", "-kinds", string(opts.Kind), "-products", strconv.Itoa(opts.Products), "-port", strconv.Itoa(port),
		"-latency", opts.Faults.Latency.String())
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	s := store{pid: cmd.Process.Pid, kind: opts.Kind, base: fmt.Sprintf("http://%s:%d", host, port), products: opts.Products}
	waitDial(b, fmt.Sprintf("%s:%d", host, port))
	return s
}

func waitDial(b *testing.B, address string) {
	deadline := time.Now().Add(time.Minute)
	for {
		if c, err := net.Dial("tcp", address); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("nothing listens on %s", address)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func stockroomBin(b *testing.B) string {
	bin := os.Getenv("STOCKROOM_BIN")
	if bin == "" {
		bin = "../bin/stockroom"
	}
	if _, err := os.Stat(bin); err != nil {
		b.Skipf("no stockroom binary at %s (make build, or set STOCKROOM_BIN)", bin)
	}
	return bin
}

// benchStockroom runs the real server binary and crawls through its API.
func benchStockroom(b *testing.B, opts demostore.Options) (last run) {
	bin := stockroomBin(b)
	for i := 0; i < b.N; i++ {
		store := launch(b, opts)
		host := strings.TrimPrefix(store.base, "http://")
		srv := startServer(b, bin, host, false)
		cpu0, db0, faults0 := srv.cpu(), srv.dbCPU(), srv.faults()
		before := store.stats(b)
		start := time.Now()
		id := srv.post("/v2/crawl", map[string]any{"url": store.base})["execution_id"].(string)
		var body map[string]any
		for {
			body = srv.get("/v2/crawl/" + id)
			if body["status"] == "completed" || body["status"] == "failed" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		r := run{cpu: srv.cpu() - cpu0, dbCPU: srv.dbCPU() - db0, faults: srv.faults() - faults0, peakRSS: srv.peakRSS()}
		store.finish(b, &r, before)
		if body["status"] != "completed" {
			b.Fatalf("crawl failed: %v", body["error"])
		}
		meta := body["meta"].(map[string]any)
		// The crawl ends when its execution does (stop_date, this machine's clock, to the
		// millisecond), not when a poll next sees it: polls as often as it takes to see the
		// end within a millisecond would cost the server CPU the crawl does not.
		stop, err := time.Parse(time.RFC3339Nano, meta["stop_date"].(string))
		if err != nil {
			b.Fatal(err)
		}
		r.wall = stop.Sub(start)
		// When the execution began running: the start request, the job queue's pickup and
		// the lease, a fixed cost of each crawl that Colly, a library, has no counterpart of.
		if raw, ok := meta["start_date"].(string); ok {
			if began, err := time.Parse(time.RFC3339Nano, raw); err == nil {
				r.startDelay = began.Sub(start)
			}
		}
		res := meta["result"].(map[string]any)
		r.listings = int(res["listings_total"].(float64))
		if r.listings != store.products {
			b.Errorf("stockroom found %d listings, the store has %d", r.listings, store.products)
		}
		r.report(b)
		last = r
	}
	return last
}

// server is a running stockroom process with a key.
type server struct {
	b     *testing.B
	cmd   *exec.Cmd
	base  string
	key   string
	dbPID int // the Postgres postmaster
}

// startServer starts bin's server, allowed to fetch storeHost. Polite keeps the default
// politeness of any real host (a request a second, the default concurrency); otherwise
// storeHost is fetched without delay, at the concurrency both crawlers are given.
func startServer(b *testing.B, bin, storeHost string, polite bool) *server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	address := l.Addr().String()
	l.Close()
	// STOCKROOM_BIN is this benchmark's setting; the server would take it for a key of its own.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "STOCKROOM_BIN=") })
	dbURL := storagetest.NewPostgres(b)
	env = append(env,
		"DATABASE_URL="+dbURL,
		"CLICKHOUSE_URL="+storagetest.NewClickHouse(b),
		"STOCKROOM_SERVER__ADDRESS="+address,
		"STOCKROOM_USAGE__SPOOL_DIR="+filepath.Join(b.TempDir(), "spool"),
		"STOCKROOM_ADAPTERS__CACHE_DIR="+filepath.Join(os.TempDir(), "stockroom-bench-adapter-cache"),
		"STOCKROOM_FETCH__ALLOW="+storeHost,
		"STOCKROOM_RATE_LIMIT__REQUESTS=0",
		"STOCKROOM_LOG__LEVEL=warn",
	)
	if !polite {
		env = append(env,
			"STOCKROOM_FETCH__NO_DELAY_HOSTS="+storeHost,
			"STOCKROOM_FETCH__MAX_CONCURRENT_PER_HOST="+strconv.Itoa(concurrency),
			"STOCKROOM_CRAWL__COLLECTIONS="+strconv.Itoa(concurrency),
		)
	}
	for _, args := range [][]string{{"migrate"}, {"orgs", "create", "--name", "bench", "--auto-top-up", "on", "--credits", "100000000"}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	keys := exec.Command(bin, "keys", "create", "--org", "bench")
	keys.Env = env
	out, err := keys.Output()
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	deadline := time.Now().Add(time.Minute)
	for {
		if c, err := net.Dial("tcp", address); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &server{b: b, cmd: cmd, base: "http://" + address, key: lines[len(lines)-1], dbPID: postmaster(b, dbURL)}
}

func (s *server) request(method, path string, body any) map[string]any {
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, s.base+path, r)
	req.Header.Set("x-api-key", s.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.b.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		s.b.Fatal(err)
	}
	return out
}

func (s *server) post(path string, body any) map[string]any { return s.request("POST", path, body) }
func (s *server) get(path string) map[string]any            { return s.request("GET", path, nil) }

// cpu is the process's user and system time so far.
func (s *server) cpu() time.Duration { return s.stat().CPU }

// faults is the minor page faults the process has taken so far.
func (s *server) faults() int64 { return s.stat().MinorFaults }

func (s *server) stat() storagetest.ProcStat {
	st, err := storagetest.ReadProcStat(s.cmd.Process.Pid)
	if err != nil {
		s.b.Fatal(err)
	}
	return st
}

// dbCPU is the CPU time of the Postgres server so far: the postmaster, the processes it
// has reaped and those still running (backends, autovacuum, WAL writer...). Nothing but
// the crawl uses that server while it runs.
func (s *server) dbCPU() time.Duration {
	procs := storagetest.LiveProcesses()
	pm, ok := procs[s.dbPID]
	if !ok {
		s.b.Fatalf("postmaster %d is not running", s.dbPID)
	}
	total := pm.CPU + pm.ChildrenCPU
	for _, st := range procs {
		if st.Parent == s.dbPID {
			total += st.CPU
		}
	}
	return total
}

// postmaster returns the pid of the Postgres server behind dbURL, from its data folder.
func postmaster(b *testing.B, dbURL string) int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var dir string
	if err := conn.QueryRow(ctx, "SHOW data_directory").Scan(&dir); err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		b.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(raw), "\n", 2)[0]))
	if err != nil {
		b.Fatalf("postmaster.pid: %v", err)
	}
	return pid
}

// peakRSS is the process's high-water resident memory, from /proc.
func (s *server) peakRSS() int64 {
	return vmHWM(b2pid(s.cmd))
}

func b2pid(cmd *exec.Cmd) string { return strconv.Itoa(cmd.Process.Pid) }

func vmHWM(pid string) int64 {
	raw, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// benchColly collects the same listings with Colly, each crawl in a process of its own
// (collyChild) as Stockroom's is: in this long-lived process, Colly's crawls ran on a heap
// that earlier rounds had grown, and its peak memory was this process's.
func benchColly(b *testing.B, opts demostore.Options) (last run) {
	for i := 0; i < b.N; i++ {
		store := launch(b, opts)
		before := store.stats(b)
		r := runCollyChild(b, store)
		store.finish(b, &r, before)
		if r.listings != store.products {
			b.Errorf("colly found %d listings, the store has %d", r.listings, store.products)
		}
		r.report(b)
		last = r
	}
	return last
}

// collyChildEnv holds, in the environment of this test binary run again for one Colly
// crawl, the store to crawl (collyStore as JSON).
const collyChildEnv = "BENCH_COLLY_STORE"

// collyStore names a store to a Colly child process.
type collyStore struct {
	Kind     demostore.Kind `json:"kind"`
	Base     string         `json:"base"`
	Products int            `json:"products"`
}

// collyReport is what a Colly child process measured of its crawl, from just before it
// to just after.
type collyReport struct {
	Wall     time.Duration `json:"wall"`
	CPU      time.Duration `json:"cpu"`
	Faults   int64         `json:"faults"`
	PeakRSS  int64         `json:"peak_rss"`
	Listings int           `json:"listings"`
}

// runCollyChild runs one Colly crawl of store in a child process and returns its figures.
func runCollyChild(b *testing.B, store store) run {
	spec, err := json.Marshal(collyStore{Kind: store.kind, Base: store.base, Products: store.products})
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), collyChildEnv+"="+string(spec))
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("colly child: %v", err)
	}
	var rep collyReport
	if err := json.Unmarshal(out, &rep); err != nil {
		b.Fatalf("colly child said %q: %v", out, err)
	}
	return run{wall: rep.Wall, cpu: rep.CPU, faults: rep.Faults, peakRSS: rep.PeakRSS, listings: rep.Listings}
}

// collyChild is the child process's whole life: one Colly crawl of the store spec names,
// its figures printed as JSON on stdout. It returns the exit code.
func collyChild(spec string) int {
	var cs collyStore
	if err := json.Unmarshal([]byte(spec), &cs); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", collyChildEnv, err)
		return 2
	}
	st := store{kind: cs.Kind, base: cs.Base, products: cs.Products}
	cpu0, faults0 := storagetest.ProcessCPU(), storagetest.ProcessFaults()
	start := time.Now()
	listings, err := collyCrawl(st)
	rep := collyReport{Wall: time.Since(start), CPU: storagetest.ProcessCPU() - cpu0, Faults: storagetest.ProcessFaults() - faults0,
		PeakRSS: vmHWM("self"), Listings: listings}
	if err != nil {
		fmt.Fprintf(os.Stderr, "colly: %v\n", err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(rep); err != nil {
		return 1
	}
	return 0
}

// collyCrawl discovers every collection and collects every listing URL, as idiomatic Colly.
func collyCrawl(store store) (int, error) {
	c := colly.NewCollector(colly.Async(true), colly.MaxDepth(0))
	c.AllowURLRevisit = false
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: concurrency}); err != nil {
		return 0, err
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	add := func(u string) {
		mu.Lock()
		seen[u] = true
		mu.Unlock()
	}
	switch store.kind {
	case demostore.Shopify:
		c.OnResponse(func(r *colly.Response) {
			path := r.Request.URL.Path
			switch {
			case path == "/collections.json":
				var body struct {
					Collections []struct {
						Handle string `json:"handle"`
					} `json:"collections"`
				}
				_ = json.Unmarshal(r.Body, &body)
				for _, col := range body.Collections {
					_ = r.Request.Visit(fmt.Sprintf("/collections/%s/products.json?limit=250&page=1", col.Handle))
				}
				if len(body.Collections) > 0 {
					_ = r.Request.Visit(nextPage(r.Request.URL.String()))
				}
			case strings.HasSuffix(path, "/products.json"):
				var body struct {
					Products []struct {
						Handle string `json:"handle"`
					} `json:"products"`
				}
				_ = json.Unmarshal(r.Body, &body)
				for _, p := range body.Products {
					add(store.URL("/products/" + p.Handle))
				}
				if len(body.Products) > 0 {
					_ = r.Request.Visit(nextPage(r.Request.URL.String()))
				}
			}
		})
		_ = c.Visit(store.URL("/collections.json?limit=250&page=1"))
		// As Stockroom's crawl does: "all", every product, is served but not listed.
		_ = c.Visit(store.URL("/collections/all/products.json?limit=250&page=1"))
	case demostore.HTML:
		c.OnHTML("a[href]", func(e *colly.HTMLElement) {
			href := e.Request.AbsoluteURL(e.Attr("href"))
			switch {
			case strings.Contains(href, "/item/"):
				if !strings.Contains(e.Attr("class"), "related") {
					add(strings.SplitN(href, "?", 2)[0])
				}
			case strings.Contains(href, "/shop/"):
				_ = e.Request.Visit(href)
			}
		})
		_ = c.Visit(store.base + "/")
	}
	c.Wait()
	return len(seen), nil
}

// nextPage increments the page query parameter of a URL.
func nextPage(u string) string {
	i := strings.LastIndex(u, "page=")
	n, _ := strconv.Atoi(u[i+5:])
	return u[:i+5] + strconv.Itoa(n+1)
}
