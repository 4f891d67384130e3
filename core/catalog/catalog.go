// Package catalog is what the service knows about stores: vendors, their collections and
// the product listings in them. Crawls write it; the browse endpoints read it.
package catalog

import (
	"context"
	"encoding/json"
	"time"

	"github.com/stockroom/stockroom/core/page"
)

// Vendor is a store, identified by its hostname.
type Vendor struct {
	Host               string
	Platform           string
	ListingsCount      int
	CollectionsCount   int
	InAffiliateNetwork bool
	LastUpdated        time.Time
}

// Collection is a store page that lists products.
type Collection struct {
	ID            string
	Vendor        string
	URL           string
	Title         string
	ProductsTotal *int
	FirstSeen     time.Time
	LastUpdated   time.Time
}

// Image is a product picture as a listing shows it.
type Image struct {
	ID       string  `json:"id"`
	URL      string  `json:"url"`
	Width    *int    `json:"width"`
	Height   *int    `json:"height"`
	Position int     `json:"position"`
	Alt      *string `json:"alt_text,omitempty"`
}

// Price is a listing's displayed price.
type Price struct {
	Currency  string
	Current   float64
	CompareAt *float64
}

// Listing is a product as a collection page lists it.
type Listing struct {
	ID     string
	Vendor string
	URL    string
	// PageURL is ListingInput.PageURL as last written; empty when the same as URL.
	PageURL string
	Name    string
	// Images is a JSON array of Image, as stored. Listings are read far more often than
	// written and nothing looks inside their pictures on the way out, so pages of listings
	// pass it through instead of decoding and encoding every picture.
	Images      json.RawMessage
	Price       *Price
	FirstSeen   time.Time
	LastUpdated time.Time
}

// ListingQuery selects a vendor's listings, optionally only those of some collections.
type ListingQuery struct {
	Vendor         string
	CollectionURLs []string
	Page           page.Request
}

// CollectionInput is a collection as a crawl found it.
type CollectionInput struct {
	URL           string
	Title         string
	Handle        string
	ProductsTotal *int
}

// ListingInput is a listing as a crawl found it, with the collections it was found in.
type ListingInput struct {
	URL string
	// PageURL is the URL the site links the listing at, when it differs from URL (its
	// canonical form): the site's host (www.) and path (a trailing slash) as it writes them.
	PageURL        string
	Name           string
	Images         []Image
	Price          *Price
	CollectionURLs []string
	// Unchanged says the caller wrote this listing with these same fields moments ago (a
	// crawl meeting it again in another collection): only its collections are new, and
	// the stored listing is left as it is. Its other fields may go unread; a write of an
	// unchanged listing that is not in the catalog fails whole.
	Unchanged bool
	// Record is the whole product as the listing page gave it, when it did; nil
	// otherwise. A write keeps it in place of the listing's earlier record.
	Record *Record
}

// Record is a whole product as a listing page gave it (adapter.Listing.Record), kept with
// its listing so that an extraction builds the product from it without the product's page
// (adapter.Set.Assemble).
type Record struct {
	// Adapter names the adapter that listed it, the one that can read it.
	Adapter string
	// Data is the product in the adapter's own form, a JSON object.
	Data []byte
	// ListedAt is when the page was read: the time of the write that kept it.
	ListedAt time.Time
}

// Store keeps the catalog.
type Store interface {
	Vendors(ctx context.Context, req page.Request) ([]Vendor, int, error)
	// AllVendors lists every vendor, most listings first (the legacy endpoint is unpaginated).
	AllVendors(ctx context.Context) ([]Vendor, error)
	Collections(ctx context.Context, vendor string, req page.Request) ([]Collection, int, error)
	Listings(ctx context.Context, q ListingQuery) ([]Listing, int, error)

	// UpsertVendor records a vendor (and its platform when known) and returns nothing new
	// when it exists.
	UpsertVendor(ctx context.Context, host, platform string, at time.Time) error
	// UpsertCollections adds or refreshes collections by vendor and URL.
	UpsertCollections(ctx context.Context, vendor string, collections []CollectionInput, at time.Time) error
	// UpsertListings adds or refreshes listings by vendor and URL and links each to the
	// collections it names (which must exist).
	UpsertListings(ctx context.Context, vendor string, listings []ListingInput, at time.Time) error
}

// SessionStore is a Store that can keep a run of writes on one database session. Postgres
// caches per session what it learns of the tables a write touches, and the plan it made
// for it; a crawl's writes, handed any of a pool's sessions, each paid for those again on
// every session they landed on.
type SessionStore interface {
	Store
	// WriteSession returns the store with its writes on one session, for one goroutine
	// at a time, until release is called. Reads may still use any session.
	WriteSession(ctx context.Context) (s Store, release func(), err error)
}

// WriteSession returns s with its writes on one session when s is a SessionStore, and s
// itself otherwise.
func WriteSession(ctx context.Context, s Store) (Store, func(), error) {
	if ss, ok := s.(SessionStore); ok {
		return ss.WriteSession(ctx)
	}
	return s, func() {}, nil
}
