package search

import (
	"context"
	"time"
)

// Store is what search needs from storage. storage/postgres implements it.
type Store interface {
	// Candidates returns up to q.Limit products that pass q's hard filters, best text
	// match first. With an empty Match it returns the most recently updated products.
	Candidates(ctx context.Context, q CandidateQuery) ([]Candidate, error)
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

// Candidate is a product as retrieval returns it: the fields ranking reads.
type Candidate struct {
	ID          string
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

// StoredHit is a hit as an execution keeps it.
type StoredHit struct {
	ProductID string   `json:"product_id"`
	Score     float64  `json:"score"`
	Reasons   []string `json:"reasons"`
}
