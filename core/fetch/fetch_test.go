package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// A 404 is information ("no such product"), not an error, and is not retried.
func TestNotFoundIsAResponse(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	f := newFetcher(t, testOptions())
	resp, err := get(context.Background(), f, s.URL+"/gone")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 404 || resp.Attempts != 1 || s.count("/gone") != 1 {
		t.Errorf("status %d after %d attempts (%d requests); want 404 after 1", resp.Status, resp.Attempts, s.count("/gone"))
	}
}

// 5xx and 429 answers are retried until one is not; the response tells how many attempts.
func TestRetriesUntilSuccess(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504, 429, 408} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			var n atomic.Int32
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) <= 2 {
					w.WriteHeader(status)
					return
				}
				_, _ = w.Write([]byte("finally"))
			})
			f := newFetcher(t, testOptions())
			resp, err := get(context.Background(), f, s.URL+"/p")
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != 200 || string(resp.Body) != "finally" || resp.Attempts != 3 {
				t.Errorf("got %d %q after %d attempts; want 200 \"finally\" after 3", resp.Status, resp.Body, resp.Attempts)
			}
			if st := f.Stats(); st.Retries != 2 {
				t.Errorf("Stats().Retries = %d; want 2", st.Retries)
			}
		})
	}
}

// Statuses that will not change are returned at once.
func TestPermanentStatusesAreNotRetried(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 410, 501, 505} {
		s := newSite(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) })
		f := newFetcher(t, testOptions())
		resp, err := get(context.Background(), f, s.URL+"/p")
		if err != nil || resp.Status != status || s.count("/p") != 1 {
			t.Errorf("status %d: %v, %d requests; want the response after 1 request", status, err, s.count("/p"))
		}
	}
}

// When every attempt fails, the error carries the last status and is transient.
func TestRetriesExhausted(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	opts := testOptions()
	opts.MaxAttempts = 3
	f := newFetcher(t, opts)
	_, err := get(context.Background(), f, s.URL+"/p")
	var se *StatusError
	if !errors.As(err, &se) || se.Status != 502 || se.Attempts != 3 {
		t.Fatalf("Fetch = %v; want a StatusError 502 after 3 attempts", err)
	}
	if !IsTransient(err) {
		t.Error("exhausted retries not reported as transient")
	}
	if n := s.count("/p"); n != 3 {
		t.Errorf("server saw %d requests; want 3", n)
	}
}

// A 429's Retry-After is waited out before the next attempt.
func TestRetryAfterIsHonoured(t *testing.T) {
	var mu sync.Mutex
	var arrivals []time.Time
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		first := len(arrivals) == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	f := newFetcher(t, testOptions())
	resp, err := get(context.Background(), f, s.URL+"/p")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 2 || len(arrivals) != 2 {
		t.Fatalf("%d attempts, %d arrivals; want 2", resp.Attempts, len(arrivals))
	}
	if gap := arrivals[1].Sub(arrivals[0]); gap < time.Second {
		t.Errorf("retry came %s after the 429; want at least Retry-After (1s)", gap)
	}
}

// A Retry-After longer than MaxRetryAfter ends the fetch at once, for the caller to
// reschedule, instead of holding a worker for an hour.
func TestRetryAfterBeyondTheCapGivesUp(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	f := newFetcher(t, testOptions())
	_, err := get(context.Background(), f, s.URL+"/p")
	var se *StatusError
	if !errors.As(err, &se) || se.RetryAfter != time.Hour || se.Attempts != 1 {
		t.Fatalf("Fetch = %v; want a StatusError with RetryAfter 1h after 1 attempt", err)
	}
	if n := s.count("/p"); n != 1 {
		t.Errorf("server saw %d requests; want 1", n)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"-5", 0},
		{"7", 7 * time.Second},
		{" 120 ", 2 * time.Minute},
		{"Sat, 01 Mar 2025 12:00:30 GMT", 30 * time.Second},
		{"Saturday, 01-Mar-25 12:01:00 GMT", time.Minute},
		{"Sat, 01 Mar 2025 11:59:00 GMT", 0}, // past
		{"soon", 0},
		{"99999999999999", 1 << 30 * time.Second},
	}
	for _, c := range cases {
		if got := parseRetryAfter(c.in, now); got != c.want {
			t.Errorf("parseRetryAfter(%q) = %s; want %s", c.in, got, c.want)
		}
	}
}

