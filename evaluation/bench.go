package evaluation

import (
	"fmt"

	"github.com/stockroom/stockroom/core/search"
)

// BenchRequests are what the search benchmarks ask, request i after request i-1: the
// labelled set's queries in turn, each round in another variant (as labelled, under a
// price ceiling that changes from round to round, in stock, with a colour and value
// profile, without a colour), so that few requests repeat one another exactly and no
// cache of whole answers could carry the figures.
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
	round := i / len(r.cases)
	color := benchColors[(i+round)%len(benchColors)]
	req := search.Request{Query: c.Query, Profile: c.Profile}
	switch round % 5 {
	case 1:
		req.Query += fmt.Sprintf(" under $%d", 30+5*(round/5%40))
	case 2:
		req.Query += " in stock"
	case 3:
		if req.Profile == nil {
			value := []string{"budget", "premium"}[round/5%2]
			req.Profile = map[string]any{"style": map[string]any{"color": color}, "purchase_behavior": map[string]any{"value": value}}
		}
	case 4:
		req.Query += " not " + color
	}
	return req
}
