package server_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/usage"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/storage/clickhouse"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// usageEnv is an env whose calls are metered into a fresh ClickHouse database.
type usageEnv struct {
	*env
	recorder *clickhouse.Recorder
}

func newUsageEnv(t *testing.T) *usageEnv {
	t.Helper()
	ctx := context.Background()
	conn, err := clickhouse.Open(ctx, storagetest.NewClickHouse(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := clickhouse.Migrate(ctx, conn); err != nil {
		t.Fatal(err)
	}
	rec, err := clickhouse.NewRecorder(conn, clickhouse.RecorderOptions{SpoolDir: t.TempDir(), FlushInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rec.Close(context.Background()) })
	e := newEnv(t, envOptions{deps: func(d *server.Deps) {
		d.Recorder = rec
		d.Usage = usage.NewService(clickhouse.NewReader(conn))
	}})
	return &usageEnv{env: e, recorder: rec}
}

// settle waits until every recorded event is in ClickHouse.
func (u *usageEnv) settle() {
	u.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for u.recorder.Stats().Queued > 0 {
		if time.Now().After(deadline) {
			u.t.Fatalf("events not delivered: %+v", u.recorder.Stats())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func usageCounts(t *testing.T, r response) map[string]float64 {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("usage: %d %s", r.status, r.body)
	}
	out := map[string]float64{}
	for _, it := range r.json(t)["data"].([]any) {
		m := it.(map[string]any)
		out[m["path"].(string)] = m["total_calls"].(float64)
	}
	return out
}

func TestUsageCountsEveryAuthenticatedCallExactly(t *testing.T) {
	u := newUsageEnv(t)
	u.seedVendor("shop.example", 2)
	const n = 37
	for i := 0; i < n; i++ {
		u.do("GET", "/v2/listings?vendor=shop.example", nil)
	}
	u.do("GET", "/v2/listings?vendor=shop.example&page=0", nil) // a failed call counts too
	u.do("POST", "/v1/collections", `{"vendor":`)               // and a malformed one
	u.do("GET", "/v2/no-such-route", nil)
	u.doWithHeaders("GET", "/v2/vendors", nil, nil) // no key: nobody's call
	u.settle()

	got := usageCounts(t, u.do("GET", "/v2/usage", nil))
	want := map[string]float64{"/v2/listings": n + 1, "/v1/collections": 1, "(unmatched)": 1}
	for path, calls := range want {
		if got[path] != calls {
			t.Errorf("%s: %v calls, want %v (all: %v)", path, got[path], calls, got)
		}
	}
	if _, ok := got["/v2/vendors"]; ok {
		t.Errorf("an unauthenticated call was counted: %v", got)
	}

	// v1 has the same shape; the legacy endpoint is unpaginated with period at the root.
	u.settle()
	v1 := u.do("GET", "/v1/usage?period=all", nil)
	if body := v1.json(t); body["meta"].(map[string]any)["period"] != "all" || body["pagination"] == nil {
		t.Errorf("/v1/usage shape: %s", v1.body)
	}
	legacy := u.do("GET", "/api/usage?period=7d", nil)
	body := legacy.json(t)
	if body["period"] != "7d" || len(body["usage"].([]any)) < 3 {
		t.Errorf("/api/usage shape: %s", legacy.body)
	}
}

func TestUsageOfAnotherOrganizationIsNeverVisible(t *testing.T) {
	u := newUsageEnv(t)
	_, otherKey := u.newOrg("other")
	for i := 0; i < 5; i++ {
		u.doWithHeaders("GET", "/v2/vendors", nil, map[string]string{"x-api-key": otherKey})
	}
	u.do("GET", "/v1/vendors", nil)
	u.settle()
	mine := usageCounts(t, u.do("GET", "/v2/usage?period=24h", nil))
	if len(mine) != 1 || mine["/v1/vendors"] != 1 {
		t.Errorf("acme sees %v, want only its own /v1/vendors call", mine)
	}
	u.settle()
	theirs := usageCounts(t, u.doWithHeaders("GET", "/v2/usage?period=24h", nil, map[string]string{"x-api-key": otherKey}))
	if theirs["/v2/vendors"] != 5 || theirs["/v1/vendors"] != 0 || theirs["/v2/usage"] != 0 {
		t.Errorf("other sees %v, want its 5 /v2/vendors calls only", theirs)
	}
}

func TestUsageParametersAndPaging(t *testing.T) {
	u := newUsageEnv(t)
	paths := []string{"/v1/vendors", "/v2/vendors", "/api/vendors"}
	for i, p := range paths {
		for j := 0; j <= i; j++ {
			u.do("GET", p, nil)
		}
	}
	u.settle()
	r := u.do("GET", "/v2/usage?page_size=2", nil)
	body := r.json(t)
	p := body["pagination"].(map[string]any)
	data := body["data"].([]any)
	if len(data) != 2 || p["total_items"] != float64(3) || p["has_next"] != true || body["meta"].(map[string]any)["period"] != "30d" {
		t.Fatalf("first page: %s", r.body)
	}
	if first := data[0].(map[string]any); first["path"] != "/api/vendors" || first["total_calls"] != float64(3) {
		t.Errorf("most called first: %v", first)
	}
	for _, bad := range []string{"period=1y", "page=0", "page_size=101"} {
		r := u.do("GET", "/v2/usage?"+bad, nil)
		if code, _ := errorOf(t, r); r.status != 400 || code != "VALIDATION_ERROR" {
			t.Errorf("%s: %d %s", bad, r.status, r.body)
		}
	}
}

func TestUsageWhileClickHouseIsDownIsServiceUnavailable(t *testing.T) {
	// A port nobody listens on: the reader's every query fails to connect.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	address := l.Addr().String()
	l.Close()
	conn, err := clickhouse.Open(context.Background(), "clickhouse://"+address+"/stockroom?dial_timeout=200ms")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	e := newEnv(t, envOptions{deps: func(d *server.Deps) { d.Usage = usage.NewService(clickhouse.NewReader(conn)) }})
	for _, path := range []string{"/v1/usage", "/v2/usage", "/v2/usage/activity", "/api/usage"} {
		r := e.do("GET", path, nil)
		if code, _ := errorOf(t, r); r.status != 503 || code != "SERVICE_UNAVAILABLE" {
			t.Errorf("%s: %d %s, want 503 SERVICE_UNAVAILABLE", path, r.status, r.body)
		}
	}
}

func TestUsageActivityReportsErrorsLatencyAndDaysPerPath(t *testing.T) {
	u := newUsageEnv(t)
	_, otherKey := u.newOrg("other")
	u.seedVendor("shop.example", 2)
	for range 3 {
		u.do("GET", "/v2/listings?vendor=shop.example", nil)
	}
	u.do("GET", "/v2/listings?vendor=shop.example&page=0", nil) // fails: 400
	u.doWithHeaders("GET", "/v2/vendors", nil, map[string]string{"x-api-key": otherKey})
	u.settle()

	r := u.do("GET", "/v2/usage/activity?period=24h", nil)
	if r.status != 200 {
		t.Fatalf("activity: %d %s", r.status, r.body)
	}
	body := r.json(t)
	if body["meta"].(map[string]any)["period"] != "24h" {
		t.Errorf("meta: %s", r.body)
	}
	data := body["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("want only acme's /v2/listings, got %s", r.body)
	}
	listings := data[0].(map[string]any)
	today := time.Now().UTC().Format(time.DateOnly)
	days := listings["days"].([]any)
	if listings["path"] != "/v2/listings" || listings["total_calls"] != float64(4) || listings["errors"] != float64(1) ||
		listings["error_rate"] != 0.25 || listings["p95_latency_ms"].(float64) <= 0 || len(days) != 1 ||
		days[0].(map[string]any)["date"] != today || days[0].(map[string]any)["calls"] != float64(4) {
		t.Errorf("/v2/listings activity: %v", listings)
	}

	if r := u.do("GET", "/v2/usage/activity?period=1y", nil); r.status != 400 {
		t.Errorf("a bad period: %d %s, want 400", r.status, r.body)
	}
}
