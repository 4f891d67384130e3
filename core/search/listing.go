package search

import (
	"encoding/json"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/product"
)

// listingProduct is the product a search serves for a listing no extraction has replaced:
// what the listing shows (URL, name, price, images, vendor), every other field unknown.
// Its id is the listing's.
func listingProduct(l catalog.Listing) *extract.Stored {
	p := &product.Product{ID: l.ID, URL: l.URL}
	if l.Name != "" {
		name := l.Name
		p.Title = &name
	}
	if l.Price != nil {
		p.Price = &product.Price{Current: l.Price.Current, CompareAt: l.Price.CompareAt, Currency: l.Price.Currency}
	}
	// The crawl stores well-formed images; were they not, the product is served without
	// them rather than the search failing.
	var images []catalog.Image
	if len(l.Images) > 0 && json.Unmarshal(l.Images, &images) == nil {
		for _, img := range images {
			p.Images = append(p.Images, product.Image{ID: img.ID, URL: img.URL, AltText: img.Alt, Position: img.Position,
				Width: img.Width, Height: img.Height})
		}
	}
	return &extract.Stored{ID: l.ID, Vendor: l.Vendor, UpdatedAt: l.LastUpdated, Product: p}
}
