package catalog

import (
	"context"
	"errors"

	"github.com/stockroom/stockroom/core/affiliate"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/urlnorm"
)

// Service answers the browse endpoints.
type Service struct {
	store Store
	// network decides each vendor's InAffiliateNetwork; nil is no network.
	network *affiliate.Network
}

// NewService returns a Service over store, with no affiliate network.
func NewService(store Store) *Service { return &Service{store: store} }

// WithAffiliateNetwork returns a copy of s whose vendors are in network when it covers
// them. The configuration is the one source of that flag: a vendor joins or leaves the
// network with it, without a write to the catalog.
func (s *Service) WithAffiliateNetwork(network *affiliate.Network) *Service {
	c := *s
	c.network = network
	return &c
}

// Store returns the store behind the service, for writers such as the crawl.
func (s *Service) Store() Store { return s.store }

// Vendors is one page of vendors, most listings first.
func (s *Service) Vendors(ctx context.Context, req page.Request) (page.Result[Vendor], error) {
	items, total, err := s.store.Vendors(ctx, req)
	s.markAffiliates(items)
	return page.Result[Vendor]{Items: items, Request: req, TotalItems: total}, err
}

// AllVendors lists every vendor.
func (s *Service) AllVendors(ctx context.Context) ([]Vendor, error) {
	vendors, err := s.store.AllVendors(ctx)
	s.markAffiliates(vendors)
	return vendors, err
}

func (s *Service) markAffiliates(vendors []Vendor) {
	for i := range vendors {
		vendors[i].InAffiliateNetwork = s.network.Covers(vendors[i].Host)
	}
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
