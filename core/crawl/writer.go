package crawl

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"strings"
	"time"

	"github.com/stockroom/stockroom/core/catalog"
)

const (
	// maxWriteListings bounds the listings one catalog write takes from the queue.
	maxWriteListings = 2000
	// pagesQueuedPerLister is how far the listers may run ahead of the writer, in pages
	// per listing slot. Pages queue while the writer writes, and the next write takes
	// them all. A deeper queue therefore makes fewer, larger writes instead of holding
	// the listers back; a write has a fixed cost whatever its size.
	pagesQueuedPerLister = 8
	// minWriteListings is how many listings the writer waits for before it writes, for
	// up to writeLinger. A store of small pages is listed faster than each page could be
	// written, and because each write has a fixed cost, fewer and larger writes cost the
	// database less. The wait delays when a collection is marked done, but it never delays
	// the crawl's end: the last write goes as soon as the queue closes. The wait is short
	// next to how often progress is reported, so progress stays fresh.
	// core/crawl/RATIONALE.md records the measurements behind both values.
	minWriteListings = 500
	writeLinger      = 250 * time.Millisecond
)

// writeRequest is what a collection's lister hands the writer: a page of listings to save,
// with the collection on its first page, or word that a collection is finished.
type writeRequest struct {
	listings []catalog.ListingInput
	// served, when set, is a collection whose first page the store has served. It is
	// saved before the listings, which are linked to it as they are written.
	served *catalog.CollectionInput
	// finishedCollection, when set, is the key of a collection whose pages were all queued
	// before this request. finishedTotal is the number of listings found in it.
	finishedCollection string
	finishedTotal      int
}

// listingWriter is the single writer of a crawl's listings. Listers queue their pages and
// go on to their next page; the writer saves everything that has queued in one call. So
// listing never waits for the database, and a crawl's writes never wait for each other on
// the vendor's lock, as they would if every lister wrote its own pages.
type listingWriter struct {
	catalog catalog.Store
	st      *crawlState
	queue   chan writeRequest
	// minListings and linger are minWriteListings and writeLinger, except in tests.
	minListings int
	linger      time.Duration
	// backlog is what the collections still hold, when the listers know it (see
	// writeThreshold). A nil backlog knows nothing.
	backlog *backlog
}

func newListingWriter(store catalog.Store, st *crawlState, queued int) *listingWriter {
	return &listingWriter{catalog: store, st: st, queue: make(chan writeRequest, queued), minListings: minWriteListings, linger: writeLinger}
}

