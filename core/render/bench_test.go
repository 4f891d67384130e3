package render

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stockroom/stockroom/core/adapter"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// BenchmarkRenderScriptStore draws the pages of the demo store drawn by script (its
// category pages and product pages) with 1, 2 and 4 tabs, and reports pages per second
// in one scope, and the peak memory of Chromium per tab: the proportional set size of its processes
// while drawing, less what the idle browser held, divided by the tabs. RATIONALE.md
// keeps the figures.
func BenchmarkRenderScriptStore(b *testing.B) {
	if ExecPath("") == "" {
		b.Skip("chromium is not installed")
	}
	fleet, err := demostore.Launch(b.Context(), demostore.Options{Kind: demostore.Script, Products: 60})
	if err != nil {
		b.Skip(err)
	}
	defer fleet.Stop()
	shop := fleet.Stores[0]
	var urls []string
	for _, c := range shop.Catalog().Collections() {
		urls = append(urls, shop.URL(shop.CategoryPath(c.Handle)))
	}
	for i := range 20 {
		urls = append(urls, shop.URL(shop.ProductPath(i)))
	}
	for _, tabs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("tabs=%d", tabs), func(b *testing.B) {
			r, f := newRenderer(b, []string{strings.TrimPrefix(shop.BaseURL, "http://")}, Options{Tabs: tabs})
			defer r.Close()
			var pages []*adapter.Document
			for _, u := range urls {
				doc, err := f.FetchDocument(context.Background(), u)
				if err != nil || doc.Status != 200 {
					b.Fatalf("fetch %s: %v %+v", u, err, doc)
				}
				pages = append(pages, doc)
			}
			// One scope, as a crawl of the store has: its tabs are kept from page to page.
			scope, end := r.Scope(context.Background())
			defer end()
			if _, err := r.Render(scope, pages[0]); err != nil { // start Chromium
				b.Fatal(err)
			}
			browser, _ := r.start()
			pid := chromedp.FromContext(browser).Browser.Process().Pid
			idle := treePSS(pid)
			var peak atomic.Int64
			sampling, stop := context.WithCancel(context.Background())
			var sampled sync.WaitGroup
			sampled.Go(func() {
				for sampling.Err() == nil {
					peak.Store(max(peak.Load(), treePSS(pid)))
					time.Sleep(25 * time.Millisecond)
				}
			})
			b.ResetTimer()
			start := time.Now()
			drawn := 0
			for b.Loop() {
				var wg sync.WaitGroup
				errs := make(chan error, len(pages))
				for _, p := range pages {
					wg.Go(func() {
						_, err := r.Render(scope, p)
						errs <- err
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						b.Fatal(err)
					}
				}
				drawn += len(pages)
			}
			elapsed := time.Since(start)
			stop()
			sampled.Wait()
			b.ReportMetric(float64(drawn)/elapsed.Seconds(), "pages/s")
			b.ReportMetric(float64(peak.Load()-idle)/float64(tabs)/(1<<20), "MiB/tab")
			b.ReportMetric(float64(idle)/(1<<20), "MiB-idle")
		})
	}
}

// treePSS is the proportional set size, in bytes, of process pid and its descendants.
func treePSS(pid int) int64 {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// The fields after the command's closing parenthesis: state, ppid, ...
		fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(fields) < 2 {
			continue
		}
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		parent, _ := strconv.Atoi(fields[1])
		children[parent] = append(children[parent], child)
	}
	var total int64
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		total += pss(queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return total
}

func pss(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "Pss:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
