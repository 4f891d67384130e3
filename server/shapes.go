package server

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
)

// timestamp is the one format of every time in a response: RFC 3339, UTC, milliseconds.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func timestampOrNil(t *time.Time) any {
	if t == nil || t.IsZero() {
		return nil
	}
	return timestamp(*t)
}

// v2Pagination is the v2 pagination object.
func v2Pagination[T any](r page.Result[T]) fiber.Map {
	return fiber.Map{
		"page": r.Number, "page_size": r.Size, "total_items": r.TotalItems,
		"total_pages": r.TotalPages(), "has_next": r.HasNext(), "has_prev": r.HasPrev(),
	}
}

// v1Pagination is the v1 pagination object, which lives in `meta`.
func v1Pagination[T any](r page.Result[T]) fiber.Map {
	return fiber.Map{
		"total_items": r.TotalItems, "total_pages": r.TotalPages(), "current_page": r.Number,
		"page_size": r.Size, "has_next": r.HasNext(), "has_prev": r.HasPrev(),
	}
}

// v2List is the v2 list envelope.
func v2List[T any](r page.Result[T], item func(T) fiber.Map, meta fiber.Map) fiber.Map {
	if meta == nil {
		meta = fiber.Map{}
	}
	return fiber.Map{"data": mapItems(r.Items, item), "pagination": v2Pagination(r), "meta": meta}
}

func mapItems[T any](items []T, item func(T) fiber.Map) []fiber.Map {
	out := make([]fiber.Map, 0, len(items))
	for _, it := range items {
		out = append(out, item(it))
	}
	return out
}

func collectionJSON(c catalog.Collection) fiber.Map {
	return fiber.Map{
		"id": c.ID, "url": c.URL, "title": nilIfEmpty(c.Title), "products_total": c.ProductsTotal,
		"first_seen_by_service":   timestamp(c.FirstSeen),
		"last_updated_by_service": timestamp(c.LastUpdated),
	}
}

func listingJSON(l catalog.Listing) fiber.Map {
	images := l.Images
	if images == nil {
		images = []catalog.Image{}
	}
	var price any
	if l.Price != nil {
		price = fiber.Map{"currency": nilIfEmpty(l.Price.Currency), "current_value": l.Price.Current, "compare_at_value": l.Price.CompareAt}
	}
	return fiber.Map{
		"id": l.ID, "url": l.URL, "name": nilIfEmpty(l.Name), "images": images, "price": price, "vendor": l.Vendor,
		"first_seen_by_service":   timestamp(l.FirstSeen),
		"last_updated_by_service": timestamp(l.LastUpdated),
	}
}

// vendorJSON is the vendor summary; v2 also carries the count names its migration text shows.
func vendorJSON(v catalog.Vendor) fiber.Map {
	return fiber.Map{
		"vendor": v.Host, "last_updated_by_service": timestamp(v.LastUpdated),
		"listings_count": v.ListingsCount, "collections_count": v.CollectionsCount,
		"in_affiliate_network": v.InAffiliateNetwork,
	}
}

func vendorJSONv2(v catalog.Vendor) fiber.Map {
	m := vendorJSON(v)
	m["product_count"] = v.ListingsCount
	m["latest_product_update_by_service"] = timestamp(v.LastUpdated)
	return m
}

func legacyVendorJSON(v catalog.Vendor) fiber.Map {
	return fiber.Map{
		"vendor": v.Host, "product_count": v.ListingsCount,
		"latest_product_update_by_service": timestamp(v.LastUpdated),
		"in_affiliate_network":             v.InAffiliateNetwork,
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
