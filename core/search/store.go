package search

import (
	"context"
	"time"

	"github.com/stockroom/stockroom/core/catalog"
)

// Store is what search needs from storage. storage/postgres implements it.
type Store interface {
	// Candidates returns up to q.Limit products that pass q's hard filters, best text
	// match first. With an empty Match it returns the most recently updated products.
	// With q.Listings it returns listings instead (CandidateQuery.Listings).
	Candidates(ctx context.Context, q CandidateQuery) ([]Candidate, error)
	// Listed reads the listings of ids as a search serves them: each listing, with the id
	// of the product an extraction has saved for it since, if any. Unknown ids are left out.
	Listed(ctx context.Context, ids []string) (map[string]Listed, error)
	// Vocabulary describes the catalog's words, brands and product types.
	Vocabulary(ctx context.Context) (Vocabulary, error)
	// SaveHits replaces the hits of a search execution.
	SaveHits(ctx context.Context, executionID string, hits []StoredHit) error
	// Hits returns a window of an execution's hits, best first, and how many it has.
	Hits(ctx context.Context, executionID string, offset, limit int) ([]StoredHit, int, error)
}

// CandidateQuery is one retrieval. Text fields are web-search syntax for
// websearch_to_tsquery('english', ...): words, "quoted phrases" and OR.
type CandidateQuery struct {
	// Listings retrieves crawled listings that no extraction has replaced (no product
	// links to the listing or has its URL) instead of products, matched by their name and
	// the titles of their collections; Fuzzy does not apply, and with an empty Match only
	// a Vendor's listings are returned, most recently found first. A listing shows no
	// availability, labels, description or variant prices, so it can meet no hard filter
	// but Vendor (its host): with any other filter set, no listing is returned.
	Listings bool
	// Match selects products (empty: no text condition).
	Match string
	// Rank orders them (ts_rank with field weights); empty ranks by Match.
	Rank string
	// Similar scores the returned products by trigram word similarity of their titles
	// (Candidate.Similarity); it selects nothing.
	Similar string
	// Fuzzy also selects products whose title is close to it by trigram word similarity,
	// for words the text search does not know. It costs far more than a text match: ask
	// it only when the text match finds too little. It implies Similar.
	Fuzzy string
	// Window bounds how many of the products matching Match ts_rank orders (0: all).
	// Products that carry Match in their title or labels (weights A and B) fill it
	// first, then those that carry it only in their description, so that a broad word
	// matching thousands of products costs no more than a narrow one.
	Window int
	// Exclude drops products whose document matches it (negations, avoid list).
	Exclude string
	// NotIDs are skipped (already retrieved).
	NotIDs []string

	MinPrice, MaxPrice *float64
	InStock            bool
	Vendor             string // host, exact
	Brand              string // lower case, exact
	ProductType        string // lower case, exact
	Tags               []string
	Limit              int
}

// Candidate is a product or a listing as retrieval returns it: the fields ranking reads.
type Candidate struct {
	ID string
	// Listing says the candidate is a crawled listing, ID the listing's id: only its
	// name (Title), vendor, URL, price (MinPrice and MaxPrice, both its one listed price)
	// and Collections are known.
	Listing bool
	// Collections are the titles of the collections a listing is in.
	Collections []string
	Vendor      string // host
	URL         string
	Title       string
	Brand       string
	ProductType string
	Description string
	Tags        []string
	Options     []string // option values (sizes, colors)
	MinPrice    *float64
	MaxPrice    *float64
	Available   bool
	// TextRank is ts_rank of the Rank query; Similarity the trigram word similarity.
	TextRank   float64
	Similarity float64
	UpdatedAt  time.Time
}

// StoredHit is a hit as an execution keeps it: a product or a listing, exactly one of the
// two ids set.
type StoredHit struct {
	ProductID string   `json:"product_id,omitempty"`
	ListingID string   `json:"listing_id,omitempty"`
	Score     float64  `json:"score"`
	Reasons   []string `json:"reasons"`
}

// ID is the id of the product or the listing the hit is.
func (h StoredHit) ID() string {
	if h.ListingID != "" {
		return h.ListingID
	}
	return h.ProductID
}

// Listed is a listing as a search reads it back.
type Listed struct {
	Listing catalog.Listing
	// ProductID is the product an extraction has saved for the listing since the search,
	// if any: it is served in the listing's place.
	ProductID string
}
