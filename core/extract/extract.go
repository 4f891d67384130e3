package extract

import (
	"context"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/product"
)

// Flags choose the optional parts of each product. The product's schema never changes with
// them: disabled parts are present and null.
type Flags struct {
	Enrichment      bool `json:"enable_enrichment"`
	Reviews         bool `json:"enable_reviews"`
	ImageTags       bool `json:"enable_image_tags"`
	SimilarProducts bool `json:"enable_similar_products"`
}

// Parameters are what an extraction was asked to do.
type Parameters struct {
	URLs        []string `json:"urls,omitempty"`
	Vendor      string   `json:"vendor,omitempty"`
	MaxProducts *int     `json:"max_products,omitempty"`
	CrawlID     string   `json:"crawl_id,omitempty"`
	CountryCode string   `json:"country_code,omitempty"`
	Flags
	// Webhook, when not nil, is told of the extraction's end. It is not kept with the
	// parameters.
	Webhook *execution.Webhook `json:"-"`
}

// Item is one input URL and what became of it.
type Item struct {
	Position int
	URL      string
	// Outcome is empty while the URL is pending.
	Outcome  adapter.Outcome
	Message  string
	Retry    bool
	FinalURL string
	// Product is set on success.
	Product *Stored
}

// Stored is a product as the catalog keeps it.
type Stored struct {
	ID        string
	Vendor    string
	UpdatedAt time.Time
	Product   *product.Product
	// Similar are the catalog's products nearest to this one, looked up when an
	// extraction asking for them is read; nil otherwise.
	Similar []Similar
}

// MaxSimilar is the most similar products given per product.
const MaxSimilar = 5

// Similar is a catalog product near another one. Similarity is in [0, 1]: 0.8 times the
// trigram similarity of the titles, plus 0.1 for the same product type and 0.1 for the
// same brand (case-insensitive).
type Similar struct {
	ID         string
	URL        string
	Title      *string
	Brand      *string
	Similarity float64
}

// Result is what extracting one distinct URL produced.
type Result struct {
	Outcome  adapter.Outcome
	Message  string
	FinalURL string
	// ProductID is set on success.
	ProductID string
}

// Store keeps extraction items and the products they produced.
type Store interface {
	// AddItems records the input URLs of an execution, in order, all pending.
	AddItems(ctx context.Context, executionID string, urls []string) error
	// SetResult records the result of a URL for every input position that holds it.
	SetResult(ctx context.Context, executionID, url string, r Result) error
	// Items returns a window of the items in input order, with their products.
	Items(ctx context.Context, executionID string, offset, limit int) ([]Item, error)
	// Tally counts the items per outcome; pending ones under "".
	Tally(ctx context.Context, executionID string) (map[adapter.Outcome]int, error)
	// PendingURLs lists the distinct URLs without an outcome, in input order: what a
	// resumed extraction still has to do.
	PendingURLs(ctx context.Context, executionID string) ([]string, error)
	// Products loads stored products by id.
	Products(ctx context.Context, ids []string) (map[string]*Stored, error)
	// ListingRecords returns the records kept with vendor's listings (catalog.Record) whose
	// URL, or the URL the site links them at, is among urls, keyed by that URL. Listings
	// without a record are left out.
	ListingRecords(ctx context.Context, vendor string, urls []string) (map[string]catalog.Record, error)
	// SaveProduct upserts a product by vendor and URL, links it to its listing when the
	// catalog has one, and returns its id.
	SaveProduct(ctx context.Context, vendor string, p *product.Product, at time.Time) (string, error)
	// Similar returns, for each of the products ids, at most limit other catalog products
	// whose titles are trigram-similar to its own, most similar first (see Similar for
	// the score). A product without a title, or without a near title, has none.
	Similar(ctx context.Context, ids []string, limit int) (map[string][]Similar, error)
}
