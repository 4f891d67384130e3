package server_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stockroom/stockroom/server"
)

func TestMissingKeyGetsTheInterfacesBodyByteForByte(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.doWithHeaders("GET", "/v2/vendors", nil, nil)
	want := `{"error":"API key required (x-api-key header or Authorization: Bearer)","status":401}`
	if r.status != 401 || string(r.body) != want {
		t.Fatalf("got %d %s, want 401 %s", r.status, r.body, want)
	}
	if r.header.Get("Request-ID") == "" {
		t.Error("401 has no Request-ID header")
	}
}

func TestInvalidKeyGetsTheInterfacesBodyByteForByte(t *testing.T) {
	e := newEnv(t, envOptions{})
	want := `{"error":"Invalid API key","status":401}`
	for name, headers := range map[string]map[string]string{
		"x-api-key":     {"x-api-key": "srk_nope"},
		"bearer":        {"Authorization": "Bearer srk_nope"},
		"revoked key":   {"x-api-key": e.revokedKey()},
		"unknown route": {"x-api-key": "srk_nope"},
	} {
		path := "/v2/vendors"
		if name == "unknown route" {
			path = "/v9/nothing"
		}
		r := e.doWithHeaders("GET", path, nil, headers)
		if r.status != 401 || string(r.body) != want {
			t.Errorf("%s: got %d %s, want 401 %s", name, r.status, r.body, want)
		}
	}
}

func (e *env) revokedKey() string {
	e.t.Helper()
	key, secret, err := e.access.IssueKey(context.Background(), e.org.Name, "to revoke")
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.access.Store().RevokeKey(context.Background(), key.ID); err != nil {
		e.t.Fatal(err)
	}
	return secret
}

func TestBothKeyHeadersAuthenticate(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, headers := range []map[string]string{
		{"x-api-key": e.key},
		{"Authorization": "Bearer " + e.key},
		{"Authorization": "bearer " + e.key},
	} {
		if r := e.doWithHeaders("GET", "/v2/vendors", nil, headers); r.status != 200 {
			t.Errorf("%v: got %d %s", headers, r.status, r.body)
		}
	}
}

func TestHealthNeedsNoKeyAndReportsEachDependency(t *testing.T) {
	e := newEnv(t, envOptions{deps: func(d *server.Deps) {
		d.Checks = []server.Check{
			{Name: "postgres", Required: true, Probe: func(ctx context.Context) error { return nil }},
		}
	}})
	r := e.doWithHeaders("GET", "/healthz", nil, nil)
	body := r.json(t)
	if r.status != 200 || body["status"] != "ok" {
		t.Fatalf("got %d %s", r.status, r.body)
	}
	if ok := body["checks"].(map[string]any)["postgres"].(map[string]any)["ok"]; ok != true {
		t.Errorf("postgres check: %v", ok)
	}
}

func TestRateLimitHeadersAndRetryAfter(t *testing.T) {
	e := newEnv(t, envOptions{opts: server.Options{RateRequests: 3, RateWindow: 3 * time.Second}})
	for i := 0; i < 3; i++ {
		r := e.do("GET", "/v2/vendors", nil)
		if r.status != 200 {
			t.Fatalf("request %d: %d %s", i, r.status, r.body)
		}
		if got := r.header.Get("RateLimit-Limit"); got != "3" {
			t.Errorf("RateLimit-Limit = %q", got)
		}
		if got, _ := strconv.Atoi(r.header.Get("RateLimit-Remaining")); got != 2-i {
			t.Errorf("request %d: RateLimit-Remaining = %d, want %d", i, got, 2-i)
		}
	}
	r := e.do("GET", "/v2/vendors", nil)
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("4th request: %d %s", r.status, r.body)
	}
	if code := r.json(t)["error"].(map[string]any)["code"]; code != "RATE_LIMITED" {
		t.Errorf("code %v", code)
	}
	if ra, _ := strconv.Atoi(r.header.Get("Retry-After")); ra < 1 || ra > 3 {
		t.Errorf("Retry-After = %q", r.header.Get("Retry-After"))
	}
	// Another key has its own bucket.
	_, other := e.newOrg("other")
	if r := e.doWithHeaders("GET", "/v2/vendors", nil, map[string]string{"x-api-key": other}); r.status != 200 {
		t.Errorf("other key limited too: %d", r.status)
	}
}
