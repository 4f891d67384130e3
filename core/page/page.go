// Package page holds the pagination rule every list endpoint shares: 1-based pages, a
// default and a maximum page size, and out-of-range values refused (not clamped) with an
// error that names the parameter.
package page

import "github.com/stockroom/stockroom/core/failure"

// Bounds are one endpoint's page size rules. Names are the parameters as the client sent
// them, so that an error names what the client wrote (page_size in v2, limit in v1 products).
type Bounds struct {
	DefaultSize int
	MaxSize     int
	PageParam   string // default "page"
	SizeParam   string // default "page_size"
}

// Request is a validated page request.
type Request struct {
	Number int // 1-based
	Size   int
}

// Offset is the number of items before this page.
func (r Request) Offset() int { return (r.Number - 1) * r.Size }

// Resolve applies defaults to absent values (nil) and refuses values out of range.
func (b Bounds) Resolve(number, size *int) (Request, error) {
	pageParam, sizeParam := b.PageParam, b.SizeParam
	if pageParam == "" {
		pageParam = "page"
	}
	if sizeParam == "" {
		sizeParam = "page_size"
	}
	r := Request{Number: 1, Size: b.DefaultSize}
	if number != nil {
		if *number < 1 {
			return Request{}, failure.OutOfRange(pageParam, "must be at least 1, got %d", *number)
		}
		r.Number = *number
	}
	if size != nil {
		if *size < 1 || *size > b.MaxSize {
			return Request{}, failure.OutOfRange(sizeParam, "must be between 1 and %d, got %d", b.MaxSize, *size)
		}
		r.Size = *size
	}
	// Offsets past this would overflow an int32 OFFSET in SQL long before any real catalog.
	if int64(r.Number-1)*int64(r.Size) > 1<<31-1 {
		return Request{}, failure.OutOfRange(pageParam, "is too large")
	}
	return r, nil
}

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
