package server_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/product"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
)

// searchEnv is an API whose search service is the real one over the env's database. Its
// job queue is never started: a started search stays pending, which pins down the pending
// shape and the cancel of a pending search without racing the runner.
func searchEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, envOptions{})
	executions := postgres.NewExecutionStore(e.pool)
	pipeline := search.NewPipeline(postgres.NewSearchStore(e.pool), postgres.NewExtractStore(e.pool), executions,
		execution.NewRunner(executions, execution.RunnerOptions{}), search.PipelineOptions{})
	queue, err := jobs.New(e.pool, map[execution.Kind]jobs.Handler{execution.AgenticSearch: pipeline.Run}, jobs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.api = server.New(server.Deps{Access: e.access, Catalog: e.catalog,
		Search: search.NewService(executions, pipeline, queue, postgres.NewAccessStore(e.pool), search.Credits{Search: 25, Mini: 5}),
	}, server.Options{})
	return e
}

// seedProduct stores a product as an extraction would.
type seedProduct struct {
	vendor, title, brand string
	price                float64
	available            bool
	tags                 []string
}

func (e *env) seedProducts(ps ...seedProduct) {
	e.t.Helper()
	store := postgres.NewExtractStore(e.pool)
	for i, sp := range ps {
		title, brand, available := sp.title, sp.brand, sp.available
		p := &product.Product{
			URL: fmt.Sprintf("https://%s/products/p%d", sp.vendor, i), Title: &title, Brand: &brand, Vendor: &brand,
			IsAvailable: &available, Price: &product.Price{Current: sp.price, Currency: "USD"}, Tags: sp.tags,
		}
		if _, err := store.SaveProduct(ctxBG, sp.vendor, p, time.Now()); err != nil {
			e.t.Fatal(err)
		}
	}
}

func titles(t *testing.T, products any) []string {
	t.Helper()
	var out []string
	list, _ := products.([]any)
	for _, p := range list {
		out = append(out, p.(map[string]any)["title"].(string))
	}
	sort.Strings(out)
	return out
}