// Backoff grows exponentially, stays within its cap and its jitter band, and never undercuts
// a Retry-After.
func TestBackoff(t *testing.T) {
	f := newFetcher(t, Options{RetryBaseDelay: 100 * time.Millisecond, RetryMaxDelay: time.Second})
	for range 50 {
		for attempt, full := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 5: time.Second, 60: time.Second} {
			if d := f.backoff(attempt, 0); d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %s; want within [%s, %s]", attempt, d, full/2, full)
			}
		}
		if d := f.backoff(1, 5*time.Second); d != 5*time.Second {
			t.Fatalf("backoff with Retry-After 5s = %s", d)
		}
	}
}

// A connection that fails (closed before any answer) is retried.
func TestConnectionErrorsAreRetried(t *testing.T) {
	var n atomic.Int32
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	f := newFetcher(t, testOptions())
	resp, err := get(context.Background(), f, s.URL+"/p")
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "ok" || n.Load() < 2 {
		t.Errorf("body %q after %d requests; want \"ok\" after a retry", resp.Body, n.Load())
	}
}

// An attempt slower than RequestTimeout is abandoned and retried.
func TestSlowAttemptTimesOutAndIsRetried(t *testing.T) {
	var n atomic.Int32
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	opts := testOptions()
	opts.RequestTimeout = time.Second // generous: robots.txt must answer within it on a loaded machine
	f := newFetcher(t, opts)
	resp, err := get(context.Background(), f, s.URL+"/p")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Attempts != 2 {
		t.Errorf("%d attempts; want 2", resp.Attempts)
	}

	// Every attempt timing out is a transient NetworkError.
	opts.MaxAttempts = 2
	s2 := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	_, err = get(context.Background(), newFetcher(t, opts), s2.URL+"/p")
	var ne *NetworkError
	if !errors.As(err, &ne) || ne.Attempts != 2 || !IsTransient(err) {
		t.Fatalf("Fetch = %v; want a transient NetworkError after 2 attempts", err)
	}
}

// Redirects are followed and recorded; the final URL is the one that answered.
func TestRedirectChainIsRecorded(t *testing.T) {
	other := newSite(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("landed")) })
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a":
			http.Redirect(w, r, "/b", http.StatusMovedPermanently)
		case "/b":
			http.Redirect(w, r, "c?x=1", http.StatusFound) // relative
		case "/c":
			http.Redirect(w, r, other.URL+"/d", http.StatusTemporaryRedirect) // another host
		}
	})
	f := newFetcher(t, testOptions())
	resp, err := get(context.Background(), f, s.URL+"/a")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{s.URL + "/a", s.URL + "/b", s.URL + "/c?x=1"}
	if fmt.Sprint(resp.Redirects) != fmt.Sprint(want) {
		t.Errorf("Redirects = %v; want %v", resp.Redirects, want)
	}
	if resp.RequestedURL != s.URL+"/a" || resp.FinalURL != other.URL+"/d" || string(resp.Body) != "landed" {
		t.Errorf("requested %s, final %s, body %q", resp.RequestedURL, resp.FinalURL, resp.Body)
	}
	if resp.Attempts != 4 {
		t.Errorf("Attempts = %d; want 4", resp.Attempts)
	}
}

// A redirect loop stops at MaxRedirects; negative MaxRedirects returns the 3xx itself.
func TestRedirectsAreBounded(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	opts := testOptions()
	opts.MaxRedirects = 3
	_, err := get(context.Background(), newFetcher(t, opts), s.URL+"/loop")
	if !errors.Is(err, ErrTooManyRedirects) || IsTransient(err) {
		t.Fatalf("Fetch = %v; want a permanent ErrTooManyRedirects", err)
	}
	if n := s.count("/loop"); n != 4 {
		t.Errorf("server saw %d requests; want 4 (the first and 3 redirects)", n)
	}

	opts.MaxRedirects = -1
	resp, err := get(context.Background(), newFetcher(t, opts), s.URL+"/loop")
	if err != nil || resp.Status != http.StatusFound || resp.Header.Get("Location") != "/loop" {
		t.Fatalf("Fetch with redirects off = %+v, %v; want the 302", resp, err)
	}
}

