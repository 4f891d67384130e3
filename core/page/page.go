// Package page holds what every paged list shares: a request for one page, numbered from
// 1, and a page of results with where it stands in the whole list. The sizes each API
// generation allows are the server's rules.
package page

// Request is a validated page request.
type Request struct {
	Number int // 1-based
	Size   int
}

// Offset is the number of items before this page.
func (r Request) Offset() int { return (r.Number - 1) * r.Size }

// Result is one page of items and where it stands in the whole list.
type Result[T any] struct {
	Items []T
	Request
	TotalItems int
}

// TotalPages counts the pages of the whole list; an empty list has none.
func (r Result[T]) TotalPages() int {
	if r.Size <= 0 {
		return 0
	}
	return (r.TotalItems + r.Size - 1) / r.Size
}

// HasNext reports whether a page follows this one.
func (r Result[T]) HasNext() bool { return r.Number < r.TotalPages() }

// HasPrev reports whether a page precedes this one.
func (r Result[T]) HasPrev() bool { return r.Number > 1 }
