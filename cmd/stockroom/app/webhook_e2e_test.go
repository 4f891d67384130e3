package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// verifyWebhook checks a delivery as a receiver would, following the Standard Webhooks
// specification on its own (not through core/webhook): the signature over
// id.timestamp.body with the secret's decoded key, and a timestamp close to now.
func verifyWebhook(secret string, h http.Header, body []byte) error {
	id, timestamp, signatures := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return fmt.Errorf("missing webhook headers: id %q, timestamp %q, signature %q", id, timestamp, signatures)
	}
	unix, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("webhook-timestamp %q: %v", timestamp, err)
	}
	if d := time.Since(time.Unix(unix, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("webhook-timestamp %s is %s away from now", timestamp, d)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return fmt.Errorf("secret %q: %v", secret, err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "." + string(body)))
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(signatures) {
		version, encoded, _ := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(encoded)
		if version == "v1" && err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("no signature in %q matches", signatures)
}

// receipt is one delivery a receiver was sent.
type receipt struct {
	path    string
	header  http.Header
	body    []byte
	payload map[string]any
	at      time.Time
	// accepted is whether the receiver answered 2xx.
	accepted bool
}

// receiver is a webhook receiver on loopback that records what it is sent and answers
// with the status fail returns (200 when fail is nil).
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	receipts []receipt
	fail     func(r *http.Request) int
	arrived  chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{arrived: make(chan struct{}, 1000)}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		status := http.StatusOK
		rc.mu.Lock()
		if rc.fail != nil {
			status = rc.fail(r)
		}
		rcpt := receipt{path: r.URL.Path, header: r.Header.Clone(), body: body, at: time.Now(), accepted: status < 300}
		_ = json.Unmarshal(body, &rcpt.payload)
		rc.receipts = append(rc.receipts, rcpt)
		rc.mu.Unlock()
		w.WriteHeader(status)
		rc.arrived <- struct{}{}
	}))
	t.Cleanup(rc.Close)
	return rc
}

// setFail changes how the receiver answers from now on.
func (rc *receiver) setFail(fail func(r *http.Request) int) {
	rc.mu.Lock()
	rc.fail = fail
	rc.mu.Unlock()
}

// hostPort is the receiver's address, as the webhooks allowlist takes it.
func (rc *receiver) hostPort() string { return strings.TrimPrefix(rc.URL, "http://") }

func (rc *receiver) all() []receipt {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]receipt(nil), rc.receipts...)
}

// waitFor waits until done holds for the receipts so far, or fails t after timeout.
func (rc *receiver) waitFor(t *testing.T, timeout time.Duration, what string, done func([]receipt) bool) []receipt {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if got := rc.all(); done(got) {
			return got
		}
		select {
		case <-rc.arrived:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("receiver: %s not seen after %s; got %d deliveries", what, timeout, len(rc.all()))
		}
	}
}

// acceptedIDs counts the deliveries the receiver accepted, by webhook-id.
func acceptedIDs(receipts []receipt) map[string]int {
	ids := map[string]int{}
	for _, r := range receipts {
		if r.accepted {
			ids[r.header.Get("webhook-id")]++
		}
	}
	return ids
}

// webhookSettings let the service reach the receivers and retry on a schedule fast
// enough for a test.
func webhookSettings(schedule string, receivers ...*receiver) []string {
	var hosts []string
	for _, rc := range receivers {
		hosts = append(hosts, rc.hostPort())
	}
	return []string{
		"STOCKROOM_WEBHOOKS__ALLOW=" + strings.Join(hosts, ","),
		"STOCKROOM_WEBHOOKS__RETRY_SCHEDULE=" + schedule,
		"STOCKROOM_WEBHOOKS__POLL_INTERVAL=50ms",
		"STOCKROOM_WEBHOOKS__TIMEOUT=2s",
	}
}

