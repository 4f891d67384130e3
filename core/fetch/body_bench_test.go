package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// BenchmarkFetchLargePage fetches a storefront-sized JSON page (930 KB) over loopback,
// chunked as the demo store and most stores send it, and with its length declared.
func BenchmarkFetchLargePage(b *testing.B) {
	page := bytes.Repeat([]byte(`{"title":"Blue suede shoes","price":"39.90"},`), 930<<10/45)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/declared" {
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		}
		for rest := page; len(rest) > 0; {
			n := min(len(rest), 32<<10)
			_, _ = w.Write(rest[:n])
			rest = rest[n:]
		}
	}))
	defer srv.Close()
	f, err := New(testOptions())
	if err != nil {
		b.Fatal(err)
	}
	defer f.CloseIdleConnections()
	for _, path := range []string{"/chunked", "/declared"} {
		b.Run(path[1:], func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				resp, err := f.Fetch(context.Background(), &Request{URL: srv.URL + path})
				if err != nil || len(resp.Body) != len(page) {
					b.Fatalf("%v, %d bytes", err, len(resp.Body))
				}
			}
		})
	}
}
