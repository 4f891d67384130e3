package openapitest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/server/openapi/openapitest"
)

const (
	vendorsPage = `{"data": [{"vendor": "shop.example", "last_updated_by_service": "2026-11-22T10:00:00.000Z",
		"listings_count": 3, "collections_count": 1, "in_affiliate_network": false, "product_count": 3,
		"latest_product_update_by_service": "2026-11-22T10:00:00.000Z"}],
		"pagination": {"page": 1, "page_size": 20, "total_items": 1, "total_pages": 1, "has_next": false, "has_prev": false},
		"meta": {}}`
	notFound = `{"error": {"code": "NOT_FOUND", "message": "no route", "request_id": "r1"}}`
)

func answer(status int, mediaType, body string, headers ...string) *http.Response {
	h := http.Header{}
	if mediaType != "" {
		h.Set("Content-Type", mediaType)
	}
	h.Set("Request-ID", "r1")
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			h.Del(headers[i])
		} else {
			h.Set(headers[i], headers[i+1])
		}
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
}

func TestCheckAcceptsWhatTheDocumentDescribes(t *testing.T) {
	checker, err := openapitest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		method string
		path   string
		resp   *http.Response
	}{
		{"a page of vendors", "GET", "/v2/vendors?page=1", answer(200, "application/json", vendorsPage)},
		{"an unknown execution", "GET", "/v2/crawl/nope", answer(404, "application/json", notFound)},
		{"an unknown route", "GET", "/v3/nothing", answer(404, "application/json", notFound)},
		{"a method the route lacks", "PUT", "/v2/crawl", answer(404, "application/json", notFound)},
		{"a missing key", "GET", "/v2/vendors", answer(401, "application/json", `{"error": "Invalid API key", "status": 401}`)},
		{"the docs page", "GET", "/docs", answer(200, "text/html; charset=utf-8", "<!doctype html>")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := checker.Check(httptest.NewRequest(c.method, c.path, nil), c.resp); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCheckRefusesWhatTheDocumentDoesNotDescribe(t *testing.T) {
	checker, err := openapitest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		method string
		path   string
		resp   *http.Response
	}{
		{"a field it does not name", "GET", "/v2/vendors", answer(200, "application/json", strings.Replace(vendorsPage, `"meta": {}`, `"meta": {}, "extra": 1`, 1))},
		{"a field missing", "GET", "/v2/vendors", answer(200, "application/json", strings.Replace(vendorsPage, `"has_prev": false`, `"has_prevs": false`, 1))},
		{"a wrong type", "GET", "/v2/vendors", answer(200, "application/json", strings.Replace(vendorsPage, `"listings_count": 3`, `"listings_count": "3"`, 1))},
		{"a time that is not RFC 3339", "GET", "/v2/vendors", answer(200, "application/json", strings.Replace(vendorsPage, `"2026-11-22T10:00:00.000Z"`, `"yesterday"`, 1))},
		{"a status it does not list", "GET", "/v2/vendors", answer(418, "application/json", notFound)},
		{"another media type", "GET", "/v2/vendors", answer(200, "text/plain", vendorsPage)},
		{"no Request-ID", "GET", "/v2/vendors", answer(200, "application/json", vendorsPage, "Request-ID", "")},
		{"an error code of another status", "GET", "/v2/crawl/x", answer(404, "application/json", strings.Replace(notFound, "NOT_FOUND", "FORBIDDEN", 1))},
		{"an unknown route's 200", "GET", "/v3/nothing", answer(200, "application/json", `{}`)},
		{"an unknown route's 404 in another shape", "GET", "/v3/nothing", answer(404, "application/json", `{"error": "no"}`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := checker.Check(httptest.NewRequest(c.method, c.path, nil), c.resp); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// recorder is a test that notes its errors.
type recorder struct{ errors []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestTransportFailsTheTestAndKeepsTheBody(t *testing.T) {
	checker, err := openapitest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-ID", "r1")
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v2/vendors" {
			_, _ = io.WriteString(w, vendorsPage)
			return
		}
		_, _ = io.WriteString(w, `{"surprise": true}`)
	}))
	defer server.Close()
	rec := &recorder{}
	client := &http.Client{Transport: checker.Transport(rec, nil)}
	for path, wantErrors := range map[string]int{"/v2/vendors": 0, "/v2/usage": 1} {
		rec.errors = nil
		resp, err := client.Get(server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(rec.errors) != wantErrors {
			t.Errorf("GET %s: %d errors, want %d: %q", path, len(rec.errors), wantErrors, rec.errors)
		}
		if len(body) == 0 {
			t.Errorf("GET %s: the body was not handed on", path)
		}
	}
}

const (
	listingsPage = `{"data": [{"id": "l1", "url": "https://shop.example/products/mug", "name": "Mug", "images": [],
		"price": {"current_value": 12, "compare_at_value": null, "currency": "EUR"}, "vendor": "shop.example",
		"first_seen_by_service": "2026-11-22T10:00:00.000Z", "last_updated_by_service": "2026-11-22T10:00:00.000Z"}],
		"pagination": {"page": 1, "page_size": 20, "total_items": 1, "total_pages": 1, "has_next": false, "has_prev": false},
		"meta": {}}`
	extraction = `{"execution_id": "extract-urls-1", "status": "completed", "error": null,
		"data": [{"url": "https://shop.example/products/mug", "success": true, "outcome": "success", "retry": false, "message": "",
		"product": {"id": "p1", "title": "Mug", "description": "", "vendor": "shop.example", "brand": null,
			"url": "https://shop.example/products/mug", "handle": "mug", "is_available": true,
			"price": {"current_value": 12, "compare_at_value": null, "currency": "EUR"}, "min_price": 12, "max_price": 12,
			"images": [], "options": [], "variants": [], "store_canonical_url": null, "store_domain": "shop.example",
			"platform": null, "platform_id": null, "description_html": null, "product_type": null,
			"engine_product_category_id": null, "engine_product_category_path": null, "tags": [], "video_url": null,
			"updated_at": "2026-11-22T10:00:00.000Z", "field_sources": {}, "attributes": null, "sku": null, "gtin": null, "mpn": null,
			"average_rating": null, "rating_scale": null, "review_count": null, "reviews": null, "similar_products": null}}],
		"pagination": {"page": 1, "page_size": 50, "total_items": 1, "total_pages": 1, "has_next": false, "has_prev": false},
		"meta": {"progress": {"products_processed": 1, "products_total": 1, "percent_complete": 100},
			"result": {"products_requested": 1, "products_successful": 1, "products_failed": 0, "products_failed_by_reason": {},
				"products_invalid": 0, "products_invalid_by_reason": {}, "products_pending": 0},
			"start_date": "2026-11-22T10:00:00.000Z", "stop_date": "2026-11-22T10:00:01.000Z", "duration_ms": 1000}}`
)

// The fields the interface types without "or null" are never null in the document, so
// that the end-to-end suite's check (Transport) fails on a null one: a price's currency,
// and a product's title, description and vendor.
func TestTheDocumentHoldsTheInterfacesNonNullableFields(t *testing.T) {
	checker, err := openapitest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, body string
		accepted         bool
	}{
		{"a listing priced in a currency", "/v2/listings?vendor=shop.example", listingsPage, true},
		{"a listing without a price", "/v2/listings?vendor=shop.example", strings.Replace(listingsPage,
			`{"current_value": 12, "compare_at_value": null, "currency": "EUR"}`, `null`, 1), true},
		{"a listing's price without a currency", "/v2/listings?vendor=shop.example", strings.Replace(listingsPage, `"EUR"`, `null`, 1), false},
		{"a product with an empty description", "/v2/extract/extract-urls-1", extraction, true},
		{"a product with a null description", "/v2/extract/extract-urls-1", strings.Replace(extraction, `"description": ""`, `"description": null`, 1), false},
		{"a product with a null title", "/v2/extract/extract-urls-1", strings.Replace(extraction, `"title": "Mug"`, `"title": null`, 1), false},
		{"a product with a null vendor", "/v2/extract/extract-urls-1", strings.Replace(extraction, `"vendor": "shop.example", "brand"`, `"vendor": null, "brand"`, 1), false},
		{"a product's price without a currency", "/v2/extract/extract-urls-1", strings.Replace(extraction, `"EUR"`, `null`, 1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checker.Check(httptest.NewRequest("GET", c.path, nil), answer(200, "application/json", c.body))
			if c.accepted && err != nil {
				t.Error(err)
			}
			if !c.accepted && err == nil {
				t.Error("accepted")
			}
		})
	}
}
