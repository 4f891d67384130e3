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
	// pagesQueuedPerLister is how far listers may run ahead of the writer. While the
	// writer writes, pages queue; the next write takes them all, so a deeper queue makes
	// fewer, larger writes (a write costs a few milliseconds whatever its size) instead of
	// holding listers back.
	pagesQueuedPerLister = 8
	// minWriteListings and writeLinger: a write costs about 2 ms of Postgres whatever its
	// size, 37 µs more per listing (fitted to a crawl's writes of 100 and of 1,700
	// listings). A store of small pages (24 products) is listed faster than each is
	// written, and its pages went out a few at a time; the writer now waits up to
	// writeLinger for minWriteListings to queue. A collection is marked done that much
	// later; nothing waits at the end, when the queue closes. At 50 ms, the demo HTML store
	// 20 ms away (24 products a page, four pages at a time) took 30 writes of ~230 listings;
	// at 250 ms, 15, which cost Postgres a fifth less and the server 6 % less. Progress is
	// still saved well within its 2 s.
	minWriteListings = 500
	writeLinger      = 250 * time.Millisecond
)

// listed is what a collection's lister hands the writer: a page of listings, or the end of
// a collection with the number of listings it held.
type listed struct {
	listings []catalog.ListingInput
	// complete, when set, is the collection whose pages were all queued before this.
	complete string
	total    int
}

// listingWriter is the one writer of a crawl's listings. Listers queue their pages and go
// on to the next one; the writer writes whatever has queued in one call. Listing never
// waits for the database, and the writes of a crawl never queue for the vendor's lock
// against each other, which they did when every lister wrote its own pages.
type listingWriter struct {
	catalog catalog.Store
	st      *crawlState
	queue   chan listed
	// minListings and linger are minWriteListings and writeLinger but in tests.
	minListings int
	linger      time.Duration
	// left is what the collections still hold, when the writer is told (see need).
	left *backlog
}

func newListingWriter(store catalog.Store, st *crawlState, queued int) *listingWriter {
	return &listingWriter{catalog: store, st: st, queue: make(chan listed, queued), minListings: minWriteListings, linger: writeLinger}
}

// send queues l; it blocks while the writer is behind, so memory stays bounded.
func (w *listingWriter) send(ctx context.Context, l listed) error {
	select {
	case w.queue <- l:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// close says nothing more will be sent; run returns once the queue is written.
func (w *listingWriter) close() { close(w.queue) }

// run writes the queue until it is closed and empty, all on one database session when the
// catalog can keep one (catalog.SessionStore): a crawl's writes are its largest, and the
// statement is planned once per session.
func (w *listingWriter) run(ctx context.Context) error {
	store, release, err := catalog.WriteSession(ctx, w.catalog)
	if err != nil {
		return fmt.Errorf("open a write session: %w", err)
	}
	defer release()
	for {
		var batch []listed
		select {
		case l, ok := <-w.queue:
			if !ok {
				return nil
			}
			batch = append(batch, l)
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

// need is how many listings make a batch worth writing now: minListings, or, once the
// collections are known to hold fewer than twice that still to list, half of what they
// hold. Writes then shrink as the listing nears its end, and the last, which the crawl's
// end waits for with nothing else left to do, holds a few pages rather than up to
// minListings: on the demo HTML store, it ended 1.2 to 2.6 ms after the last page instead
// of 3.4 to 8.5 (1.0 to 2.8 instead of 4.6 to 7.2 with the store 20 ms away).
func (w *listingWriter) need() int {
	left, known := w.left.remaining()
	if !known {
		return w.minListings
	}
	return min(w.minListings, max(left/2, 1))
}

// take adds to batch what is queued, up to maxWriteListings, waiting up to the linger for
// more while it holds fewer than need says, and reports whether the queue is still open.
func (w *listingWriter) take(ctx context.Context, batch *[]listed) (open bool, err error) {
	n := len((*batch)[0].listings)
	var linger <-chan time.Time
	for n < maxWriteListings {
		var l listed
		var ok bool
		if n >= w.need() {
			// Worth a write already: only what is queued.
			select {
			case l, ok = <-w.queue:
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
			case l, ok = <-w.queue:
			case <-linger:
				return true, nil
			case <-ctx.Done():
				return true, context.Cause(ctx)
			}
		}
		if !ok {
			return false, nil
		}
		*batch = append(*batch, l)
		n += len(l.listings)
	}
	return true, nil
}

// write saves a batch, then counts it in the progress: a collection is marked done only
// once every listing it held is in the catalog, so that a resumed crawl never skips one.
func (w *listingWriter) write(ctx context.Context, store catalog.Store, batch []listed) error {
	var listings []catalog.ListingInput
	var complete []catalog.CollectionInput
	for _, l := range batch {
		listings = append(listings, l.listings...)
		if l.complete != "" {
			// The products a collection really holds, now that they are counted.
			complete = append(complete, catalog.CollectionInput{URL: l.complete, ProductsTotal: &l.total})
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
	if err := store.UpsertListings(ctx, st.vendor, listings, now); err != nil {
		return fmt.Errorf("write %d listings: %w", len(listings), err)
	}
	if len(complete) > 0 {
		if err := store.UpsertCollections(ctx, st.vendor, complete, now); err != nil {
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
			// A copy for the key: an adapter's listing strings share the bytes of its
			// whole answer, and a map assignment stores its key anew, so a key kept for
			// the rest of the crawl kept the page it came from. A listing met again
			// unchanged (most of them, in a store of overlapping collections) is left
			// as it is.
			st.written[strings.Clone(in.URL)] = fingerprints[i]
		}
	}
	for _, c := range complete {
		st.progress.Done = append(st.progress.Done, c.URL)
	}
	st.mu.Unlock()
	st.publish()
	return nil
}

// fingerprint sums up what a listing write stores (its collections aside), to tell a
// listing met again unchanged from one whose price or pictures moved meanwhile.
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
