package sdk

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func ptr[T any](v T) *T { return &v }

// TestEncoderAgreesWithEncodingJSON pins the hand-written encoder to what the host
// decodes: every field set, awkward strings included, survives the round trip.
func TestEncoderAgreesWithEncodingJSON(t *testing.T) {
	p := &Product{
		ID: "1", URL: "https://x/p", Handle: "h", Title: ptr("Tab\t\"quote\" \\ \x01 é ✓"),
		Description: ptr("d"), DescriptionHTML: ptr("<p>d</p>"), Vendor: ptr("v"), Brand: ptr("b"),
		ProductType: ptr("t"), Tags: []string{"a", "b"}, Platform: ptr("shopify"), PlatformID: ptr("1"),
		CanonicalURL: ptr("https://x/c"), VideoURL: ptr("https://x/v"), IsAvailable: ptr(true),
		Price: &Price{Current: 19.9, CompareAt: ptr(25.0), Currency: "EUR"},
		SKU:   ptr("S"), GTIN: ptr("G"), MPN: ptr("M"),
		Images:      []Image{{ID: "9", URL: "https://x/i.jpg", AltText: ptr("alt"), Position: 1, Width: ptr(10), Height: ptr(20), VariantIDs: []string{"5"}}},
		Options:     []Option{{Name: "Size", Position: 1, Values: []string{"S", "M"}}},
		Variants:    []Variant{{ID: "5", Title: ptr("S"), SKU: ptr("S1"), Options: map[string]string{"Size": "S"}, IsAvailable: ptr(false), Price: &Price{Current: 1e-7}, ImageID: ptr("9")}},
		Breadcrumbs: []Breadcrumb{{Name: "Home", URL: "https://x/"}},
		UpdatedAt:   ptr("2025-01-01T00:00:00Z"),
		Sources:     map[string]string{"title": "x"},
	}
	in := wireResponse{
		Info:        &Info{Name: "n", Version: "1", Platforms: []string{"p"}, Capabilities: []string{"extract"}},
		Fetch:       []string{"https://x/a"},
		Detection:   &Detection{Platform: "p", Confidence: 0.9, Evidence: []string{"e"}},
		Collections: []Collection{{URL: "https://x/c", Handle: "c", ProductsCount: ptr(3), Currency: "EUR"}},
		Listings: []Listing{{URL: "https://x/p", ID: "1", Price: &Price{Current: 2}, Images: []Image{{URL: "u"}}},
			{URL: "https://x/q", Images: []Image{{URL: "https://x/q.jpg"}, {URL: "https://x/q2.jpg", Position: 2}}}},
		Next: "2", Total: 720, Ahead: []string{"2", "3"}, Product: p, Outcome: "other", Message: "m",
	}
	out := appendResponse(nil, &in)
	var got wireResponse
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("invalid JSON %s: %v", out, err)
	}
	if !reflect.DeepEqual(got, in) {
		want, _ := json.Marshal(in)
		t.Fatalf("round trip differs:\n got %s\nwant %s", out, want)
	}
}

func FuzzEncodeString(f *testing.F) {
	f.Add("plain ascii text that runs past eight bytes")
	f.Add("eight by")
	f.Add("nine byte")
	f.Add("fifteen bytes \"")
	f.Add("escape \n then a tail")
	f.Add("quote \" backslash \\ newline \n tab \t nul \x00 é ✓ end")
	f.Fuzz(func(t *testing.T, s string) {
		e := enc{}
		e.str(s)
		var got string
		if err := json.Unmarshal(e.b, &got); err != nil {
			t.Fatalf("invalid JSON %q: %v", e.b, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); utf8.ValidString(s) && got != want {
			t.Fatalf("round trip of %q gave %q", s, got)
		}
	})
}

// FuzzNum: every number is written as strconv's shortest 'f' form, cents or not.
func FuzzNum(f *testing.F) {
	for _, v := range []float64{0, math.Copysign(0, -1), 0.01, 0.1, 0.5, 0.05, 0.005, 1, 19.9, 19.99, 126, 64.05, 1299.5,
		0.29 * 3, 1e13, 11258999068426.23, 1 << 50 / 100.0, 1e22, 1e300, 5e-324, -19.99, math.Inf(1), math.NaN(), 123456789.12} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		var e enc
		e.num(v)
		if want := strconv.FormatFloat(v, 'f', -1, 64); string(e.b) != want {
			t.Fatalf("num(%v) = %s, want %s", v, e.b, want)
		}
		// Cents, the common case, through the fast path and the other.
		c := math.Round(v)
		if math.IsInf(c, 0) || math.IsNaN(c) {
			return
		}
		p := math.Mod(c, 1e15) / 100
		e = enc{}
		e.num(p)
		if want := strconv.FormatFloat(p, 'f', -1, 64); string(e.b) != want {
			t.Fatalf("num(%v) = %s, want %s", p, e.b, want)
		}
	})
}