// startSearchWithWebhook starts a v2 agentic search carrying webhook, and returns its id and the
// webhook's secret.
func (s *stack) startSearchWithWebhook(query string, webhook map[string]any) (id, secret string) {
	s.t.Helper()
	body := map[string]any{"query": query}
	if webhook != nil {
		body["webhook"] = webhook
	}
	r := s.do("POST", "/v2/agentic-search", body)
	if r.status != 202 {
		s.t.Fatalf("start search: %d %s", r.status, r.raw)
	}
	secret, _ = field(r.body, "meta", "webhook_secret").(string)
	return r.body["execution_id"].(string), secret
}

// waitDeliveries reads a list of deliveries until done holds for it, and returns it.
func (s *stack) waitDeliveries(path string, done func([]map[string]any) bool) []map[string]any {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := s.do("GET", path, nil)
		list := objects(r.body["data"])
		if r.status == 200 && done(list) {
			return list
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("GET %s: %d %s", path, r.status, r.raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A crawl's end reaches both a registered endpoint and the crawl start's own webhook,
// each signed with its own secret, with the execution's id, status, counts and metadata;
// each delivery and its attempt can be read back.
func TestWebhooksTellACrawlsEndSigned(t *testing.T) {
	rc := newReceiver(t)
	s := newStackWith(t, webhookSettings("1s", rc), demostore.Options{Kind: demostore.Shopify, Products: 60})
	shop := s.fleet.Get(demostore.Shopify)

	created := s.do("POST", "/v2/webhooks", map[string]any{"url": rc.URL + "/endpoint", "events": []string{"crawl.completed"},
		"metadata": map[string]any{"team": "catalog"}})
	if created.status != 201 {
		t.Fatalf("register endpoint: %d %s", created.status, created.raw)
	}
	endpointID, endpointSecret := created.body["id"].(string), created.body["secret"].(string)
	if !strings.HasPrefix(endpointSecret, "whsec_") {
		t.Fatalf("secret %q does not start with whsec_", endpointSecret)
	}
	if got := s.do("GET", "/v2/webhooks/"+endpointID, nil); got.status != 200 || got.body["secret"] != nil {
		t.Fatalf("a read of the endpoint shows its secret or fails: %d %s", got.status, got.raw)
	}

	started := s.do("POST", "/v2/crawl", map[string]any{"url": shop.BaseURL,
		"webhook": map[string]any{"url": rc.URL + "/start", "metadata": map[string]any{"order": 42}}})
	if started.status != 202 {
		t.Fatalf("start crawl: %d %s", started.status, started.raw)
	}
	id := started.body["execution_id"].(string)
	startSecret, _ := field(started.body, "meta", "webhook_secret").(string)
	if !strings.HasPrefix(startSecret, "whsec_") || startSecret == endpointSecret {
		t.Fatalf("the start's webhook secret %q is not its own whsec_ secret", startSecret)
	}
	detail := s.waitEnded("/v2/crawl/"+id, 2*time.Minute)
	if detail["status"] != "completed" {
		t.Fatalf("crawl did not complete: %v", detail)
	}
	receipts := rc.waitFor(t, 30*time.Second, "both deliveries", func(r []receipt) bool { return len(r) >= 2 })

	secrets := map[string]string{"/endpoint": endpointSecret, "/start": startSecret}
	metadata := map[string]string{"/endpoint": `{"team":"catalog"}`, "/start": `{"order":42}`}
	for _, r := range receipts {
		if err := verifyWebhook(secrets[r.path], r.header, r.body); err != nil {
			t.Errorf("%s: %v", r.path, err)
		}
		if other := secrets["/start"]; r.path == "/endpoint" && verifyWebhook(other, r.header, r.body) == nil {
			t.Errorf("%s verifies with another receiver's secret", r.path)
		}
		p := r.payload
		if p["type"] != "crawl.completed" || field(p, "data", "execution_id") != id || field(p, "data", "status") != "completed" {
			t.Errorf("%s: payload %s", r.path, r.body)
		}
		if got := num(field(p, "data", "counts", "listings_total")); got != num(field(detail, "meta", "result", "listings_total")) || got == 0 {
			t.Errorf("%s: counts.listings_total %d, the crawl found %v", r.path, got, field(detail, "meta", "result", "listings_total"))
		}
		if got, _ := json.Marshal(field(p, "data", "metadata")); string(got) != metadata[r.path] {
			t.Errorf("%s: metadata %s, want %s", r.path, got, metadata[r.path])
		}
	}

	// The receiver may hear of a delivery before the service records the answer.
	list := s.waitDeliveries("/v2/webhooks/"+endpointID+"/deliveries", func(list []map[string]any) bool {
		return len(list) == 1 && list[0]["status"] == "succeeded"
	})
	if len(objects(list[0]["attempts"])) != 1 {
		t.Fatalf("endpoint deliveries: %v", list)
	}
	if list[0]["id"] != receipts[0].header.Get("webhook-id") && list[0]["id"] != receipts[1].header.Get("webhook-id") {
		t.Errorf("delivery id %v is no webhook-id the receiver saw", list[0]["id"])
	}
	ofExecution := s.do("GET", "/v2/webhooks/deliveries?execution_id="+id, nil)
	if n := len(objects(ofExecution.body["data"])); ofExecution.status != 200 || n != 2 {
		t.Fatalf("deliveries of the crawl: %d, %d of them: %s", ofExecution.status, n, ofExecution.raw)
	}

	if got := s.do("DELETE", "/v2/webhooks/"+endpointID, nil); got.status != 200 {
		t.Fatalf("delete endpoint: %d %s", got.status, got.raw)
	}
	if got := s.do("GET", "/v2/webhooks/"+endpointID+"/deliveries", nil); got.status != 404 {
		t.Fatalf("deliveries of a deleted endpoint: %d %s", got.status, got.raw)
	}
}

// Requests that cannot be served are refused with 400 in the documented error shape,
// before anything is started or charged.
func TestWebhookRequestsAreValidated(t *testing.T) {
	rc := newReceiver(t)
	s := newStackWith(t, webhookSettings("1s", rc))
	long := strings.Repeat("x", 5000)
	for _, c := range []struct {
		name, path string
		body       map[string]any
		code       string
	}{
		{"ftp URL", "/v2/webhooks", map[string]any{"url": "ftp://hooks.example.com/"}, "VALIDATION_ERROR"},
		{"relative URL", "/v2/webhooks", map[string]any{"url": "/hooks"}, "VALIDATION_ERROR"},
		{"no URL", "/v2/webhooks", map[string]any{"events": []string{"crawl.completed"}}, "INVALID_REQUEST"},
		{"unknown event", "/v2/webhooks", map[string]any{"url": rc.URL, "events": []string{"crawl.done"}}, "VALIDATION_ERROR"},
		{"metadata too long", "/v2/webhooks", map[string]any{"url": rc.URL, "metadata": map[string]any{"note": long}}, "VALIDATION_ERROR"},
		{"metadata not an object", "/v2/webhooks", map[string]any{"url": rc.URL, "metadata": []int{1}}, "INVALID_REQUEST"},
		{"loopback not allowed", "/v2/webhooks", map[string]any{"url": "http://127.0.0.1:1/"}, "VALIDATION_ERROR"},
		{"metadata address", "/v2/webhooks", map[string]any{"url": "http://169.254.169.254/latest"}, "VALIDATION_ERROR"},
		{"private network", "/v2/webhooks", map[string]any{"url": "https://10.1.2.3/hook"}, "VALIDATION_ERROR"},
		{"start: event of another kind", "/v2/agentic-search", map[string]any{"query": "shoes",
			"webhook": map[string]any{"url": rc.URL, "events": []string{"crawl.completed"}}}, "VALIDATION_ERROR"},
		{"start: webhook not an object", "/v2/agentic-search", map[string]any{"query": "shoes", "webhook": rc.URL}, "INVALID_REQUEST"},
		{"start: localhost", "/v2/extract", map[string]any{"urls": []string{"https://shop.example/p/1"},
			"webhook": map[string]any{"url": "http://localhost:9/hook"}}, "VALIDATION_ERROR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.do("POST", c.path, c.body)
			if r.status != 400 || field(r.body, "error", "code") != c.code {
				t.Fatalf("%d %s, want 400 %s", r.status, r.raw, c.code)
			}
		})
	}
	if list := s.do("GET", "/v2/agentic-search", nil); len(objects(list.body["data"])) != 0 {
		t.Fatalf("a refused start left an execution: %s", list.raw)
	}
}

// A receiver down for a while, then up, gets every event, each accepted once under its
// webhook-id.
func TestWebhookReceiverDownThenUpGetsEveryEventOnce(t *testing.T) {
	rc := newReceiver(t)
	rc.setFail(func(*http.Request) int { return http.StatusServiceUnavailable })
	s := newStackWith(t, webhookSettings("200ms,200ms,400ms,800ms,1600ms,3200ms", rc))
	const searches = 5
	ids := map[string]bool{}
	for i := range searches {
		id, _ := s.startSearchWithWebhook(fmt.Sprintf("linen shirt %d", i), map[string]any{"url": rc.URL})
		ids[id] = true
	}
	rc.waitFor(t, time.Minute, "a failed attempt at every event", func(r []receipt) bool {
		seen := map[string]bool{}
		for _, x := range r {
			seen[x.header.Get("webhook-id")] = true
		}
		return len(seen) == searches
	})
	rc.setFail(nil)
	receipts := rc.waitFor(t, time.Minute, "every event accepted", func(r []receipt) bool { return len(acceptedIDs(r)) == searches })
	time.Sleep(time.Second) // room for a duplicate to show up
	receipts = rc.all()
	for id, n := range acceptedIDs(receipts) {
		if n != 1 {
			t.Errorf("delivery %s accepted %d times", id, n)
		}
	}
	for _, r := range receipts {
		if !ids[field(r.payload, "data", "execution_id").(string)] || r.payload["type"] != "agentic_search.completed" {
			t.Errorf("unexpected delivery %s", r.body)
		}
	}
}

// A receiver that always fails is attempted once and then once per wait of the schedule,
// no sooner than each wait, and every attempt is recorded; the delivery ends failed.
func TestWebhookToAFailingReceiverIsRetriedOnScheduleAndRecorded(t *testing.T) {
	rc := newReceiver(t)
	rc.setFail(func(*http.Request) int { return http.StatusInternalServerError })
	schedule := []time.Duration{300 * time.Millisecond, 600 * time.Millisecond, 1200 * time.Millisecond}
	s := newStackWith(t, webhookSettings("300ms,600ms,1200ms", rc))
	created := s.do("POST", "/v2/webhooks", map[string]any{"url": rc.URL})
	endpointID := created.body["id"].(string)
	s.startSearchWithWebhook("wool socks", nil)

	receipts := rc.waitFor(t, time.Minute, "every attempt", func(r []receipt) bool { return len(r) == len(schedule)+1 })
	for i, wait := range schedule {
		if gap := receipts[i+1].at.Sub(receipts[i].at); gap < wait {
			t.Errorf("attempt %d came %s after attempt %d, sooner than the schedule's %s", i+2, gap, i+1, wait)
		}
	}
	delivery := s.waitDeliveries("/v2/webhooks/"+endpointID+"/deliveries", func(list []map[string]any) bool {
		return len(list) == 1 && list[0]["status"] == "failed"
	})[0]
	attempts := objects(delivery["attempts"])
	if len(attempts) != len(schedule)+1 {
		t.Fatalf("%d attempts recorded, want %d: %v", len(attempts), len(schedule)+1, attempts)
	}
	for i, a := range attempts {
		if num(a["attempt"]) != i+1 || num(a["response_status"]) != 500 || a["error"] == nil {
			t.Errorf("attempt %d recorded as %v", i+1, a)
		}
	}
	if delivery["next_attempt_at"] != nil || delivery["delivered_at"] != nil {
		t.Errorf("a failed delivery shows a next attempt or a delivery: %v", delivery)
	}
	time.Sleep(2 * time.Second)
	if n := len(rc.all()); n != len(schedule)+1 {
		t.Errorf("%d attempts after the schedule ran out, want %d", n, len(schedule)+1)
	}
}

// Without an allowlist, a receiver on a private address is refused where it can be known
// (a literal address, at registration) and where it cannot (a name that resolves to one,
// at each attempt, which is recorded and sends nothing).
func TestWebhookToAPrivateAddressIsRefused(t *testing.T) {
	rc := newReceiver(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	_, port, _ := strings.Cut(rc.hostPort(), ":")
	resolver := loopbackResolver{names: map[string]bool{"hooks.shop.test": true}}
	base, key, svc := serveResolving(ctx, t, resolver, "STOCKROOM_WEBHOOKS__RETRY_SCHEDULE=100ms")
	s := &stack{t: t, base: base, key: key, svc: svc}

	if r := s.do("POST", "/v2/webhooks", map[string]any{"url": rc.URL}); r.status != 400 {
		t.Fatalf("register %s: %d %s, want 400", rc.URL, r.status, r.raw)
	}
	hook := "http://hooks.shop.test:" + port + "/hook"
	id, _ := s.startSearchWithWebhook("rain jacket", map[string]any{"url": hook})
	delivery := s.waitDeliveries("/v2/webhooks/deliveries?execution_id="+id, func(list []map[string]any) bool {
		return len(list) == 1 && list[0]["status"] == "failed"
	})[0]
	for _, a := range objects(delivery["attempts"]) {
		if msg, _ := a["error"].(string); !strings.Contains(msg, "loopback") || a["response_status"] != nil {
			t.Errorf("attempt recorded as %v, want a refusal of the loopback address", a)
		}
	}
	if n := len(rc.all()); n != 0 {
		t.Fatalf("the private receiver was sent %d requests", n)
	}
}

// loopbackResolver answers 127.0.0.1 for its names, as a public-looking name that points
// at an internal address would.
type loopbackResolver struct{ names map[string]bool }

func (r loopbackResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if r.names[host] {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

// A delivery being retried when its service stops is completed by the next service on
// the same database.
func TestWebhookRetryOutlivesARestart(t *testing.T) {
	rc := newReceiver(t)
	rc.setFail(func(*http.Request) int { return http.StatusBadGateway })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	settings := webhookSettings("1s,1s,1s,1s,1s,1s,1s,1s", rc)
	base, key, first, stopFirst := startService(ctx, t, nil, settings...)
	s := &stack{t: t, base: base, key: key, svc: first}
	id, secret := s.startSearchWithWebhook("leather boots", map[string]any{"url": rc.URL})
	rc.waitFor(t, 30*time.Second, "a first, failed attempt", func(r []receipt) bool { return len(r) >= 1 })
	stopFirst()
	rc.setFail(nil)

	second := append(settings, "STOCKROOM_DATABASE__URL="+first.cfg.Database.URL)
	base, key, _, _ = startService(ctx, t, nil, second...)
	s = &stack{t: t, base: base, key: key}
	receipts := rc.waitFor(t, time.Minute, "the delivery accepted", func(r []receipt) bool { return len(acceptedIDs(r)) == 1 })
	last := receipts[len(receipts)-1]
	if err := verifyWebhook(secret, last.header, last.body); err != nil {
		t.Fatal(err)
	}
	if field(last.payload, "data", "execution_id") != id {
		t.Fatalf("delivered %s, want the event of %s", last.body, id)
	}
	if first := receipts[0].header.Get("webhook-id"); last.header.Get("webhook-id") != first {
		t.Fatalf("the retry after the restart has webhook-id %s, the first attempt %s", last.header.Get("webhook-id"), first)
	}
}
