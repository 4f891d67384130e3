package server

import (
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
)

// pageBounds are one endpoint's page size rules, as its API generation fixes them. Pages
// are numbered from 1; values out of range are refused, not clamped, with an error that
// names the parameter as the client wrote it.
type pageBounds struct {
	DefaultSize int
	MaxSize     int
	// SizeParam names the size parameter: page_size (the default), or limit in v1 and the
	// legacy endpoints.
	SizeParam string
}

// Page rules of the lists, per API generation.
var (
	vendorsPage   = pageBounds{DefaultSize: 20, MaxSize: 100}
	collectionsV1 = pageBounds{DefaultSize: 10, MaxSize: 100}
	collectionsV2 = pageBounds{DefaultSize: 20, MaxSize: 100}
	listingsV1    = pageBounds{DefaultSize: 10, MaxSize: 100}
	listingsV2    = pageBounds{DefaultSize: 20, MaxSize: 100}
	usagePage     = pageBounds{DefaultSize: 20, MaxSize: 100}

	// The execution lists' size rules (v1 `limit`, v2 `page_size`).
	executionListV1 = pageBounds{DefaultSize: 20, MaxSize: 100, SizeParam: "limit"}
	executionListV2 = pageBounds{DefaultSize: 20, MaxSize: 100}

	// An extraction's results.
	resultsV1 = pageBounds{DefaultSize: 50, MaxSize: 100, SizeParam: "limit"}
	resultsV2 = pageBounds{DefaultSize: 50, MaxSize: 100}

	// searchResultsV2 pages a completed search execution's hits.
	searchResultsV2 = pageBounds{DefaultSize: 50, MaxSize: 100}
	// legacySearchPage pages /api/search, whose size parameter is `limit`.
	legacySearchPage = pageBounds{DefaultSize: 20, MaxSize: 100, SizeParam: "limit"}
)

// maxPage is the highest page number any list accepts. Every page up to it, at any page
// size the lists allow (at most 100), starts at an offset a 32-bit integer holds, so no database or list arithmetic
// overflows on a client's page number; and no catalog list is that long.
const maxPage = 10_000_000

func (b pageBounds) sizeParam() string {
	if b.SizeParam == "" {
		return "page_size"
	}
	return b.SizeParam
}

// pageOf reads the page parameters and applies bounds.
func pageOf(p params, bounds pageBounds) (page.Request, error) {
	number, err := p.Int("page")
	if err != nil {
		return page.Request{}, err
	}
	size, err := p.Int(bounds.sizeParam())
	if err != nil {
		return page.Request{}, err
	}
	return bounds.resolve(number, size)
}

// resolve applies defaults to absent values (nil) and refuses values out of range.
func (b pageBounds) resolve(number, size *int) (page.Request, error) {
	r := page.Request{Number: 1, Size: b.DefaultSize}
	if number != nil {
		if *number < 1 || *number > maxPage {
			return page.Request{}, failure.OutOfRange("page", "must be between 1 and %d, got %d", maxPage, *number)
		}
		r.Number = *number
	}
	if size != nil {
		if *size < 1 || *size > b.MaxSize {
			return page.Request{}, failure.OutOfRange(b.sizeParam(), "must be between 1 and %d, got %d", b.MaxSize, *size)
		}
		r.Size = *size
	}
	return r, nil
}
