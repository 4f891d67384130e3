package sdk

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stockroom/stockroom/core/product"
)

// AdapterEnv is the environment variable in which the host names, to each instance of a
// module holding several adapters, the one it runs (ABI.md, "Loading").
const AdapterEnv = "STOCKROOM_ADAPTER"

// ABIMajor and ABIMinor are the ABI version this SDK speaks. The host refuses a guest
// whose major it does not know; minors only add.
const (
	ABIMajor = 1
	ABIMinor = 7
)

// Product and its parts are the host's product type: what Extract returns.
type (
	Product    = product.Product
	Price      = product.Price
	Image      = product.Image
	Option     = product.Option
	Variant    = product.Variant
	Breadcrumb = product.Breadcrumb
)

// Info describes an adapter. Capabilities are filled by the SDK from the interfaces the
// adapter implements.
type Info struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Platforms the adapter targets; leave empty for a generic adapter that applies to any
	// page (it then runs after the platform adapters and fills their gaps).
	Platforms []string `json:"platforms,omitempty"`
	// URLPatterns are path patterns of the platform's product pages ("/products/*"), and
	// CollectionPatterns those of its collection pages ("/collections/*"), as Go's
	// path.Match reads them. A crawl that reads a site's sitemaps uses them to tell the
	// two apart.
	URLPatterns        []string `json:"url_patterns,omitempty"`
	CollectionPatterns []string `json:"collection_patterns,omitempty"`
	Capabilities       []string `json:"capabilities"`
}

// Adapter is implemented by every adapter.
type Adapter interface {
	Info() Info
}

// Detector tells from a site's home page (Call.Page) and its headers whether the site runs
// the adapter's platform. Returning nil means "not mine".
type Detector interface {
	Detect(c *Call) (*Detection, error)
}

// Discoverer lists a site's collections; Call.URL is the home page.
type Discoverer interface {
	Discover(c *Call) ([]Collection, error)
}

// Lister lists one page of the products of the collection at Call.URL, starting at
// Call.Cursor ("" for the first page).
type Lister interface {
	List(c *Call) (Page, error)
}

// Extractor extracts the product of the page at Call.URL (Call.Page). When the page holds
// no product it returns an error made by NonProduct, Blocked or Fail.
type Extractor interface {
	Extract(c *Call) (*Product, error)
}

// Assembler builds a product from the record a listing page gave for it, without the
// product's own page: Call.Page is the record (a JSON document), Call.URL the product's
// URL. A Lister whose pages carry whole products puts each in its listing's "record"
// member (a Shape template's "record": "@this", spliced as the listings); the host keeps
// it with the listing and, when a vendor's catalog is extracted, asks Assemble instead of
// Extract. Documents it asks for (Call.Need) must be the same for every product of the
// store (its home page): the host fetches each once per extraction and hands it to every
// product. The product must be the one Extract gives from the product's page.
type Assembler interface {
	Assemble(c *Call) (*Product, error)
}

// Detection is a verdict on whether a site runs a platform.
type Detection struct {
	Platform string `json:"platform"`
	// Confidence is in [0, 1]; the host uses detections from 0.5.
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence,omitempty"`
}

// Collection is a group of products a store lists together.
type Collection struct {
	URL           string `json:"url"`
	Handle        string `json:"handle,omitempty"`
	Title         string `json:"title,omitempty"`
	ProductsCount *int   `json:"products_count,omitempty"`
	// Currency is the ISO 4217 code of the store's prices when its pages say (Discover
	// reads it once, usually from the home page); the host gives it to the collection's
	// listings whose price names none.
	Currency string `json:"currency,omitempty"`
}

// Listing is a product as a collection shows it.
type Listing struct {
	URL    string  `json:"url"`
	ID     string  `json:"id,omitempty"`
	Title  string  `json:"title,omitempty"`
	Price  *Price  `json:"price,omitempty"`
	Images []Image `json:"images,omitempty"`
	// Record is the whole product as the listing page gives it, a JSON object, for an
	// Assembler to build the product from later; nil when the page shows less. An adapter
	// that shapes its listings (Call.Splice) writes it as the listing's "record" member.
	Record json.RawMessage `json:"record,omitempty"`
}

// Page is one page of a collection's products; Next is the cursor of the following page,
// empty on the last.
type Page struct {
	Listings []Listing
	Next     string
	// Total is the products the whole collection holds as its page says ("Showing 1–24
	// of 720", or a page count times the page's size); 0 when it does not say. The host
	// lists the longest collections first, so that one is not left to page on alone at
	// the end of a crawl.
	Total int
	// Ahead are the cursors of later pages the adapter can name now (page numbers up to
	// Call.Total's last page; when the total is unknown, the next few): the host may list
	// them at once, in any order, rather than one after another. It goes on from the first
	// that ends the collection (no Next, no Ahead), asking for none past it that it has not
	// asked for yet, else from the last one's Ahead or Next. Next is still set, for hosts
	// that list one page after another.
	Ahead []string
}

// Outcome values, as the service reports them per URL.
const (
	OutcomeNonProductURL = "non_product_url"
	OutcomeBlocked       = "automated_access_not_permitted"
	OutcomeOther         = "other"
)

// OutcomeError is an extraction that ended without a product for a known reason.
type OutcomeError struct {
	Outcome string
	Message string
}

func (e *OutcomeError) Error() string { return e.Outcome + ": " + e.Message }

// NonProduct reports that the page is not a product page (a category, a search, a 404).
func NonProduct(format string, args ...any) error {
	return &OutcomeError{OutcomeNonProductURL, fmt.Sprintf(format, args...)}
}

// Blocked reports that a bot wall answered instead of the store.
func Blocked(format string, args ...any) error {
	return &OutcomeError{OutcomeBlocked, fmt.Sprintf(format, args...)}
}

// Fail reports an unexpected page state; the URL may succeed later.
func Fail(format string, args ...any) error {
	return &OutcomeError{OutcomeOther, fmt.Sprintf(format, args...)}
}

// ErrPending is returned by an operation that asked for documents with Call.Need and
// cannot answer before it has them. The host fetches them and calls again.
var ErrPending = errors.New("sdk: waiting for requested documents")

// capabilities lists the operations a implements.
func capabilities(a Adapter) []string {
	var caps []string
	if _, ok := a.(Detector); ok {
		caps = append(caps, "detect")
	}
	if _, ok := a.(Discoverer); ok {
		caps = append(caps, "discover")
	}
	if _, ok := a.(Lister); ok {
		caps = append(caps, "list")
	}
	if _, ok := a.(Extractor); ok {
		caps = append(caps, "extract")
	}
	if _, ok := a.(Assembler); ok {
		caps = append(caps, "assemble")
	}
	return caps
}
