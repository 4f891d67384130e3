package sdk

import "unsafe"

// answerArena makes the strings, string lists and node lists of host answers as pieces
// of larger allocations (chunks). Each piece is written once and never again, so a string
// may share its chunk's bytes, and a list's capacity ends where the list does.
//
// An allocation is expensive in a WebAssembly guest, and a listing page asks the host for
// a few dozen strings and lists, so taking them from chunks saves the guest real work
// (adapters/sdk/RATIONALE.md has the figures). A piece keeps its whole chunk alive while it
// is held; an answer of more than a quarter of a chunk is allocated on its own. An arena
// is not safe for concurrent use, which is fine: a guest runs one call at a time.
type answerArena struct {
	bytes []byte   // what is left of the current bytes chunk
	lists []string // the current list chunk; its length is what was handed out
	nodes []Node   // the current node list chunk, likewise
}

const (
	answerBytesChunk = 8 << 10
	answerListChunk  = 512 // strings or nodes
)

// string is b as a string of its own.
func (a *answerArena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > len(a.bytes) {
		if len(b) > answerBytesChunk/4 {
			return string(b)
		}
		a.bytes = make([]byte, answerBytesChunk)
	}
	n := copy(a.bytes, b)
	s := unsafe.String(&a.bytes[0], n)
	a.bytes = a.bytes[n:]
	return s
}

// list is a new list of n empty strings, its capacity n.
func (a *answerArena) list(n int) []string { return piece(&a.lists, n) }

// nodeList is a new list of n zero Nodes, its capacity n.
func (a *answerArena) nodeList(n int) []Node { return piece(&a.nodes, n) }

// piece cuts a list of n zero values from the chunk *chunk, or from a new one.
func piece[T any](chunk *[]T, n int) []T {
	if n > cap(*chunk)-len(*chunk) {
		if n > answerListChunk/4 {
			return make([]T, n)
		}
		*chunk = make([]T, 0, answerListChunk)
	}
	at := len(*chunk)
	*chunk = (*chunk)[:at+n]
	return (*chunk)[at : at+n : at+n]
}
