package server

import (
	"encoding/json"
	"time"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/usage"
)

// Response shapes are typed structs rather than maps, because encoding/json sorts a map's
// keys on every response, which is costly on the busiest endpoints.

// timestamp is the one format of every time in a response: RFC 3339, UTC, milliseconds.
// It writes the digits itself because a page of listings formats forty times, and
// parsing time.Format's layout each time showed up in the endpoint's profile.
func timestamp(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format("2006-01-02T15:04:05.000Z07:00")
	}
	hour, minute, second := t.Clock()
	var b [24]byte
	digits(b[0:4], year)
	b[4] = '-'
	digits(b[5:7], int(month))
	b[7] = '-'
	digits(b[8:10], day)
	b[10] = 'T'
	digits(b[11:13], hour)
	b[13] = ':'
	digits(b[14:16], minute)
	b[16] = ':'
	digits(b[17:19], second)
	b[19] = '.'
	digits(b[20:23], t.Nanosecond()/1_000_000)
	b[23] = 'Z'
	return string(b[:])
}

// digits writes n in decimal, zero-padded to fill dst.
func digits(dst []byte, n int) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte('0' + n%10)
		n /= 10
	}
}

type paginationV2 struct {
	Page       int  `json:"page"`
	PageSize   int  `json:"page_size"`
	TotalItems int  `json:"total_items"`
	TotalPages int  `json:"total_pages"`
	HasNext    bool `json:"has_next"`
	HasPrev    bool `json:"has_prev"`
}

func v2Pagination[T any](r page.Result[T]) paginationV2 {
	return paginationV2{r.Number, r.Size, r.TotalItems, r.TotalPages(), r.HasNext(), r.HasPrev()}
}

// paginationV1 is v1's pagination, which lives in `meta`.
type paginationV1 struct {
	TotalItems  int  `json:"total_items"`
	TotalPages  int  `json:"total_pages"`
	CurrentPage int  `json:"current_page"`
	PageSize    int  `json:"page_size"`
	HasNext     bool `json:"has_next"`
	HasPrev     bool `json:"has_prev"`
}

func v1Pagination[T any](r page.Result[T]) paginationV1 {
	return paginationV1{r.TotalItems, r.TotalPages(), r.Number, r.Size, r.HasNext(), r.HasPrev()}
}

// emptyMeta renders as {}.
type emptyMeta struct{}

// listV2 is the v2 list envelope.
type listV2[I, M any] struct {
	Data       []I          `json:"data"`
	Pagination paginationV2 `json:"pagination"`
	Meta       M            `json:"meta"`
}

func v2List[T, I, M any](r page.Result[T], item func(T) I, meta M) listV2[I, M] {
	return listV2[I, M]{Data: mapItems(r.Items, item), Pagination: v2Pagination(r), Meta: meta}
}

func mapItems[T, I any](items []T, item func(T) I) []I {
	out := make([]I, 0, len(items))
	for _, it := range items {
		out = append(out, item(it))
	}
	return out
}

type collectionItem struct {
	ID            string  `json:"id"`
	URL           string  `json:"url"`
	Title         *string `json:"title"`
	ProductsTotal *int    `json:"products_total"`
	FirstSeen     string  `json:"first_seen_by_service"`
	LastUpdated   string  `json:"last_updated_by_service"`
}

func collectionJSON(c catalog.Collection) collectionItem {
	return collectionItem{c.ID, c.URL, nilIfEmpty(c.Title), c.ProductsTotal, timestamp(c.FirstSeen), timestamp(c.LastUpdated)}
}

// listingPrice is a listing's price. A price whose currency the store does not state is
// not shown: an amount in an unknown currency tells a client nothing it can use.
type listingPrice struct {
	Currency  string   `json:"currency"`
	Current   float64  `json:"current_value"`
	CompareAt *float64 `json:"compare_at_value"`
}

type listingItem struct {
	ID          string          `json:"id"`
	URL         string          `json:"url"`
	Name        *string         `json:"name"`
	Images      json.RawMessage `json:"images"`
	Price       *listingPrice   `json:"price"`
	Vendor      string          `json:"vendor"`
	FirstSeen   string          `json:"first_seen_by_service"`
	LastUpdated string          `json:"last_updated_by_service"`
}

