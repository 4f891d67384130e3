package evaluation

import (
	"fmt"

	"github.com/stockroom/stockroom/core/search"
)

// BenchRequests are what the search benchmarks ask, request i after request i-1: the
// labelled set's queries in turn, most of them with modifiers a client could add (a price
// ceiling, "in stock", a colour refused, a colour and value profile), chosen and valued
// from the request's number, so that most requests are unlike any other and no cache of
// whole answers could carry the figures. About a quarter are asked as labelled.
type BenchRequests struct{ cases []Case }

// NewBenchRequests reads the labelled set.
func NewBenchRequests() (*BenchRequests, error) {
	cases, err := Cases()
	if err != nil {
		return nil, err
	}
	return &BenchRequests{cases: cases}, nil
}

var benchColors = []string{"black", "navy", "green", "grey", "red", "white", "brown", "blue"}

// Request returns request i.
func (r *BenchRequests) Request(i int) search.Request {
	c := r.cases[i%len(r.cases)]
	req := search.Request{Query: c.Query, Profile: c.Profile}
	// A multiplicative hash spreads the modifiers over the rounds of the set.
	h := uint32(i) * 2654435761
	if h%3 == 0 { // a third: a ceiling from $30 to $220
		req.Query += fmt.Sprintf(" under $%d", 30+10*(h>>8%20))
	}
	if h>>4%4 == 0 {
		req.Query += " in stock"
	}
	if h>>6%4 == 0 {
		req.Query += " not " + benchColors[h>>12%uint32(len(benchColors))]
	}
	if h>>10%4 == 0 && req.Profile == nil {
		req.Profile = map[string]any{
			"style":             map[string]any{"color": benchColors[h>>16%uint32(len(benchColors))]},
			"purchase_behavior": map[string]any{"value": []string{"budget", "premium"}[h>>20%2]},
		}
	}
	return req
}
