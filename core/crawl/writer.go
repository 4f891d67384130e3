package crawl

import (
	"context"
	"fmt"
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
}

func newListingWriter(store catalog.Store, st *crawlState, backlog int) *listingWriter {
	return &listingWriter{catalog: store, st: st, queue: make(chan listed, backlog)}
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

// run writes the queue until it is closed and empty.
func (w *listingWriter) run(ctx context.Context) error {
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
		open := w.take(&batch)
		if err := w.write(ctx, batch); err != nil {
			return err
		}
		if !open {
			return nil
		}
	}
}

// take adds to batch what is already queued, up to maxWriteListings, and reports whether
// the queue is still open.
func (w *listingWriter) take(batch *[]listed) bool {
	n := len((*batch)[0].listings)
	for n < maxWriteListings {
		select {
		case l, ok := <-w.queue:
			if !ok {
				return false
			}
			*batch = append(*batch, l)
			n += len(l.listings)
		default:
			return true
		}
	}
	return true
}

// write saves a batch, then counts it in the progress: a collection is marked done only
// once every listing it held is in the catalog, so that a resumed crawl never skips one.
func (w *listingWriter) write(ctx context.Context, batch []listed) error {
	var listings []catalog.ListingInput
	var complete []catalog.CollectionInput
	for _, l := range batch {
		listings = append(listings, l.listings...)
		if l.complete != "" {
			// The products a collection really holds, now that they are counted.
			complete = append(complete, catalog.CollectionInput{URL: l.complete, ProductsTotal: &l.total})
		}
	}
	now := time.Now()
	if err := w.catalog.UpsertListings(ctx, w.st.vendor, listings, now); err != nil {
		return fmt.Errorf("write %d listings: %w", len(listings), err)
	}
	if len(complete) > 0 {
		if err := w.catalog.UpsertCollections(ctx, w.st.vendor, complete, now); err != nil {
			return fmt.Errorf("write collection totals: %w", err)
		}
	}
	st := w.st
	st.mu.Lock()
	for _, in := range listings {
		if !st.seen[in.URL] {
			st.seen[in.URL] = true
			st.progress.ListingsFound++
		}
	}
	for _, c := range complete {
		st.progress.Done = append(st.progress.Done, c.URL)
	}
	st.mu.Unlock()
	st.publish()
	return nil
}
