package demostore

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Money is an amount in minor units (cents). Storefront JSON writes it as a decimal string
// ("49.99"), the .js endpoint as the integer itself.
type Money int64

// String formats m with two decimals and a dot: 4999 -> "49.99".
func (m Money) String() string {
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	return fmt.Sprintf("%s%d.%02d", sign, m/100, m%100)
}

// ParseMoney reads a decimal amount such as "49.99", "49.9" or "49". It is exact: no
// floating point is involved.
func ParseMoney(s string) (Money, error) {
	s = strings.TrimSpace(s)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 {
		return 0, fmt.Errorf("parse money %q: want digits with at most two decimals", s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w < 0 {
		return 0, fmt.Errorf("parse money %q: want a non-negative amount", s)
	}
	for len(frac) < 2 {
		frac += "0"
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parse money %q: %w", s, err)
	}
	return Money(w*100 + f), nil
}

// Product is one catalogue entry in Shopify's own terms; every store kind renders it.
type Product struct {
	Index       int // position in the catalogue, 0-based
	ID          int64
	Handle      string
	Title       string
	BodyHTML    string
	Vendor      string
	ProductType string
	Tags        []string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	PublishedAt time.Time
	Options     []Option
	Variants    []Variant
	Images      []Image
	// Category is the handle of the product's primary collection, the one breadcrumbs
	// show; "" when it has none.
	Category string
}

// Option is a product option such as Size or Color with its values in display order.
type Option struct {
	Name   string
	Values []string
}

// Variant is one purchasable combination of option values.
type Variant struct {
	ID             int64
	Title          string   // "M / Navy", or "Default Title" for a product without options
	OptionValues   []string // option1..option3, one per product option
	SKU            string
	Price          Money
	CompareAtPrice Money // 0 when the variant is not on sale
	Available      bool
	Grams          int
	ImageID        int64 // the variant's image, 0 for none

	// compareAtZero records a compare_at_price of "0.00" (not null) in a loaded
	// catalogue, so it is served back as the store sent it.
	compareAtZero bool
}

// compareAt is compare_at_price as storefront JSON writes it: null or a decimal string.
func (v Variant) compareAt() *string {
	if v.CompareAtPrice == 0 && !v.compareAtZero {
		return nil
	}
	s := v.CompareAtPrice.String()
	return &s
}

// Image is a product image; VariantIDs are the variants it illustrates.
type Image struct {
	ID         int64
	Position   int // 1-based
	Src        string
	Width      int
	Height     int
	Alt        string
	VariantIDs []int64
}

// LeadVariant is the variant a product page shows first: the first available one, or the
// first one when all are sold out. Its price is the price the HTML and JSON-LD stores
// display next to "Add to cart".
func (p Product) LeadVariant() Variant {
	for _, v := range p.Variants {
		if v.Available {
			return v
		}
	}
	if len(p.Variants) == 0 {
		return Variant{}
	}
	return p.Variants[0]
}

// Available reports whether any variant can be bought.
func (p Product) Available() bool {
	for _, v := range p.Variants {
		if v.Available {
			return true
		}
	}
	return false
}

// PriceRange is the lowest and highest variant price.
func (p Product) PriceRange() (lo, hi Money) {
	for i, v := range p.Variants {
		if i == 0 || v.Price < lo {
			lo = v.Price
		}
		if v.Price > hi {
			hi = v.Price
		}
	}
	return lo, hi
}

func (p Product) image(id int64) (Image, bool) {
	for _, im := range p.Images {
		if im.ID == id {
			return im, true
		}
	}
	return Image{}, false
}

// Collection is a named list of products; a product may sit in several.
type Collection struct {
	ID          int64
	Handle      string
	Title       string
	Description string
	// Products holds catalogue indexes in listing order.
	Products []int32
}

// Catalog is an immutable list of products and collections. A generated catalogue makes
// each product from (seed, index) when asked, so 100,000 products cost a few megabytes of
// collection indexes and nothing more; a loaded catalogue holds its products in memory.
type Catalog struct {
	seed     uint64
	n        int
	loaded   []Product      // nil for a generated catalogue
	byHandle map[string]int // loaded catalogues only

	collections  []Collection
	byCollection map[string]int
}

// Len is the number of products.
func (c *Catalog) Len() int { return c.n }

// Product returns the product at index i (0 <= i < Len). Each call of a generated
// catalogue builds a fresh value; callers may keep or modify it.
func (c *Catalog) Product(i int) Product {
	if i < 0 || i >= c.n {
		panic(fmt.Sprintf("demostore: product index %d out of range [0,%d)", i, c.n))
	}
	if c.loaded != nil {
		return c.loaded[i]
	}
	return generateProduct(c.seed, i)
}

// Lookup finds a product by handle.
func (c *Catalog) Lookup(handle string) (int, bool) {
	if c.loaded != nil {
		i, ok := c.byHandle[handle]
		return i, ok
	}
	i, ok := generatedIndex(handle)
	if !ok || i >= c.n || generateHandle(c.seed, i) != handle {
		return 0, false
	}
	return i, true
}

// Collections lists the collections in the order /collections.json serves them. The
// pseudo-collection "all" (every product, in catalogue order) is served by the stores but
// not listed here, as on Shopify.
func (c *Catalog) Collections() []Collection { return c.collections }

// Collection finds a collection by handle; "all" is every product.
func (c *Catalog) Collection(handle string) (Collection, bool) {
	if handle == "all" {
		return Collection{ID: 1, Handle: "all", Title: "All products"}, true
	}
	i, ok := c.byCollection[handle]
	if !ok {
		return Collection{}, false
	}
	return c.collections[i], true
}

// members is a collection's listing as (count, index-of-kth) without materialising "all".
func (c *Catalog) members(col Collection) (int, func(k int) int) {
	if col.Handle == "all" && col.Products == nil {
		return c.n, func(k int) int { return k }
	}
	return len(col.Products), func(k int) int { return int(col.Products[k]) }
}

func (c *Catalog) index() {
	c.byCollection = make(map[string]int, len(c.collections))
	for i, col := range c.collections {
		c.byCollection[col.Handle] = i
	}
}

// slug makes a URL handle the way Shopify does: lower case, runs of anything but letters
// and digits become one dash.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case r == '\'':
		default:
			dash = true
		}
	}
	return b.String()
}