// Bodies over MaxBodyBytes are an error, not a silently cut page, however compressed.
func TestBodySizeLimit(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(make([]byte, 1<<20)) // 1 MiB of zeros, about 1 KiB compressed
	_ = zw.Close()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/exact":
			_, _ = w.Write(bytes.Repeat([]byte("a"), 1000))
		case "/over":
			_, _ = w.Write(bytes.Repeat([]byte("a"), 1001))
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes())
		}
	})
	opts := testOptions()
	opts.MaxBodyBytes = 1000
	f := newFetcher(t, opts)
	if resp, err := get(context.Background(), f, s.URL+"/exact"); err != nil || len(resp.Body) != 1000 {
		t.Fatalf("Fetch /exact = %v; want the 1000 bytes", err)
	}
	for _, p := range []string{"/over", "/bomb"} {
		_, err := get(context.Background(), f, s.URL+p)
		if !errors.Is(err, ErrBodyTooLarge) || IsTransient(err) {
			t.Errorf("Fetch %s = %v; want a permanent ErrBodyTooLarge", p, err)
		}
		if n := s.count(p); n != 1 {
			t.Errorf("Fetch %s sent %d requests; want 1", p, n)
		}
	}
}

// Bodies of any size arrive whole, whether their length is declared or they are chunked,
// around the sizes of the blocks a body of unknown length is read in; a cut body fails.
func TestBodiesArriveWhole(t *testing.T) {
	sizes := []int{0, 1, bodyBlock - 1, bodyBlock, bodyBlock + 1, 3*bodyBlock + 7}
	body := make([]byte, sizes[len(sizes)-1])
	for i := range body {
		body[i] = byte('a' + i%26 + i/bodyBlock)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(body)
	_ = zw.Close()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		switch r.URL.Path {
		case "/declared":
			w.Header().Set("Content-Length", strconv.Itoa(n))
			_, _ = w.Write(body[:n])
		case "/chunked":
			_, _ = w.Write(body[:n/2])
			w.(http.Flusher).Flush()
			_, _ = w.Write(body[n/2 : n])
		case "/cut-gzip":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes()[:gz.Len()/2])
		}
	})
	f := newFetcher(t, testOptions())
	for _, path := range []string{"/declared", "/chunked"} {
		for _, n := range sizes {
			resp, err := get(context.Background(), f, fmt.Sprintf("%s%s?n=%d", s.URL, path, n))
			if err != nil || !bytes.Equal(resp.Body, body[:n]) {
				t.Errorf("%s of %d bytes: %v, %d bytes back, want them whole", path, n, err, len(resp.Body))
			}
		}
	}
	if resp, err := get(context.Background(), f, s.URL+"/cut-gzip"); err == nil {
		t.Errorf("a cut gzip stream gave %d bytes, want an error", len(resp.Body))
	}
}

// Compressed bodies come back decompressed, whatever the coding.
func TestCompressedBodies(t *testing.T) {
	page := []byte(strings.Repeat("<p>Blue suede shoes, 39.90 EUR</p>", 50))
	encode := map[string]func(*bytes.Buffer) interface {
		Write([]byte) (int, error)
		Close() error
	}{
		"gzip": func(b *bytes.Buffer) interface {
			Write([]byte) (int, error)
			Close() error
		} {
			return gzip.NewWriter(b)
		},
		"deflate": func(b *bytes.Buffer) interface {
			Write([]byte) (int, error)
			Close() error
		} {
			return zlib.NewWriter(b)
		},
		"raw deflate": func(b *bytes.Buffer) interface {
			Write([]byte) (int, error)
			Close() error
		} {
			w, _ := flate.NewWriter(b, flate.DefaultCompression)
			return w
		},
		"br": func(b *bytes.Buffer) interface {
			Write([]byte) (int, error)
			Close() error
		} {
			return brotli.NewWriter(b)
		},
	}
	for name, enc := range encode {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			w := enc(&buf)
			_, _ = w.Write(page)
			_ = w.Close()
			var gotAE string
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				gotAE = r.Header.Get("Accept-Encoding")
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", strings.TrimPrefix(name, "raw "))
				_, _ = w.Write(buf.Bytes())
			})
			f := newFetcher(t, testOptions())
			resp, err := get(context.Background(), f, s.URL+"/p")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(resp.Body, page) || !bytes.Equal(resp.RawBody, page) {
				t.Errorf("body not decompressed: %q", resp.Body[:min(len(resp.Body), 40)])
			}
			if resp.Header.Get("Content-Encoding") != "" {
				t.Error("Content-Encoding kept on a decompressed body")
			}
			if gotAE != acceptEncoding {
				t.Errorf("Accept-Encoding %q; want %q", gotAE, acceptEncoding)
			}
			if st := f.Stats(); st.Bytes < int64(buf.Len()) || st.Bytes >= int64(len(page)) {
				t.Errorf("Stats().Bytes = %d; want the compressed size (%d)", st.Bytes, buf.Len())
			}
		})
	}
}

