package demostore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
)

// serveValidated answers r as h does, with an ETag on every 200 answer: a hash of the
// body, so that a page keeps its tag while it does not change. A request whose
// If-None-Match names the tag is answered 304 Not Modified without a body, as real stores
// answer a crawler's conditional requests; Stats counts both.
func (s *Store) serveValidated(w http.ResponseWriter, r *http.Request, h http.HandlerFunc) {
	conditional := r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != ""
	if conditional {
		s.conditional.Add(1)
	}
	buf := &bufferedWriter{header: w.Header()}
	h(buf, r)
	status := buf.status
	if status == 0 {
		status = http.StatusOK
	}
	if status == http.StatusOK {
		sum := sha256.Sum256(buf.body.Bytes())
		tag := `"` + hex.EncodeToString(sum[:12]) + `"`
		w.Header().Set("ETag", tag)
		if conditional && etagMatches(r.Header.Get("If-None-Match"), tag) {
			w.Header().Del("Content-Length")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.body.Bytes())
	}
}

// etagMatches reports whether an If-None-Match header names tag (weak comparison, RFC 9110
// §13.1.2).
func etagMatches(ifNoneMatch, tag string) bool {
	for _, t := range strings.Split(ifNoneMatch, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}

// bufferedWriter keeps a handler's answer until its ETag is known.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
