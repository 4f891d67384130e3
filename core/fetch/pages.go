package fetch

import (
	"bytes"
	"context"
	"net/http"

	"github.com/cespare/xxhash/v2"
)

// PageStore keeps fetched pages that carry a validator (ETag or Last-Modified), so that a
// later fetch of the same URL, in this process or another one days later, asks only
// whether the page changed and, answered 304 Not Modified, uses the stored page. A
// recrawl of an unchanged store then costs one round of conditional requests.
// storage/postgres implements it, and prunes the pages no fetch has used for a while.
//
// A Fetcher given a PageStore keeps no page bodies in memory: the store holds them, and
// a crawl reads each page once, so a copy in memory would only grow the process.
type PageStore interface {
	// Page returns the page stored under key; ok is false when there is none.
	Page(ctx context.Context, key string) (page StoredPage, ok bool, err error)
	// SavePage stores page under key, replacing what was there.
	SavePage(ctx context.Context, key string, page StoredPage) error
	// RevalidatePage records that the page stored under key is still current, and used
	// now: the host answered 304 Not Modified, or sent the same body again. The stored
	// status and body stay; the validators and header become page's. page.Digest names
	// the body the host confirmed: a store whose page under key has another digest (a
	// newer answer saved meanwhile) keeps it as it is. page.Body is not read.
	RevalidatePage(ctx context.Context, key string, page StoredPage) error
}

// StoredPage is what a conditional request needs, and what reusing the answer needs: the
// validators, and the status, header and body (decompressed, in its original charset) of
// the answer they validate.
type StoredPage struct {
	Status       int
	Header       http.Header
	Body         []byte
	ETag         string
	LastModified string
	// Digest identifies Body (BodyDigest), so that a body sent again unchanged is not
	// stored again.
	Digest uint64
}

// BodyDigest is the digest of a stored page's body: 64 bits of xxHash, which tells a
// page's versions apart at a small fraction of the cost of storing them.
func BodyDigest(body []byte) uint64 { return xxhash.Sum64(body) }

// storedEntry returns the page a PageStore keeps under key as a cache entry; nil when
// there is none or no store. A store that cannot answer is logged and treated as empty:
// the page is then fetched whole.
func (f *Fetcher) storedEntry(ctx context.Context, key string) *cacheEntry {
	if f.opts.Pages == nil {
		return nil
	}
	p, ok, err := f.opts.Pages.Page(ctx, key)
	if err != nil {
		if ctx.Err() == nil {
			f.log.Warn("read stored page", "key", key, "err", err)
		}
		return nil
	}
	if !ok {
		return nil
	}
	return &cacheEntry{key: key, status: p.Status, header: p.Header, body: p.Body, etag: p.ETag, lastMod: p.LastModified, digest: p.Digest}
}

// knownEntry returns what the fetcher knows of the page under key for a conditional
// request: the PageStore's copy when there is a store, else the memory cache's; nil
// when neither has the page.
func (f *Fetcher) knownEntry(ctx context.Context, key string) *cacheEntry {
	if f.opts.Pages != nil {
		return f.storedEntry(ctx, key)
	}
	return f.cache.get(key)
}

// keep remembers an answer that may be asked about conditionally later: in the PageStore
// when there is one, else in the memory cache. previous is the page the request was
// conditional on, nil when there was none; when the answer's body is the same, only the
// validators are stored again. A failure of the store is logged: it costs the next fetch
// of the page a full answer, not this fetch its result.
func (f *Fetcher) keep(ctx context.Context, key string, status int, header http.Header, body []byte, previous *cacheEntry) {
	if f.opts.Pages == nil {
		f.cache.put(key, status, header, body)
		return
	}
	etag, lastMod, ok := validated(status, header)
	if !ok {
		return
	}
	page := StoredPage{Status: status, Header: header, Body: body, ETag: etag, LastModified: lastMod, Digest: BodyDigest(body)}
	var err error
	if previous != nil && previous.status == status && previous.digest == page.Digest {
		err = f.opts.Pages.RevalidatePage(ctx, key, page)
	} else {
		err = f.opts.Pages.SavePage(ctx, key, page)
	}
	if err != nil && ctx.Err() == nil {
		f.log.Warn("store page", "key", key, "err", err)
	}
}

// revalidated remembers that the host answered 304 Not Modified for the page in e, and
// returns the answer to give: e's status and body, and e's header updated with the
// 304's. The PageStore records the page as used, so that it is kept while recrawls use
// it. A failure is logged: at worst the page is pruned, and the next fetch of it is a
// full one.
func (f *Fetcher) revalidated(ctx context.Context, e *cacheEntry, notModified http.Header) *hopResult {
	header := e.revalidatedHeader(notModified)
	if f.opts.Pages == nil {
		f.cache.put(e.key, e.status, header, e.body)
		// A copy: the caller owns the answer, and the cache keeps its own body.
		return &hopResult{status: e.status, header: header, body: bytes.Clone(e.body), revalidated: true}
	}
	page := StoredPage{Status: e.status, Header: header, ETag: header.Get("ETag"), LastModified: header.Get("Last-Modified"), Digest: e.digest}
	if err := f.opts.Pages.RevalidatePage(ctx, e.key, page); err != nil && ctx.Err() == nil {
		f.log.Warn("revalidate stored page", "key", e.key, "err", err)
	}
	// The body was read from the store for this fetch alone.
	return &hopResult{status: e.status, header: header, body: e.body, revalidated: true}
}