// listingItems renders a page of listings. Names and currencies point into the listings
// and the prices share one backing array, so a page costs a few allocations, not a few per
// listing: listings pages are the API's busiest responses.
func listingItems(listings []catalog.Listing) []listingItem {
	out := make([]listingItem, len(listings))
	prices := make([]listingPrice, len(listings))
	for i := range listings {
		l := &listings[i]
		item := &out[i]
		*item = listingItem{
			ID: l.ID, URL: l.URL, Name: pointerIfSet(&l.Name), Images: l.Images, Vendor: l.Vendor,
			FirstSeen: timestamp(l.FirstSeen), LastUpdated: timestamp(l.LastUpdated),
		}
		if len(item.Images) == 0 {
			item.Images = json.RawMessage("[]")
		}
		if l.Price != nil && l.Price.Currency != "" {
			prices[i] = listingPrice{l.Price.Currency, l.Price.Current, l.Price.CompareAt}
			item.Price = &prices[i]
		}
	}
	return out
}

// vendorItem is the vendor summary. v2 also carries the count names its migration text shows.
type vendorItem struct {
	Vendor             string  `json:"vendor"`
	LastUpdated        string  `json:"last_updated_by_service"`
	ListingsCount      int     `json:"listings_count"`
	CollectionsCount   int     `json:"collections_count"`
	InAffiliateNetwork bool    `json:"in_affiliate_network"`
	ProductCount       *int    `json:"product_count,omitempty"`
	LatestUpdate       *string `json:"latest_product_update_by_service,omitempty"`
}

func vendorJSON(v catalog.Vendor) vendorItem {
	return vendorItem{Vendor: v.Host, LastUpdated: timestamp(v.LastUpdated), ListingsCount: v.ListingsCount,
		CollectionsCount: v.CollectionsCount, InAffiliateNetwork: v.InAffiliateNetwork}
}

func vendorJSONv2(v catalog.Vendor) vendorItem {
	item := vendorJSON(v)
	item.ProductCount, item.LatestUpdate = &item.ListingsCount, &item.LastUpdated
	return item
}

type legacyVendorItem struct {
	Vendor             string `json:"vendor"`
	ProductCount       int    `json:"product_count"`
	LatestUpdate       string `json:"latest_product_update_by_service"`
	InAffiliateNetwork bool   `json:"in_affiliate_network"`
}

func legacyVendorJSON(v catalog.Vendor) legacyVendorItem {
	return legacyVendorItem{v.Host, v.ListingsCount, timestamp(v.LastUpdated), v.InAffiliateNetwork}
}

type usageItem struct {
	Path       string `json:"path"`
	TotalCalls int64  `json:"total_calls"`
}

func usageItemJSON(p usage.PathCount) usageItem { return usageItem{p.Path, p.TotalCalls} }

// pointerIfSet is s, or nil (JSON null) when *s is empty.
func pointerIfSet(s *string) *string {
	if *s == "" {
		return nil
	}
	return s
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

type pathActivity struct {
	Path         string     `json:"path"`
	TotalCalls   int64      `json:"total_calls"`
	Errors       int64      `json:"errors"`
	ErrorRate    float64    `json:"error_rate"`
	P95LatencyMS float64    `json:"p95_latency_ms"`
	Days         []dayCount `json:"days"`
}

type dayCount struct {
	Date   string `json:"date"`
	Calls  int64  `json:"calls"`
	Errors int64  `json:"errors"`
}

func pathActivityJSON(p usage.PathActivity) pathActivity {
	out := pathActivity{
		Path: p.Path, TotalCalls: p.Calls, Errors: p.Errors,
		P95LatencyMS: float64(p.P95Latency.Microseconds()) / 1000,
		Days:         make([]dayCount, 0, len(p.Days)),
	}
	if p.Calls > 0 {
		out.ErrorRate = float64(p.Errors) / float64(p.Calls)
	}
	for _, d := range p.Days {
		out.Days = append(out.Days, dayCount{d.Date, d.Calls, d.Errors})
	}
	return out
}
