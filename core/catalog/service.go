package catalog

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// Page rules of the browse endpoints, per API generation, as the interface fixes them.
var (
	CollectionsV1 = page.Bounds{DefaultSize: 10, MaxSize: 100}
	CollectionsV2 = page.Bounds{DefaultSize: 20, MaxSize: 100}
	ListingsV1    = page.Bounds{DefaultSize: 10, MaxSize: 100}
	ListingsV2    = page.Bounds{DefaultSize: 20, MaxSize: 100}
	VendorsAll    = page.Bounds{DefaultSize: 20, MaxSize: 100}
)

// Service answers the browse endpoints.
type Service struct {
	store Store
}

// NewService returns a Service over store.
func NewService(store Store) *Service { return &Service{store: store} }

// Store returns the store behind the service, for writers such as the crawl.
func (s *Service) Store() Store { return s.store }

// Vendors is one page of vendors, most listings first.
func (s *Service) Vendors(ctx context.Context, req page.Request) (page.Result[Vendor], error) {
	items, total, err := s.store.Vendors(ctx, req)
	return page.Result[Vendor]{Items: items, Request: req, TotalItems: total}, err
}

// AllVendors lists every vendor.
func (s *Service) AllVendors(ctx context.Context) ([]Vendor, error) {
	return s.store.AllVendors(ctx)
}

// Collections is one page of a vendor's collections, most products first. An unknown vendor
// has none.
func (s *Service) Collections(ctx context.Context, vendor string, req page.Request) (page.Result[Collection], error) {
	host, err := VendorHost(vendor)
	if err != nil {
		return page.Result[Collection]{}, err
	}
	items, total, err := s.store.Collections(ctx, host, req)
	return page.Result[Collection]{Items: items, Request: req, TotalItems: total}, err
}

// Listings is one page of a vendor's listings in order of discovery, optionally only those
// in the given collections.
func (s *Service) Listings(ctx context.Context, vendor string, collectionURLs []string, req page.Request) (page.Result[Listing], error) {
	host, err := VendorHost(vendor)
	if err != nil {
		return page.Result[Listing]{}, err
	}
	q := ListingQuery{Vendor: host, Page: req}
	for _, raw := range collectionURLs {
		u, err := urlnorm.Page(raw)
		if err != nil {
			return page.Result[Listing]{}, failure.OutOfRange("collection_url", "%q is not a valid URL", raw)
		}
		q.CollectionURLs = append(q.CollectionURLs, u)
	}
	items, total, err := s.store.Listings(ctx, q)
	return page.Result[Listing]{Items: items, Request: req, TotalItems: total}, err
}

// VendorHost validates and normalizes a vendor parameter.
func VendorHost(vendor string) (string, error) {
	if vendor == "" {
		return "", failure.Missing("vendor")
	}
	host, err := urlnorm.Host(vendor)
	if errors.Is(err, urlnorm.ErrInvalid) {
		return "", failure.OutOfRange("vendor", "must be a domain name or URL, got %q", vendor)
	}
	return host, err
}