// send queues r for the writer. It blocks while the queue is full, so that memory stays
// bounded when the writer falls behind.
func (w *listingWriter) send(ctx context.Context, r writeRequest) error {
	select {
	case w.queue <- r:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// close tells the writer that nothing more will be sent; run returns once it has written
// everything queued.
func (w *listingWriter) close() { close(w.queue) }

// run writes what is queued until the queue is closed and empty. When the catalog can keep
// a database session (catalog.SessionStore), every write uses the same one, so that the
// database plans the write statement once per crawl rather than once per connection.
func (w *listingWriter) run(ctx context.Context) error {
	store, release, err := catalog.WriteSession(ctx, w.catalog)
	if err != nil {
		return fmt.Errorf("open a write session: %w", err)
	}
	defer release()
	for {
		var batch []writeRequest
		select {
		case r, ok := <-w.queue:
			if !ok {
				return nil
			}
			batch = append(batch, r)
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		open, err := w.take(ctx, &batch)
		if err != nil {
			return err
		}
		if err := w.write(ctx, store, batch); err != nil {
			return err
		}
		if !open {
			return nil
		}
	}
}

// writeThreshold is how many listings make a batch worth writing now. It is minListings
// until the collections are known to hold fewer than twice that still to be listed; from
// then on it is half of what they hold. Writes then shrink as listing nears its end, so
// that the last write, which the end of the crawl waits for, holds a few pages rather than
// up to minListings.
func (w *listingWriter) writeThreshold() int {
	left, known := w.backlog.remaining()
	if !known {
		return w.minListings
	}
	return min(w.minListings, max(left/2, 1))
}

// take adds what is queued to batch, up to maxWriteListings. While the batch holds fewer
// listings than writeThreshold, it waits up to the linger time for more. It reports
// whether the queue is still open.
func (w *listingWriter) take(ctx context.Context, batch *[]writeRequest) (open bool, err error) {
	n := len((*batch)[0].listings)
	var linger <-chan time.Time
	for n < maxWriteListings {
		var r writeRequest
		var ok bool
		if n >= w.writeThreshold() {
			// The batch is worth writing already: take only what is queued now.
			select {
			case r, ok = <-w.queue:
			default:
				return true, nil
			}
		} else {
			if linger == nil {
				t := time.NewTimer(w.linger)
				defer t.Stop()
				linger = t.C
			}
			select {
			case r, ok = <-w.queue:
			case <-linger:
				return true, nil
			case <-ctx.Done():
				return true, context.Cause(ctx)
			}
		}
		if !ok {
			return false, nil
		}
		*batch = append(*batch, r)
		n += len(r.listings)
	}
	return true, nil
}

// write saves a batch, then counts it in the progress. A collection is marked done only
// once every listing it held is in the catalog, so that a resumed crawl never skips one.
func (w *listingWriter) write(ctx context.Context, store catalog.Store, batch []writeRequest) error {
	var listings []catalog.ListingInput
	var served, finished []catalog.CollectionInput
	for _, r := range batch {
		listings = append(listings, r.listings...)
		if r.served != nil {
			served = append(served, *r.served)
		}
		if r.finishedCollection != "" {
			// Record how many products the collection really holds, now that they are
			// counted.
			finished = append(finished, catalog.CollectionInput{URL: r.finishedCollection, ProductsTotal: &r.finishedTotal})
		}
	}
	st := w.st
	fingerprints := make([]uint64, len(listings))
	for i := range listings {
		fingerprints[i] = fingerprint(st.seed, &listings[i])
		if fp, ok := st.written[listings[i].URL]; ok && fp == fingerprints[i] {
			listings[i].Unchanged = true
		}
	}
	now := time.Now()
	if len(served) > 0 {
		if err := store.UpsertCollections(ctx, st.vendor, served, now); err != nil {
			return fmt.Errorf("write %d collections: %w", len(served), err)
		}
	}
	if err := store.UpsertListings(ctx, st.vendor, listings, now); err != nil {
		return fmt.Errorf("write %d listings: %w", len(listings), err)
	}
	if len(finished) > 0 {
		if err := store.UpsertCollections(ctx, st.vendor, finished, now); err != nil {
			return fmt.Errorf("write collection totals: %w", err)
		}
	}
	st.mu.Lock()
	for i, in := range listings {
		fp, ok := st.written[in.URL]
		if !ok {
			st.progress.ListingsFound++
		}
		if !ok || fp != fingerprints[i] {
			// Store a copy of the URL as the key. An adapter's listing strings share the
			// memory of its whole answer, so keeping the original string for the rest of
			// the crawl would keep the whole page it came from. A listing met again
			// unchanged, as most are in a store of overlapping collections, is already
			// stored and is left alone.
			st.written[strings.Clone(in.URL)] = fingerprints[i]
		}
	}
	for _, c := range finished {
		st.progress.Done = append(st.progress.Done, c.URL)
	}
	st.mu.Unlock()
	st.publish()
	return nil
}

// fingerprint hashes everything a listing write stores except the listing's collections.
// It tells a listing met again unchanged from one whose price or pictures changed.
func fingerprint(seed maphash.Seed, l *catalog.ListingInput) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(l.Name)
	h.WriteByte(0)
	h.WriteString(l.PageURL)
	h.WriteByte(0)
	if p := l.Price; p != nil {
		h.WriteString(p.Currency)
		writeFloat(&h, p.Current)
		if p.CompareAt != nil {
			writeFloat(&h, *p.CompareAt)
		}
	}
	for _, img := range l.Images {
		h.WriteByte(1)
		h.WriteString(img.ID)
		h.WriteByte(0)
		h.WriteString(img.URL)
		h.WriteByte(0)
		writeInt(&h, img.Position)
		if img.Width != nil {
			writeInt(&h, *img.Width)
		}
		if img.Height != nil {
			writeInt(&h, *img.Height)
		}
		if img.Alt != nil {
			h.WriteString(*img.Alt)
		}
		h.WriteByte(0)
	}
	return h.Sum64()
}

func writeFloat(h *maphash.Hash, f float64) { writeUint(h, math.Float64bits(f)) }
func writeInt(h *maphash.Hash, i int)       { writeUint(h, uint64(i)) }

func writeUint(h *maphash.Hash, u uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], u)
	h.Write(b[:])
}
