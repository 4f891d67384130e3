// Package adapter defines what the crawl and extract engines ask of store-platform
// adapters, and the Set that runs them: follow-up fetch rounds, adapter order and the merge
// of their answers into one product.
//
// An adapter is pure: it turns documents into results and into requests for more
// documents. The host owns every fetch. core/ never sees how an adapter runs (WebAssembly
// in plugins/, or native Go for debugging); it sees a Module.
package adapter

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/stockroom/stockroom/core/product"
)

// Outcome is the per-URL result of a product extraction, as the interface names it.
type Outcome string

const (
	Success       Outcome = "success"
	NonProductURL Outcome = "non_product_url"
	MalformedURL  Outcome = "malformed_url"
	// AutomatedAccessNotPermitted means a bot wall answered instead of the store.
	AutomatedAccessNotPermitted Outcome = "automated_access_not_permitted"
	Other                       Outcome = "other"
)

// Retry reports whether a URL that ended with o is worth resubmitting.
func (o Outcome) Retry() bool { return o == AutomatedAccessNotPermitted || o == Other }

// Op names an adapter operation.
type Op string

const (
	OpDetect   Op = "detect"
	OpDiscover Op = "discover"
	OpList     Op = "list"
	OpExtract  Op = "extract"
	// OpAssemble builds a product from the record a listing page gave for it (see
	// Listing.Record), without the product's own page.
	OpAssemble Op = "assemble"
)

// Info is how an adapter describes itself.
type Info struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Platforms the adapter targets ("shopify"); empty for generic adapters (jsonld, html)
	// that apply to any page.
	Platforms []string `json:"platforms,omitempty"`
	// URLPatterns are path patterns of product pages on the platform ("/products/*"), and
	// CollectionPatterns those of its collection pages ("/collections/*"), as path.Match
	// reads them. A crawl that reads the site's sitemaps tells product and collection
	// pages apart by them, before its own rules.
	URLPatterns        []string `json:"url_patterns,omitempty"`
	CollectionPatterns []string `json:"collection_patterns,omitempty"`
	// Capabilities lists the operations the adapter implements.
	Capabilities []Op `json:"capabilities"`
}

// Can reports whether the adapter implements op.
func (i Info) Can(op Op) bool {
	for _, c := range i.Capabilities {
		if c == op {
			return true
		}
	}
	return false
}

// Generic reports whether the adapter targets no particular platform.
func (i Info) Generic() bool { return len(i.Platforms) == 0 }

// Document is one fetched response, handed to adapters as is.
type Document struct {
	// URL is the URL that was requested; FinalURL the one answered after redirects
	// (empty when the same).
	URL      string
	FinalURL string
	// Status is the HTTP status; 0 when the fetch failed, with Err saying why (the URL
	// included).
	Status int
	Header http.Header
	Body   []byte
	Err    string
	// Blocked marks an answer that is a protection service's challenge or block page (a
	// bot wall), not the site's: Status is then 403 and Err names the service.
	Blocked bool
	// Disallowed marks a page robots.txt keeps crawlers from, never fetched: Status is 0.
	Disallowed bool
	// Rendered marks a page drawn by a browser (Renderer): Body is the page as its
	// scripts left it.
	Rendered bool

	// memo keeps what a host derived from Body (the parsed HTML tree, the JSON-LD blocks),
	// so a page is parsed once however many adapters and rounds read it. Body must not
	// change once a Document has been handed to an adapter.
	memo     sync.Once
	memoized any
}

// Landed is the URL whose page d is: the one answered after redirects, else the one
// requested. Adapters read a page at this URL.
func (d *Document) Landed() string {
	if d.FinalURL != "" {
		return d.FinalURL
	}
	return d.URL
}

// Memo returns the value build derives from d, building it on the first call only. The
// first caller's build wins; hosts use one build function per Document type they cache.
func (d *Document) Memo(build func(*Document) any) any {
	d.memo.Do(func() { d.memoized = build(d) })
	return d.memoized
}

