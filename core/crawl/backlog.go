package crawl

import "sync"

// backlog is what the collections of a crawl still hold to be listed, as far as the store
// says: the listings each one's size leaves beyond those found so far, summed over the
// collections not yet listed to their end. The writer reads it to make its batches smaller
// as the listing nears its end (see listingWriter.need): the last write is the one the
// crawl's end waits for, with nothing else left to do.
type backlog struct {
	mu   sync.Mutex
	open map[string]backlogEntry // by collection key
	// left and unknown sum up open: the listings left in the collections of known size,
	// and how many are of unknown size.
	left, unknown int
}

// backlogEntry is a collection's size as the store says (0: unknown) and the listings
// found in it so far.
type backlogEntry struct{ size, found int }

func (e backlogEntry) left() int { return max(e.size-e.found, 0) }

func newBacklog() *backlog { return &backlog{open: map[string]backlogEntry{}} }

// set records what is known of collection's size and listings found so far; a nil backlog
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

// done removes a collection that is listed to its end, or will not be listed further.
func (b *backlog) done(collection string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drop(collection)
}

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

// remaining returns the listings left to list, and whether that is all of them: false
// while a collection of unknown size is open. A nil backlog knows nothing.
func (b *backlog) remaining() (listings int, known bool) {
	if b == nil {
		return 0, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.left, b.unknown == 0
}
