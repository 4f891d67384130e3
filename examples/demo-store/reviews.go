package demostore

import (
	"encoding/json"
	"strconv"
	"time"
)

// Rating is what a product page of the JSON-LD store says about the product's reviews, as
// review apps put it in the page's Product JSON-LD (aggregateRating and review). Tests
// compare an extraction's reviews with it.
type Rating struct {
	// Average is on a scale of 5, with one decimal.
	Average float64
	// Count is the number of reviews the store has; the page lists only the first few.
	Count   int
	Reviews []Review
}

// Review is one review listed on a product page.
type Review struct {
	Title  string
	Author string
	// Date is YYYY-MM-DD.
	Date   string
	Body   string
	Rating int // 1 to 5
}

var (
	reviewTitles  = []string{"Exactly as described", "Great value", "Runs a little small", "Would buy again", "Solid quality", "Not bad"}
	reviewAuthors = []string{"Ana P.", "Ben K.", "Chloé R.", "Dev S.", "Emeka O.", "Freya L."}
	reviewBodies  = []string{
		"Arrived quickly and looks just like the photos.",
		"Good materials for the price; I have had it for a month now.",
		"Nice, but order one size up.",
		"My second one: still happy with it.",
	}
)

// RatingOf is product p's rating data, or nil. It is deterministic: products whose
// Index%3 is 2 have no reviews; 1 has an aggregate only; 0 an aggregate and up to three
// listed reviews. The Index%3 cycle runs across the four JSON-LD flavours, so every
// flavour shows every case.
func RatingOf(p Product) *Rating {
	if p.Index%3 == 2 {
		return nil
	}
	h := splitmix(uint64(p.ID))
	r := &Rating{Average: float64(30+h%21) / 10, Count: 3 + int(h>>8%240)}
	if p.Index%3 == 1 {
		return r
	}
	for k := range 1 + int(h>>16%3) {
		x := splitmix(h + uint64(k))
		r.Reviews = append(r.Reviews, Review{
			Title:  pick2(reviewTitles, x),
			Author: pick2(reviewAuthors, x>>8),
			Date:   epoch.Add(time.Duration(x>>16%400) * 24 * time.Hour).Format("2006-01-02"),
			Body:   pick2(reviewBodies, x>>24),
			Rating: 1 + int(x>>32%5),
		})
	}
	return r
}

func pick2[T any](xs []T, x uint64) T { return xs[x%uint64(len(xs))] }

// ldRating adds p's rating data to its Product (or ProductGroup) JSON-LD node, written
// the ways review apps write it: the average as a number or a string, reviewCount or
// ratingCount, with and without bestRating.
func ldRating(node map[string]any, p Product) {
	r := RatingOf(p)
	if r == nil {
		return
	}
	agg := map[string]any{"@type": "AggregateRating", "ratingValue": r.Average, "reviewCount": r.Count}
	if p.Index%2 == 1 {
		agg["ratingValue"] = strconv.FormatFloat(r.Average, 'f', 1, 64)
		agg["bestRating"] = "5"
		agg["worstRating"] = "1"
		delete(agg, "reviewCount")
		agg["ratingCount"] = strconv.Itoa(r.Count)
	}
	node["aggregateRating"] = agg
	if len(r.Reviews) == 0 {
		return
	}
	var reviews []any
	for _, rv := range r.Reviews {
		reviews = append(reviews, map[string]any{
			"@type": "Review", "name": rv.Title, "reviewBody": rv.Body, "datePublished": rv.Date,
			"author":       map[string]any{"@type": "Person", "name": rv.Author},
			"reviewRating": map[string]any{"@type": "Rating", "ratingValue": json.Number(strconv.Itoa(rv.Rating)), "bestRating": 5},
		})
	}
	node["review"] = reviews
}
