package fetch

import (
	"context"
	"net/http"
)

// PageStore keeps fetched pages that carry a validator (ETag or Last-Modified) beyond the
// fetcher's memory, so that a later fetch of the same URL, in this process or another one
// days later, asks only whether the page changed and, answered 304 Not Modified, uses the
// stored page. A recrawl of an unchanged store then costs one round of conditional
// requests. storage/postgres implements it, and prunes the pages no fetch has used for a
// while.
type PageStore interface {
	// Page returns the page stored under key; ok is false when there is none.
	Page(ctx context.Context, key string) (page StoredPage, ok bool, err error)
	// SavePage stores page under key, replacing what was there.
	SavePage(ctx context.Context, key string, page StoredPage) error
	// TouchPage records that the page under key was used again: the host answered 304
	// Not Modified to a request it validated.
	TouchPage(ctx context.Context, key string) error
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
}

// storedEntry returns the page a PageStore keeps under key as a cache entry, remembered in
// memory from then on; nil when there is none or no store. A store that cannot answer is
// logged and treated as empty: the page is then fetched whole.
func (f *Fetcher) storedEntry(ctx context.Context, key string) *cacheEntry {
	if f.opts.Pages == nil || f.cache == nil {
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
	f.cache.put(key, p.Status, p.Header, p.Body)
	return f.cache.get(key)
}

// savePage stores a page that carries a validator in the PageStore. A failure is logged:
// it costs the next fetch of the page a full answer, not this fetch its result.
func (f *Fetcher) savePage(ctx context.Context, key string, status int, header http.Header, body []byte) {
	if f.opts.Pages == nil {
		return
	}
	etag, lastMod, ok := validated(status, header)
	if !ok {
		return
	}
	err := f.opts.Pages.SavePage(ctx, key, StoredPage{Status: status, Header: header, Body: body, ETag: etag, LastModified: lastMod})
	if err != nil && ctx.Err() == nil {
		f.log.Warn("store page", "key", key, "err", err)
	}
}

// touchPage tells the PageStore that the page under key served a 304 answer, so that it is
// kept while recrawls use it. A failure is logged: at worst the page is pruned, and the
// next fetch of it is a full one.
func (f *Fetcher) touchPage(ctx context.Context, key string) {
	if f.opts.Pages == nil {
		return
	}
	if err := f.opts.Pages.TouchPage(ctx, key); err != nil && ctx.Err() == nil {
		f.log.Warn("touch stored page", "key", key, "err", err)
	}
}