// Request is one round of one adapter operation.
type Request struct {
	Op Op
	// URL is the site's home page (detect, discover), the collection (list) or the product
	// page (extract).
	URL string
	// Cursor is the paging position returned by the previous list call, empty at first.
	Cursor string
	// Total is the products the listed collection holds as far as the host knows (the
	// store's count at discovery, or what a page stated); 0 when unknown.
	Total int
	// Round counts the calls of this operation so far, from 0.
	Round int
	// Docs are every document fetched for this operation so far, the page first. In an
	// assemble call the first is the listing's record, as a JSON document.
	Docs []*Document
}

// Response is an adapter's answer to one round.
type Response struct {
	// Fetch lists the URLs the adapter needs before it can answer; the host fetches them
	// and calls again with the documents added, within its round and count limits.
	Fetch []string `json:"fetch,omitempty"`

	Detection   *Detection       `json:"detection,omitempty"`
	Collections []Collection     `json:"collections,omitempty"`
	Listings    []Listing        `json:"listings,omitempty"`
	Next        string           `json:"next,omitempty"`
	Total       int              `json:"total,omitempty"` // the listed collection's products as its page says; 0: unknown
	Ahead       []string         `json:"ahead,omitempty"` // cursors of later pages named now, to list at once
	Product     *product.Product `json:"product,omitempty"`
	// Outcome says why there is no product; empty means success when Product is set.
	Outcome Outcome `json:"outcome,omitempty"`
	Message string  `json:"message,omitempty"`
}

// Detection is an adapter's verdict on whether a site runs its platform.
type Detection struct {
	Platform string `json:"platform"`
	// Confidence is in [0, 1].
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence,omitempty"`
}

// Collection is a group of products a store lists together.
type Collection struct {
	URL    string `json:"url"`
	Handle string `json:"handle,omitempty"`
	Title  string `json:"title,omitempty"`
	// ProductsCount is the number of products when the store says, else nil.
	ProductsCount *int `json:"products_count,omitempty"`
	// Currency is the ISO 4217 code of the prices the collection lists, when the store
	// says (its one currency, read once at discovery); "" when unknown. A listing whose
	// price names no currency is in this one.
	Currency string `json:"currency,omitempty"`
}

// Listing is a product as a collection page shows it.
type Listing struct {
	URL    string          `json:"url"`
	ID     string          `json:"id,omitempty"`
	Title  string          `json:"title,omitempty"`
	Price  *product.Price  `json:"price,omitempty"`
	Images []product.Image `json:"images,omitempty"`
	// Record is the whole product as the listing page gave it, in the adapter's own form
	// (a JSON object), when the page carries every product field: the adapter's assemble
	// operation builds the product from it later, without the product's page. Nil when
	// the page shows less.
	Record json.RawMessage `json:"record,omitempty"`
}

// Module is one loaded adapter. Call runs a single round and must be safe for concurrent
// use; an error means the adapter failed (trap, timeout, bad output), not that the page
// held no product.
type Module interface {
	Info() Info
	Call(ctx context.Context, req *Request) (*Response, error)
}

// Source yields the adapters currently loaded, highest priority first. It is consulted on
// every operation so that adapters added or dropped at run time take effect at once.
type Source interface {
	Modules() []Module
}

// Fetcher fetches the follow-up documents adapters ask for. It returns a Document with
// Status 0 and Err set, not an error, when the remote end failed; an error aborts the
// operation (the context was cancelled). It must be safe for concurrent use: the
// documents of one round are fetched at once.
type Fetcher interface {
	Fetch(ctx context.Context, url string) (*Document, error)
}

// FetcherFunc adapts a function to Fetcher.
type FetcherFunc func(ctx context.Context, url string) (*Document, error)

func (f FetcherFunc) Fetch(ctx context.Context, url string) (*Document, error) { return f(ctx, url) }
