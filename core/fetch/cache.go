package fetch

import (
	"bytes"
	"container/list"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// cache keeps recent responses that carry a validator (ETag or Last-Modified), so that the
// next fetch of the same URL can ask "has it changed?" and, on 304 Not Modified, use the
// stored body. A Fetcher has one only when no PageStore keeps its pages. It never answers
// without asking the server: freshness (max-age) is not modelled, because a product page's
// price is exactly what we come back for.
type cache struct {
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	ll    *list.List // front is most recently used
	items map[string]*list.Element
	bytes int64
}

type cacheEntry struct {
	key     string
	status  int
	header  http.Header
	body    []byte // decompressed, before charset conversion
	etag    string
	lastMod string
	// digest is the PageStore's digest of body (BodyDigest); zero for entries of the
	// memory cache, which needs none.
	digest uint64
}

func (e *cacheEntry) size() int64 { return entrySize(e.key, e.body) }

func entrySize(key string, body []byte) int64 { return int64(len(body) + len(key)) }

func newCache(maxEntries int, maxBytes int64) *cache {
	if maxEntries < 0 {
		return nil
	}
	return &cache{maxEntries: maxEntries, maxBytes: maxBytes, ll: list.New(), items: map[string]*list.Element{}}
}

// cacheKey is the URL plus the caller's extra headers, which may change the answer. The
// headers follow the URL one a line: neither a URL nor a header holds a line break, and the
// key stays text a PageStore can keep.
func cacheKey(rawURL string, h http.Header) string {
	if len(h) == 0 {
		return rawURL
	}
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(rawURL)
	for _, k := range keys {
		b.WriteString("\n" + k + ":" + strings.Join(h[k], ","))
	}
	return b.String()
}

func (c *cache) get(key string) *cacheEntry {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil
	}
	c.ll.MoveToFront(el)
	return el.Value.(*cacheEntry)
}

// put stores a 200 response if it can be revalidated later and the server allows storing.
func (c *cache) put(key string, status int, header http.Header, body []byte) {
	if c == nil {
		return
	}
	etag, lastMod, ok := validated(status, header)
	if !ok || entrySize(key, body) > c.maxBytes {
		c.remove(key)
		return
	}
	// Copies, so that a caller changing its Response cannot change the cache. Only what
	// is kept is copied: most answers carry no validator.
	e := &cacheEntry{key: key, status: status, header: header.Clone(), body: bytes.Clone(body), etag: etag, lastMod: lastMod}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.bytes -= el.Value.(*cacheEntry).size()
		c.ll.Remove(el)
	}
	c.items[key] = c.ll.PushFront(e)
	c.bytes += e.size()
	for c.ll.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*cacheEntry).key)
		c.bytes -= old.Value.(*cacheEntry).size()
	}
}

func (c *cache) remove(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.bytes -= el.Value.(*cacheEntry).size()
		c.ll.Remove(el)
		delete(c.items, key)
	}
}

// validated returns the validators of an answer that may be kept for conditional requests:
// a 200 with an ETag or a Last-Modified that the server lets us store.
func validated(status int, header http.Header) (etag, lastMod string, ok bool) {
	if status != http.StatusOK {
		return "", "", false
	}
	etag, lastMod = header.Get("ETag"), header.Get("Last-Modified")
	cc := strings.ToLower(header.Get("Cache-Control"))
	if (etag == "" && lastMod == "") || strings.Contains(cc, "no-store") || header.Get("Vary") == "*" {
		return "", "", false
	}
	return etag, lastMod, true
}

// conditional adds e's validators to a request header.
func (e *cacheEntry) conditional(h http.Header) {
	if e.etag != "" {
		h.Set("If-None-Match", e.etag)
	}
	if e.lastMod != "" {
		h.Set("If-Modified-Since", e.lastMod)
	}
}

// revalidatedHeader is the stored header updated with a 304's (RFC 9111 §4.3.4).
func (e *cacheEntry) revalidatedHeader(notModified http.Header) http.Header {
	h := e.header.Clone()
	for _, k := range []string{"Etag", "Last-Modified", "Date", "Cache-Control", "Expires"} {
		if v := notModified.Values(k); len(v) > 0 {
			h[k] = v
		}
	}
	return h
}