func TestCharsetConversion(t *testing.T) {
	latin1, _ := charmap.ISO8859_1.NewEncoder().String("<p>Café crème</p>")
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("<p>靴 サイズ26</p>")
	sjisMeta, _ := japanese.ShiftJIS.NewEncoder().String(`<html><head><meta charset="Shift_JIS"></head><body>靴</body></html>`)
	win1252, _ := charmap.Windows1252.NewEncoder().String("<p>12 €</p>")
	utf16le := []byte{0xff, 0xfe, 'h', 0, 0xe9, 0}
	lateUTF8 := strings.Repeat("a", 2000) + "é"
	cases := []struct {
		name, contentType, raw string
		wantBody, wantCharset  string
		wantType               string
	}{
		{"ISO-8859-1 header", "text/html; charset=ISO-8859-1", latin1, "<p>Café crème</p>", "windows-1252", "text/html"},
		{"Shift_JIS header", "text/html; charset=Shift_JIS", sjis, "<p>靴 サイズ26</p>", "shift_jis", "text/html"},
		{"Shift_JIS meta", "text/html", sjisMeta, `<html><head><meta charset="Shift_JIS"></head><body>靴</body></html>`, "shift_jis", "text/html"},
		{"undeclared windows-1252", "text/html", win1252, "<p>12 €</p>", "windows-1252", "text/html"},
		{"UTF-8 BOM", "text/html", "\xef\xbb\xbfé", "é", "utf-8", "text/html"},
		{"UTF-16LE BOM", "text/plain", string(utf16le), "hé", "utf-16le", "text/plain"},
		{"UTF-8 past the first KiB", "text/html", lateUTF8, lateUTF8, "utf-8", "text/html"},
		{"JSON is UTF-8", "application/json", `{"t":"é"}`, `{"t":"é"}`, "utf-8", "application/json"},
		{"invalid UTF-8 replaced", "text/html; charset=utf-8", "a\xffb", "a\uFFFDb", "utf-8", "text/html"},
		{"sniffed when undeclared", "", "<!DOCTYPE html><p>é</p>", "<!DOCTYPE html><p>é</p>", "utf-8", "text/html"},
		{"images untouched", "image/png", "\x89PNG\xff", "\x89PNG\xff", "", "image/png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			typ, body, cs := decodeText([]byte(c.raw), c.contentType)
			if string(body) != c.wantBody || cs != c.wantCharset || typ != c.wantType {
				t.Errorf("decodeText = %q, %q, %q; want %q, %q, %q", typ, body, cs, c.wantType, c.wantBody, c.wantCharset)
			}
		})
	}
}

// End to end: a gzipped Shift_JIS page arrives as UTF-8 with the raw bytes kept.
func TestFetchConvertsToUTF8(t *testing.T) {
	sjis, _ := japanese.ShiftJIS.NewEncoder().String("<title>靴</title>")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(sjis))
	_ = zw.Close()
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=Shift_JIS")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(gz.Bytes())
	})
	resp, err := get(context.Background(), newFetcher(t, testOptions()), s.URL+"/p")
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "<title>靴</title>" || string(resp.RawBody) != sjis || resp.Charset != "shift_jis" || resp.ContentType != "text/html" {
		t.Errorf("Body %q, RawBody %q, Charset %q, ContentType %q", resp.Body, resp.RawBody, resp.Charset, resp.ContentType)
	}
}

