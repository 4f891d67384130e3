package crawl

import "testing"

// The backlog sums what the collections of known size still hold, says it knows nothing
// while one of unknown size is open, and forgets a collection once it is done, whatever
// it held then.
func TestBacklogCountsWhatTheOpenCollectionsStillHold(t *testing.T) {
	b := newBacklog()
	check := func(step string, wantLeft int, wantKnown bool) {
		t.Helper()
		if left, known := b.remaining(); left != wantLeft || known != wantKnown {
			t.Errorf("%s: remaining() = %d, %v; want %d, %v", step, left, known, wantLeft, wantKnown)
		}
	}
	check("empty", 0, true)
	b.set("shoes", 100, 0)
	b.set("hats", 0, 0)
	check("a size unknown", 100, false)
	b.set("hats", 48, 24) // its first page stated the size
	check("both known", 124, true)
	b.set("shoes", 100, 24)
	b.set("shoes", 100, 48)
	check("pages found", 76, true)
	b.set("shoes", 100, 130) // more than the store said: nothing left, not less
	check("more than stated", 24, true)
	b.done("hats") // with 24 still expected: the store's count was too high
	check("done short", 0, true)
	b.done("hats")
	check("done twice", 0, true)
	b.set("bags", 0, 10)
	b.done("bags")
	check("unknown done", 0, true)

	var none *backlog
	none.set("shoes", 100, 0)
	none.done("shoes")
	if _, known := none.remaining(); known {
		t.Error("a nil backlog says it knows what is left")
	}
}
