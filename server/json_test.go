package server

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/page"
)

// The API renders with go-json for speed; clients were written against encoding/json's
// bytes. These values cover what responses hold: the list shapes, maps (sorted keys), raw
// JSON kept from storage, floats at both ends of the plain/exponent switch, HTML-sensitive
// and invalid UTF-8 text, nil slices and maps, times.
func TestResponsesRenderAsEncodingJSONWould(t *testing.T) {
	compareAt := 1e21
	listings := []catalog.Listing{
		{ID: "a", Vendor: "shop.example", URL: "https://shop.example/p?a=1&b=<2>", Name: "Tee \u2028 \xff café",
			Images:    json.RawMessage(`[{"id": "1", "url": "https://cdn.example/1.jpg?a=1&b=<2>", "width": 800, "height": null, "alt_text": "<b>\"Red\" & blue</b>", "position": 1}]`),
			Price:     &catalog.Price{Currency: "EUR", Current: 19.99, CompareAt: &compareAt},
			FirstSeen: time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC), LastUpdated: time.Date(2026, 11, 23, 0, 0, 0, 0, time.FixedZone("x", 3600))},
		{ID: "b", Vendor: "shop.example", URL: "https://shop.example/q", Price: &catalog.Price{Current: 0.000001}},
	}
	result := page.Result[catalog.Listing]{Items: listings, Request: page.Request{Number: 2, Size: 20}, TotalItems: 41}
	values := map[string]any{
		"listings v2": listingsV2Shape(result),
		"listings v1": listingsV1Shape(result),
		"empty list":  listingsV2Shape(page.Result[catalog.Listing]{Items: nil, Request: page.Request{Number: 1, Size: 20}}),
		"map": fiber.Map{"zeta": 1, "alpha": []any{nil, true, 1.5e-7, math.MaxInt64}, "mid": map[string]any{"b": "x", "a": nil},
			"raw": json.RawMessage(`{ "b" : [1, 2],  "a": "<x>" }`), "nil slice": []string(nil), "nil map": map[string]int(nil)},
		"times": struct {
			At  time.Time  `json:"at"`
			Nil *time.Time `json:"nil,omitempty"`
		}{At: time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.UTC)},
	}
	for name, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: encoding/json: %v", name, err)
		}
		got, err := gojson.Marshal(v)
		if err != nil {
			t.Fatalf("%s: go-json: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n go-json       %s\n encoding/json %s", name, got, want)
		}
	}
}

func TestTimestampIsUTCWithMilliseconds(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, 11, 23, 9, 5, 7, 891_999_999, time.UTC),
		time.Date(1999, 1, 2, 23, 59, 59, 0, time.FixedZone("east", 5*3600+1800)),
		time.Date(12, 12, 31, 0, 0, 0, 1_000_000, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		{},
	} {
		if got, want := timestamp(at), at.UTC().Format("2006-01-02T15:04:05.000Z07:00"); got != want {
			t.Errorf("timestamp(%v) = %s, want %s", at, got, want)
		}
	}
}
