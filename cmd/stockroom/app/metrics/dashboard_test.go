package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stockroom/stockroom/storage/clickhouse"
	"github.com/stockroom/stockroom/storage/jobs"
)

// exportedFamilies are the names of every family the service exports: New's, Go's and
// the process's, and those read at scrape time from every source.
func exportedFamilies(t *testing.T) map[string]bool {
	t.Helper()
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	// Describing needs no database: the sources are only read when collected.
	sources := &sourceCollector{src: Sources{Queue: &jobs.Queue{}, Pool: &pgxpool.Pool{},
		Usage: func() clickhouse.Stats { return clickhouse.Stats{} }}}
	descs := make(chan *prometheus.Desc)
	go func() {
		defer close(descs)
		for _, c := range append(m.all, sources) {
			c.Describe(descs)
		}
	}()
	fqName := regexp.MustCompile(`fqName: "([^"]+)"`)
	names := map[string]bool{}
	for d := range descs {
		if match := fqName.FindStringSubmatch(d.String()); match != nil {
			names[match[1]] = true
		}
	}
	return names
}

// The dashboard of docs/grafana parses, and its queries name only families the service
// exports (a histogram's _bucket, _sum and _count series included).
func TestTheDashboardNamesOnlyExportedFamilies(t *testing.T) {
	raw, err := os.ReadFile("../../../../docs/grafana/stockroom.json")
	if err != nil {
		t.Fatal(err)
	}
	var dashboard struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dashboard); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	exported := exportedFamilies(t)
	if len(exported) < 20 || !exported["stockroom_http_requests_total"] || !exported["stockroom_queue_jobs"] {
		t.Fatalf("the families exported were not all found: %v", exported)
	}
	metricName := regexp.MustCompile(`\b(?:stockroom|go|process)_[a-zA-Z0-9_]+`)
	queries := 0
	for _, p := range dashboard.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, target := range p.Targets {
			queries++
			names := metricName.FindAllString(target.Expr, -1)
			if len(names) == 0 {
				t.Errorf("panel %q: %q names no metric", p.Title, target.Expr)
			}
			for _, name := range names {
				family := name
				for _, suffix := range []string{"_bucket", "_sum", "_count"} {
					if base, ok := strings.CutSuffix(name, suffix); ok && exported[base] {
						family = base
					}
				}
				if !exported[family] {
					t.Errorf("panel %q: %s is not a family the service exports", p.Title, name)
				}
			}
		}
	}
	if queries == 0 {
		t.Error("the dashboard has no query")
	}
}
