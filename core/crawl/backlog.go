package crawl

import "sync"

// backlog counts the listings a crawl's collections still hold, as far as the store says.
// For each collection not yet listed to its end, it takes the size the store states and
// subtracts the listings found so far, and it sums the results.
//
// The writer reads it to make its batches smaller as listing nears its end (see
// listingWriter.writeThreshold), because the end of the crawl waits for the last write.
type backlog struct {
	mu   sync.Mutex
	open map[string]backlogEntry // by collection key
	// left is the sum of the listings left in the open collections of known size, and
	// unknown is the number of open collections whose size the store does not state.
	left, unknown int
}

// backlogEntry is a collection's size as the store states it (0 when it does not), and the
// number of listings found in it so far.
type backlogEntry struct{ size, found int }

func (e backlogEntry) left() int { return max(e.size-e.found, 0) }

func newBacklog() *backlog { return &backlog{open: map[string]backlogEntry{}} }

// set records a collection's size and the listings found in it so far. A nil backlog
// records nothing.
func (b *backlog) set(collection string, size, found int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drop(collection)
	e := backlogEntry{size: size, found: found}
	b.open[collection] = e
	if size == 0 {
		b.unknown++
	} else {
		b.left += e.left()
	}
}

// done removes a collection that is listed to its end, or that will not be listed
// further.
func (b *backlog) done(collection string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drop(collection)
}

// drop removes a collection's entry and its share of the sums. The caller holds b.mu.
func (b *backlog) drop(collection string) {
	e, ok := b.open[collection]
	if !ok {
		return
	}
	delete(b.open, collection)
	if e.size == 0 {
		b.unknown--
	} else {
		b.left -= e.left()
	}
}

// remaining returns the number of listings left to list, and whether that number is
// complete: it is not while a collection of unknown size is still open. A nil backlog
// knows nothing.
func (b *backlog) remaining() (listings int, known bool) {
	if b == nil {
		return 0, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.left, b.unknown == 0
}
