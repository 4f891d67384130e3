package server

import (
	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
)

// Each generation of a browse endpoint is the same core call with its own parameter source,
// page bounds and response shape.

type shape[T any] func(page.Result[T]) any

func (s *Server) vendors(bounds pageBounds, render shape[catalog.Vendor]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		req, err := pageOf(query{c}, bounds)
		if err != nil {
			return err
		}
		r, err := s.catalog.Vendors(c.UserContext(), req)
		if err != nil {
			return err
		}
		return c.JSON(render(r))
	}
}

func (s *Server) legacyVendors(c *fiber.Ctx) error {
	vendors, err := s.catalog.AllVendors(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"vendors": mapItems(vendors, legacyVendorJSON)})
}

func (s *Server) collections(read func(*fiber.Ctx) (params, error), bounds pageBounds, render shape[catalog.Collection]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := read(c)
		if err != nil {
			return err
		}
		vendor, err := p.String("vendor")
		if err != nil {
			return err
		}
		req, err := pageOf(p, bounds)
		if err != nil {
			return err
		}
		r, err := s.catalog.Collections(c.UserContext(), vendor, req)
		if err != nil {
			return err
		}
		return c.JSON(render(r))
	}
}

// listings serves v1 (collection_urls, an array) and v2 (collection_url, one URL) alike.
func (s *Server) listings(read func(*fiber.Ctx) (params, error), collectionParam string, bounds pageBounds, render shape[catalog.Listing]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := read(c)
		if err != nil {
			return err
		}
		vendor, err := p.String("vendor")
		if err != nil {
			return err
		}
		var collectionURLs []string
		if collectionParam == "collection_urls" {
			collectionURLs, err = p.Strings(collectionParam)
		} else {
			var one string
			one, err = p.String(collectionParam)
			if one != "" {
				collectionURLs = []string{one}
			}
		}
		if err != nil {
			return err
		}
		req, err := pageOf(p, bounds)
		if err != nil {
			return err
		}
		r, err := s.catalog.Listings(c.UserContext(), vendor, collectionURLs, req)
		if err != nil {
			return err
		}
		return c.JSON(render(r))
	}
}

func vendorsV2Shape(r page.Result[catalog.Vendor]) any { return v2List(r, vendorJSONv2, emptyMeta{}) }
func vendorsV1Shape(r page.Result[catalog.Vendor]) any { return v2List(r, vendorJSON, emptyMeta{}) }
func collectionsV2Shape(r page.Result[catalog.Collection]) any {
	return v2List(r, collectionJSON, emptyMeta{})
}
func listingsV2Shape(r page.Result[catalog.Listing]) any {
	return listV2[listingItem, emptyMeta]{Data: listingItems(r.Items), Pagination: v2Pagination(r)}
}

func collectionsV1Shape(r page.Result[catalog.Collection]) any {
	return struct {
		Collections []collectionItem `json:"collections"`
		Meta        paginationV1     `json:"meta"`
	}{mapItems(r.Items, collectionJSON), v1Pagination(r)}
}

func listingsV1Shape(r page.Result[catalog.Listing]) any {
	return struct {
		Listings []listingItem `json:"listings"`
		Meta     paginationV1  `json:"meta"`
	}{listingItems(r.Items), v1Pagination(r)}
}