func TestPendingSearchShowsItsStepsAndCancels(t *testing.T) {
	e := searchEnv(t)
	r := e.do("POST", "/v2/agentic-search", map[string]any{"query": "red wool scarf", "customer_profile": map[string]any{"style": map[string]any{"color": "red"}}})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	id := r.json(t)["execution_id"].(string)
	if !strings.HasPrefix(id, "agentic-") {
		t.Errorf("id %q", id)
	}

	body := e.do("GET", "/v2/agentic-search/"+id, nil).json(t)
	meta := body["meta"].(map[string]any)
	want := []string{search.StepUnderstand, search.StepRetrieve, search.StepRank, search.StepRelax, search.StepDone}
	var steps []string
	for _, s := range meta["steps"].([]any) {
		st := s.(map[string]any)
		steps = append(steps, st["name"].(string))
		if st["status"] != "pending" {
			t.Errorf("step %v of a pending search", st)
		}
	}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	if body["status"] != "pending" || body["error"] != nil || len(body["data"].([]any)) != 0 || meta["query"] != "red wool scarf" ||
		meta["progress"] != nil || meta["result"] != nil || meta["stop_date"] != nil || meta["start_date"] != nil || meta["duration_ms"] != nil {
		t.Errorf("pending search: %v", body)
	}
	if p := body["pagination"].(map[string]any); p["total_items"].(float64) != 0 || p["page_size"].(float64) != 50 || p["has_next"] != false {
		t.Errorf("pagination of a pending search: %v", p)
	}
	// Page parameters are checked whatever the state.
	if r := e.do("GET", "/v2/agentic-search/"+id+"?page_size=101", nil); r.status != 400 || !strings.Contains(string(r.body), "page_size") {
		t.Errorf("page_size=101: %d %s", r.status, r.body)
	}
	list := e.do("GET", "/v2/agentic-search?status=processing", nil).json(t)["data"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["execution_id"] != id || list[0].(map[string]any)["status"] != "processing" {
		t.Errorf("processing list: %v", list)
	}

	r = e.do("DELETE", "/v2/agentic-search/"+id, nil)
	if c := r.json(t); r.status != 200 || c["status"] != "canceled" || c["execution_id"] != id || c["stop_date"] == "" {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	body = e.do("GET", "/v2/agentic-search/"+id, nil).json(t)
	if body["status"] != "failed" || body["error"] != execution.CanceledMessage || body["meta"].(map[string]any)["stop_date"] == nil {
		t.Errorf("after cancel: %v %v %v", body["status"], body["error"], body["meta"])
	}
	if r := e.do("DELETE", "/v2/agentic-search/"+id, nil); r.status != 409 || !strings.Contains(string(r.body), "EXECUTION_NOT_RUNNING") {
		t.Errorf("second cancel: %d %s", r.status, r.body)
	}
	// The start charged 25 credits; the cancel refunds nothing.
	org, _ := e.access.Store().OrganizationByName(ctxBG, "acme")
	if org.Credits != 1000-25 {
		t.Errorf("balance %d, want %d", org.Credits, 1000-25)
	}
}

func TestLegacySearchAppliesEveryFilter(t *testing.T) {
	e := searchEnv(t)
	e.seedProducts(
		seedProduct{"a.example", "Trail Running Shoe", "Ridgeback", 90, true, []string{"shoes", "trail"}},
		seedProduct{"a.example", "Road Running Shoe", "Paceline", 140, true, []string{"shoes"}},
		seedProduct{"a.example", "Sold Out Running Shoe", "Ridgeback", 80, false, []string{"shoes"}},
		seedProduct{"b.example", "Canvas Sneaker", "Ridgeback", 45, true, []string{"shoes", "trail"}},
		seedProduct{"b.example", "Wool Scarf", "Marlow", 30, true, []string{"accessories"}},
	)
	for _, c := range []struct {
		name    string
		query   string
		filters map[string]any
		want    []string
	}{
		{"price bounds", "", map[string]any{"min_price": 40, "max_price": 100},
			[]string{"Canvas Sneaker", "Sold Out Running Shoe", "Trail Running Shoe"}},
		{"available only", "running shoe", map[string]any{"is_available": true},
			[]string{"Road Running Shoe", "Trail Running Shoe"}},
		{"vendor", "", map[string]any{"vendor": "b.example"}, []string{"Canvas Sneaker", "Wool Scarf"}},
		{"brand and tags", "", map[string]any{"brand": "ridgeback", "tags": []string{"trail"}},
			[]string{"Canvas Sneaker", "Trail Running Shoe"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.do("POST", "/api/search", map[string]any{"query": c.query, "filters": c.filters})
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			body := r.json(t)
			if got := titles(t, body["products"]); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
			meta := body["meta"].(map[string]any)
			if int(meta["totalItems"].(float64)) != len(c.want) || meta["currentPage"].(float64) != 1 || meta["pageSize"].(float64) != 20 {
				t.Errorf("meta %v", meta)
			}
		})
	}
	// Paging: one product per page, in a stable order.
	seen := map[string]bool{}
	for n := 1; n <= 3; n++ {
		body := e.do("POST", "/api/search", map[string]any{"page": n, "limit": 1, "filters": map[string]any{"max_price": 100}}).json(t)
		ts := titles(t, body["products"])
		meta := body["meta"].(map[string]any)
		if len(ts) != 1 || seen[ts[0]] || meta["totalPages"].(float64) != 4 || meta["currentPage"].(float64) != float64(n) {
			t.Errorf("page %d: %v %v", n, ts, meta)
		}
		if len(ts) == 1 {
			seen[ts[0]] = true
		}
	}
}

func TestMinisNeverAnswerMoreThanTen(t *testing.T) {
	e := searchEnv(t)
	var ps []seedProduct
	for i := range 15 {
		ps = append(ps, seedProduct{fmt.Sprintf("v%d.example", i%3), fmt.Sprintf("Linen Shirt %d", i), "Marlow", 20 + float64(i), true, nil})
	}
	e.seedProducts(ps...)
	for _, c := range []struct {
		path, param string
		size        any
		want        int
	}{
		{"/v1/agentic-search-mini", "limit", nil, 10},
		{"/v1/agentic-search-mini", "limit", 50, 10},
		{"/api/agentic-search-mini", "limit", 4, 4},
		{"/api/agentic-search-mini", "limit", 11, 10},
		{"/v2/agentic-search-mini", "page_size", nil, 10},
		{"/v2/agentic-search-mini", "page_size", 100, 10},
		{"/v2/agentic-search-mini", "page_size", 2, 2},
	} {
		body := map[string]any{"query": "linen shirt"}
		if c.size != nil {
			body[c.param] = c.size
		}
		r := e.do("POST", c.path, body)
		if r.status != 200 {
			t.Errorf("%s %v: %d %s", c.path, c.size, r.status, r.body)
			continue
		}
		got := r.json(t)
		items, _ := got["products"].([]any)
		if c.param == "page_size" {
			items, _ = got["data"].([]any)
			if p := got["pagination"].(map[string]any); p["page_size"].(float64) != float64(c.want) || p["total_items"].(float64) != float64(c.want) {
				t.Errorf("%s %v: pagination %v", c.path, c.size, p)
			}
		}
		if len(items) != c.want {
			t.Errorf("%s %s=%v: %d results, want %d", c.path, c.param, c.size, len(items), c.want)
		}
	}
}