// A cached page is revalidated with its validators; a 304 returns the cached body.
func TestConditionalRequests(t *testing.T) {
	cases := []struct {
		name      string
		validator string // response header
		value     string
		condition string // request header the server checks
		cached    bool
	}{
		{"ETag", "ETag", `"v1"`, "If-None-Match", true},
		{"Last-Modified", "Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT", "If-Modified-Since", true},
		{"no validator", "", "", "If-None-Match", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var conditional atomic.Int32
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				if c.validator != "" {
					w.Header().Set(c.validator, c.value)
				}
				if v := r.Header.Get(c.condition); v != "" {
					conditional.Add(1)
					if v == c.value {
						w.WriteHeader(http.StatusNotModified)
						return
					}
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte("<p>price 10</p>"))
			})
			f := newFetcher(t, testOptions())
			first, err := get(context.Background(), f, s.URL+"/p")
			if err != nil || first.Revalidated {
				t.Fatalf("first Fetch = %+v, %v", first, err)
			}
			second, err := get(context.Background(), f, s.URL+"/p")
			if err != nil {
				t.Fatal(err)
			}
			if second.Revalidated != c.cached || string(second.Body) != "<p>price 10</p>" || second.Status != 200 {
				t.Errorf("second Fetch: Revalidated %v, status %d, body %q; want Revalidated %v, 200, the page", second.Revalidated, second.Status, second.Body, c.cached)
			}
			if want := map[bool]int32{true: 1, false: 0}[c.cached]; conditional.Load() != want {
				t.Errorf("server saw %d conditional requests; want %d", conditional.Load(), want)
			}
			if want := map[bool]int64{true: 1, false: 0}[c.cached]; f.Stats().CacheHits != want {
				t.Errorf("Stats().CacheHits = %d; want %d", f.Stats().CacheHits, want)
			}
		})
	}
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newCache(2, 1<<20)
	h := http.Header{"Etag": {`"x"`}}
	c.put("a", 200, h, []byte("A"))
	c.put("b", 200, h, []byte("B"))
	c.get("a")
	c.put("c", 200, h, []byte("C"))
	if c.get("b") != nil || c.get("a") == nil || c.get("c") == nil {
		t.Error("want b evicted, a and c kept")
	}
	small := newCache(10, 10)
	small.put("big", 200, h, bytes.Repeat([]byte("x"), 20))
	if small.get("big") != nil {
		t.Error("an entry over CacheBytes was kept")
	}
	if newCache(-1, 0).get("a") != nil {
		t.Error("a disabled cache answered")
	}
}

// No more than MaxConcurrentPerHost (or the host's override) requests are ever in flight.
func TestPerHostConcurrencyIsBounded(t *testing.T) {
	cases := []struct {
		name  string
		hosts map[string]HostLimits
		want  int64
	}{
		{"default of 2", nil, 2},
		{"override of 1", map[string]HostLimits{"127.0.0.1": {MaxConcurrent: 1}}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in inflight
			s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
				in.enter()
				defer in.leave()
				time.Sleep(20 * time.Millisecond)
			})
			opts := testOptions()
			opts.Hosts = c.hosts
			f := newFetcher(t, opts)
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Go(func() {
					if _, err := get(context.Background(), f, fmt.Sprintf("%s/p%d", s.URL, i)); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if peak := in.peak.Load(); peak > c.want || peak < 1 {
				t.Errorf("peak concurrency %d; want at most %d", peak, c.want)
			}
			if s.total() != 8 {
				t.Errorf("server saw %d page requests; want 8", s.total())
			}
		})
	}
}

// A cancelled fetch returns promptly wherever it waits: in a backoff, for a politeness
// slot, or in a request.
func TestCancellationIsPrompt(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		opts    func(*Options)
	}{
		{"during a Retry-After backoff", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(http.StatusServiceUnavailable)
		}, nil},
		{"waiting for the politeness delay", nil, func(o *Options) { o.Delay = 30 * time.Minute }},
		{"during a slow request", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSite(t, c.handler)
			opts := testOptions()
			opts.TotalTimeout = time.Hour
			if c.opts != nil {
				c.opts(&opts)
			}
			f := newFetcher(t, opts)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := get(ctx, f, s.URL+"/p")
				done <- err
			}()
			// Cancel once the fetch is under way: robots.txt has been asked for.
			for s.count("/robots.txt") == 0 {
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(50 * time.Millisecond)
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) || IsTransient(err) {
					t.Errorf("Fetch = %v; want context.Canceled, not transient", err)
				}
			case <-time.After(2 * time.Second):
				t.Fatal("Fetch still running 2s after cancellation")
			}
		})
	}
}

// TotalTimeout bounds a fetch's own work, its attempts and the backoffs between them, and
// says so.
func TestTotalTimeout(t *testing.T) {
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	opts := testOptions()
	opts.MaxAttempts = 100
	opts.TotalTimeout = 300 * time.Millisecond
	f := newFetcher(t, opts)
	_, err := get(context.Background(), f, s.URL+"/p")
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || !IsTransient(err) {
		t.Fatalf("Fetch = %v; want a transient ErrTimeout", err)
	}
	if n := s.count("/p"); n > 3 {
		t.Errorf("server saw %d attempts; want the budget to stop them after two or three", n)
	}
}

