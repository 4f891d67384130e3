package webhook

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/fetch"
)

// The example of the Standard Webhooks reference libraries' tests: the same secret, id,
// timestamp and body sign to the same value.
func TestSignatureMatchesTheStandardWebhooksExample(t *testing.T) {
	got, err := Signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
}

func TestNewSecretIsPrefixedRandomBase64(t *testing.T) {
	a, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewSecret()
	if !strings.HasPrefix(a, SecretPrefix) || a == b {
		t.Fatalf("secrets %q and %q", a, b)
	}
	if _, err := Signature(a, "msg_1", time.Now(), nil); err != nil {
		t.Fatalf("a new secret does not sign: %v", err)
	}
}

func TestScheduleGivesOneRetryPerWait(t *testing.T) {
	s := Schedule{time.Second, time.Minute}
	if s.Attempts() != 3 {
		t.Fatalf("%d attempts, want 3", s.Attempts())
	}
	for attempt, want := range map[int]time.Duration{1: time.Second, 2: time.Minute} {
		if got, ok := s.After(attempt); !ok || got != want {
			t.Errorf("after attempt %d: %s %v, want %s", attempt, got, ok, want)
		}
	}
	if _, ok := s.After(3); ok {
		t.Error("a retry after the last attempt")
	}
	var total time.Duration
	for _, d := range DefaultSchedule {
		total += d
	}
	if total < 24*time.Hour || total > 30*time.Hour {
		t.Errorf("the default schedule retries for %s, not about a day", total)
	}
}

func TestPayloadCountsWhatTheExecutionReported(t *testing.T) {
	stopped := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	completed := execution.Execution{ID: "crawl-shop-1", Kind: execution.Crawl, Status: execution.Completed, StoppedAt: &stopped,
		Result: json.RawMessage(`{"collections_total": 3, "listings_total": 40, "method": {"platform": "shopify"}}`)}
	p, ok := NewPayload(completed, json.RawMessage(`{"listings_found": 39}`), json.RawMessage(`{"order":42}`))
	if !ok || p.Type != CrawlCompleted || p.Data.Error != nil || string(p.Data.Metadata) != `{"order":42}` {
		t.Fatalf("payload %+v", p)
	}
	if len(p.Data.Counts) != 2 || p.Data.Counts["listings_total"] != 40 {
		t.Fatalf("counts %v, want the result's whole numbers", p.Data.Counts)
	}
	failed := execution.Execution{ID: "products-batch-1", Kind: execution.ProductsBatch, Status: execution.Failed, Error: "canceled", StoppedAt: &stopped}
	p, _ = NewPayload(failed, json.RawMessage(`{"products_processed": 2, "products_total": 5}`), nil)
	if p.Type != ExtractFailed || *p.Data.Error != "canceled" || p.Data.Counts["products_processed"] != 2 || string(p.Data.Metadata) != "null" {
		t.Fatalf("payload of a canceled batch %+v", p)
	}
	if _, ok := NewPayload(execution.Execution{Kind: execution.Crawl, Status: execution.Running}, nil, nil); ok {
		t.Fatal("a payload for a running execution")
	}
}

func TestSubscriptionsAreChecked(t *testing.T) {
	guard, err := fetch.NewGuard(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewService(nil, guard)
	for _, c := range []struct {
		name string
		req  Request
		kind failure.Kind
	}{
		{"no url", Request{}, failure.Invalid},
		{"not http", Request{URL: "mailto:ops@example.com"}, failure.Validation},
		{"loopback", Request{URL: "http://127.0.0.1:8080/"}, failure.Validation},
		{"credentials", Request{URL: "https://user:pw@hooks.example.com/"}, failure.Validation},
		{"unknown event", Request{URL: "https://hooks.example.com/", Events: []string{"crawl.finished"}}, failure.Validation},
		{"another kind's event", Request{URL: "https://hooks.example.com/", Events: []string{"crawl.failed"}}, failure.Validation},
		{"metadata array", Request{URL: "https://hooks.example.com/", Metadata: json.RawMessage(`[1]`)}, failure.Invalid},
		{"metadata too long", Request{URL: "https://hooks.example.com/", Metadata: json.RawMessage(`{"a":"` + strings.Repeat("x", MaxMetadataBytes) + `"}`)}, failure.Validation},
	} {
		_, err := s.Subscription(execution.Extract, "webhook", c.req)
		var fe *failure.Error
		if !errors.As(err, &fe) || fe.Kind != c.kind || !strings.HasPrefix(fe.Param, "webhook.") {
			t.Errorf("%s: %v, want a %v error naming webhook.*", c.name, err, c.kind)
		}
	}
	w, err := s.Subscription(execution.Extract, "webhook", Request{URL: "https://hooks.example.com/",
		Events: []string{"extract.failed", "extract.failed"}, Metadata: json.RawMessage(`{"a":1}`)})
	if err != nil || len(w.Events) != 1 || !strings.HasPrefix(w.Secret, SecretPrefix) {
		t.Fatalf("subscription %+v, %v", w, err)
	}
}
