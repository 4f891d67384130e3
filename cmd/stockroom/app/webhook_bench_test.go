package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkWebhookDelivery measures webhook delivery over loopback against the whole
// service, and reports the latency from each execution's end (its stop_date) to the
// receiver's getting the event (p50, p99), and the deliveries per second from the first
// end to the last receipt. "lone" runs one search for an organization with one endpoint
// per round; "burst" runs 50 searches for an organization with 20 endpoints (1,000
// deliveries per round), where latency is mostly the wait behind the other deliveries.
func BenchmarkWebhookDelivery(b *testing.B) {
	b.Run("lone", func(b *testing.B) { benchmarkWebhookDelivery(b, 1, 1) })
	b.Run("burst", func(b *testing.B) { benchmarkWebhookDelivery(b, 50, 20) })
}

func benchmarkWebhookDelivery(b *testing.B, searches, endpoints int) {
	var mu sync.Mutex
	var ends, receipts []time.Time // one of each per delivery
	arrived := make(chan struct{}, searches*endpoints)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		now := time.Now()
		var p struct {
			Data struct {
				StopDate time.Time `json:"stop_date"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &p)
		mu.Lock()
		ends, receipts = append(ends, p.Data.StopDate), append(receipts, now)
		mu.Unlock()
		arrived <- struct{}{}
	}))
	defer receiver.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, key, svc := serve(ctx, b, "STOCKROOM_WEBHOOKS__ALLOW="+strings.TrimPrefix(receiver.URL, "http://"))
	s := &stack{t: b, base: base, key: key, svc: svc}
	for i := range endpoints {
		if r := s.do("POST", "/v2/webhooks", map[string]any{"url": fmt.Sprintf("%s/%d", receiver.URL, i)}); r.status != 201 {
			b.Fatalf("register endpoint: %d %s", r.status, r.raw)
		}
	}
	var all []time.Duration
	var busy time.Duration
	b.ResetTimer()
	for range b.N {
		mu.Lock()
		ends, receipts = nil, nil
		mu.Unlock()
		for i := range searches {
			s.startSearchWithWebhook(fmt.Sprintf("linen shirt %d", i), nil)
		}
		for range searches * endpoints {
			select {
			case <-arrived:
			case <-time.After(2 * time.Minute):
				b.Fatalf("not all %d deliveries arrived", searches*endpoints)
			}
		}
		mu.Lock()
		for i := range ends {
			all = append(all, receipts[i].Sub(ends[i]))
		}
		// From the first end to the last receipt: the time the service spent delivering.
		busy += slices.MaxFunc(receipts, time.Time.Compare).Sub(slices.MinFunc(ends, time.Time.Compare))
		mu.Unlock()
	}
	b.StopTimer()
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(all))/busy.Seconds(), "deliveries/s")
}