// A fetch that waits long for its turn at a busy host is not failed: the wait is
// politeness, and TotalTimeout bounds only the fetch's own work.
func TestWaitingForTheHostIsNotATimeout(t *testing.T) {
	s := newSite(t, nil)
	opts := testOptions()
	opts.Delay = 40 * time.Millisecond
	opts.MaxConcurrentPerHost = 1
	opts.TotalTimeout = 100 * time.Millisecond
	f := newFetcher(t, opts)
	meter := &Meter{}
	ctx := WithMeter(context.Background(), meter)
	const fetches = 12 // the last waits about 12 delays, far beyond TotalTimeout
	var wg sync.WaitGroup
	var peakWaiting atomic.Int64
	for i := range fetches {
		wg.Go(func() {
			if _, err := get(ctx, f, fmt.Sprintf("%s/p%d", s.URL, i)); err != nil {
				t.Errorf("fetch %d: %v", i, err)
			}
		})
	}
	wg.Go(func() {
		for s.total() < fetches {
			peakWaiting.Store(max(peakWaiting.Load(), int64(meter.Waiting())))
			time.Sleep(5 * time.Millisecond)
		}
	})
	wg.Wait()
	if peakWaiting.Load() < fetches/2 {
		t.Errorf("the meter saw at most %d fetches waiting for the host; want most of %d", peakWaiting.Load(), fetches)
	}
	if n := meter.Waiting(); n != 0 {
		t.Errorf("%d fetches still counted as waiting after all ended", n)
	}
}

// The User-Agent is ours and configurable; callers' headers are sent too.
func TestRequestHeaders(t *testing.T) {
	var ua, lang, accept string
	s := newSite(t, func(w http.ResponseWriter, r *http.Request) {
		ua, lang, accept = r.UserAgent(), r.Header.Get("Accept-Language"), r.Header.Get("Accept")
	})
	opts := testOptions()
	opts.UserAgent = "AcmeBot/2.0 (+https://acme.example/bot)"
	f := newFetcher(t, opts)
	_, err := f.Fetch(context.Background(), &Request{URL: s.URL + "/p", Header: http.Header{"Accept-Language": {"de"}}})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	robotsUA := s.robotsUA
	s.mu.Unlock()
	if ua != opts.UserAgent || robotsUA != opts.UserAgent || lang != "de" || !strings.Contains(accept, "text/html") {
		t.Errorf("User-Agent %q (robots %q), Accept-Language %q, Accept %q", ua, robotsUA, lang, accept)
	}
	if f.opts.RobotsToken != "AcmeBot" {
		t.Errorf("RobotsToken = %q; want AcmeBot", f.opts.RobotsToken)
	}
}

func TestIsTransient(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"status", &StatusError{Status: 503}, true},
		{"wrapped status", fmt.Errorf("fetch x: %w", &StatusError{Status: 429}), true},
		{"timeout", fmt.Errorf("x: %w", ErrTimeout), true},
		{"connection", &NetworkError{Err: errors.New("connection reset by peer")}, true},
		{"robots unavailable", &RobotsError{Unavailable: true, Cause: errors.New("status 503")}, true},
		{"robots disallow", &RobotsError{}, false},
		{"bot wall", &BotWallError{Service: "Cloudflare"}, false},
		{"blocked", &BlockedAddressError{Host: "10.0.0.1", Reason: "private"}, false},
		{"blocked in a network error", &NetworkError{Err: &BlockedAddressError{}}, false},
		{"too large", fmt.Errorf("x: %w", ErrBodyTooLarge), false},
		{"redirects", fmt.Errorf("x: %w", ErrTooManyRedirects), false},
		{"invalid", fmt.Errorf("x: %w", ErrInvalidURL), false},
		{"cancelled", fmt.Errorf("x: %w", context.Canceled), false},
	}
	for _, c := range cases {
		if got := IsTransient(c.err); got != c.want {
			t.Errorf("%s: IsTransient(%v) = %v; want %v", c.name, c.err, got, c.want)
		}
	}
}

func TestOptionsAreValidated(t *testing.T) {
	for _, o := range []Options{
		{MaxConcurrentPerHost: -1},
		{MaxBodyBytes: -1},
		{TotalTimeout: -time.Second},
		{Hosts: map[string]HostLimits{"x": {MaxConcurrent: -1}}},
	} {
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), "Options.") {
			t.Errorf("New(%+v) = %v; want an error naming the field", o, err)
		}
	}
}
