package configs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDefaultsLoadAndValidate(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Server.Address != "127.0.0.1:8080" || c.RateLimit.Requests != 50 || c.RateLimit.Window != 4*time.Second || c.Usage.BatchSize != 10000 {
		t.Errorf("defaults not as documented: %+v", c)
	}
}

func TestFileThenEnvironmentOverride(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(path, []byte("server:\n  address: 0.0.0.0:9000\nrate_limit:\n  requests: 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path, []string{
		"STOCKROOM_RATE_LIMIT__REQUESTS=9",
		"DATABASE_URL=postgres://a@b/c",
		"CLICKHOUSE_URL=clickhouse://x:9000/d",
		"STOCKROOM_USAGE__FLUSH_INTERVAL=250ms",
		"UNRELATED=1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Server.Address != "0.0.0.0:9000" || c.RateLimit.Requests != 9 || c.Database.URL != "postgres://a@b/c" ||
		c.ClickHouse.URL != "clickhouse://x:9000/d" || c.Usage.FlushInterval != 250*time.Millisecond {
		t.Errorf("overrides not applied: %+v", c)
	}
}

func TestInvalidValuesAreNamedByKey(t *testing.T) {
	cases := []struct{ env, key string }{
		{"STOCKROOM_SERVER__BODY_LIMIT=-1", "server.body_limit"},
		{"STOCKROOM_SERVER__GC_PERCENT=-1", "server.gc_percent"},
		{"STOCKROOM_LOG__LEVEL=loud", "log.level"},
		{"STOCKROOM_LOG__FORMAT=xml", "log.format"},
		{"STOCKROOM_USAGE__BATCH_SIZE=0", "usage.batch_size"},
		{"STOCKROOM_DATABASE__MAX_CONNS=5", "database.max_conns"}, // jobs.workers 4 + 2
		{"STOCKROOM_CREDITS__CRAWL=-5", "credits.crawl"},
		{"STOCKROOM_SERVER__ADRESS=x", "server.adress"},
		{"STOCKROOM_RATE_LIMIT__WINDOW=soon", "rate_limit"},
		{"STOCKROOM_AFFILIATE__TEMPLATE=https://go.example/?u={url_encoded}", "affiliate.vendors"},
		{"STOCKROOM_AFFILIATE__VENDORS=shop.com", "affiliate.template"},
		{"STOCKROOM_TRACING__SAMPLE_RATIO=1.5", "tracing.sample_ratio"},
	}
	for _, c := range cases {
		_, err := Load("", []string{c.env})
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s: error %v, want one naming %s", c.env, err, c.key)
		}
	}
}

func TestTracingIsOffByDefaultAndItsEndpointIsAURL(t *testing.T) {
	cfg, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Tracing.Enabled {
		t.Error("tracing is on by default")
	}
	_, err = Load("", []string{"STOCKROOM_TRACING__ENABLED=true", "STOCKROOM_TRACING__ENDPOINT=collector:4318"})
	if err == nil || !strings.Contains(err.Error(), "tracing.endpoint") {
		t.Errorf("an endpoint that is no URL: error %v, want one naming tracing.endpoint", err)
	}
	if _, err := Load("", []string{"STOCKROOM_TRACING__ENABLED=true"}); err != nil {
		t.Errorf("tracing on with the exporter's own endpoint: %v", err)
	}
}

func TestListsFromTheEnvironmentAreCommaSeparated(t *testing.T) {
	c, err := Load("", []string{"STOCKROOM_FETCH__ALLOW=127.0.0.0/8, ::1/128", "STOCKROOM_FETCH__NO_DELAY_HOSTS=127.0.0.2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Fetch.Allow) != 2 || c.Fetch.Allow[1] != "::1/128" || len(c.Fetch.NoDelayHosts) != 1 {
		t.Errorf("lists: %q %q", c.Fetch.Allow, c.Fetch.NoDelayHosts)
	}
}

func TestAffiliateNetworkIsOffByDefault(t *testing.T) {
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := c.Affiliate.Network(); n != nil || err != nil {
		t.Errorf("default network: %v, %v", n, err)
	}
}

func TestAffiliateNetworkFromTheEnvironment(t *testing.T) {
	c, err := Load("", []string{
		"STOCKROOM_AFFILIATE__TEMPLATE=https://go.example/?u={url_encoded}",
		"STOCKROOM_AFFILIATE__VENDORS=shop.com, *.brand.example",
	})
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.Affiliate.Network()
	if err != nil || !n.Covers("shop.com") || !n.Covers("eu.brand.example") || n.Covers("other.com") {
		t.Errorf("network of %+v: %v", c.Affiliate, err)
	}
}

func TestBadAffiliateSettingsNameTheKey(t *testing.T) {
	cases := []struct {
		env  []string
		want string
	}{
		{[]string{"STOCKROOM_AFFILIATE__TEMPLATE=https://go.example/?u={link}", "STOCKROOM_AFFILIATE__VENDORS=shop.com"},
			"affiliate.template: unknown placeholder {link}"},
		{[]string{"STOCKROOM_AFFILIATE__TEMPLATE=https://go.example/?u={url}", "STOCKROOM_AFFILIATE__VENDORS=shop.com,not a host"},
			"affiliate.vendors[1]"},
	}
	for _, c := range cases {
		_, err := Load("", c.env)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.env, err, c.want)
		}
	}
}

func TestHostPolitenessIsReadFromTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "stockroom.yaml")
	yaml := "fetch:\n  hosts:\n    - {host: shop.example.com, delay: 3s, max_delay: 2m, max_concurrent: 1}\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []FetchHost{{Host: "shop.example.com", Delay: 3 * time.Second, MaxDelay: 2 * time.Minute, MaxConcurrent: 1}}
	if !reflect.DeepEqual(c.Fetch.Hosts, want) {
		t.Errorf("hosts %+v; want %+v", c.Fetch.Hosts, want)
	}
	if c.Fetch.MinDelay != time.Second || c.Fetch.MaxDelay != time.Minute {
		t.Errorf("pacing bounds %s..%s; want the defaults 1s..1m", c.Fetch.MinDelay, c.Fetch.MaxDelay)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("fetch:\n  hosts:\n    - {host: Shop.Example.com}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad, nil); err == nil || !strings.Contains(err.Error(), "fetch.hosts[0].host") {
		t.Errorf("upper-case host: error %v; want one naming fetch.hosts[0].host", err)
	}
}
