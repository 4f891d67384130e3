package wire

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/core/adapter"
)

// generalListings is the general decoder's reading of a listings array.
func generalListings(raw string) ([]adapter.Listing, error) {
	d := decoder{}
	out := list(&d, gjson.Parse(raw), "listings", d.listing)
	return out, d.err
}

// checkPlain: where plainListings takes a text, it answers what the general decoder does.
func checkPlain(t *testing.T, raw string) bool {
	t.Helper()
	got, ok := plainListings(raw)
	if !ok {
		return false
	}
	want, err := generalListings(raw)
	if err != nil {
		t.Fatalf("%s: plain path decoded, the general decoder refuses: %v", raw, err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s:\n plain   %s\n general %s", raw, g, w)
	}
	return true
}

func TestPlainListingsAgreeWithDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	taken := 0
	for range 2000 {
		var listings []adapter.Listing
		fill(r, reflect.ValueOf(&listings).Elem(), 0)
		raw, err := json.Marshal(listings)
		if err != nil {
			t.Fatal(err)
		}
		if checkPlain(t, string(raw)) {
			taken++
		}
	}
	for _, raw := range []string{
		`[]`, ` [ ] `, `[{}]`, `[{"url":"u","price":null,"images":null}]`,
		`[{"url":null,"images":[null,{},{"alt_text":null,"width":null,"position":null,"variant_ids":null}]}]`,
		`[{"url":"u","price":{"current_value":null,"compare_at_value":null,"currency":null}}]`,
		`[{"url":"a"},{"url":"b","title":"é ✓","images":[{"url":"i","width":0,"variant_ids":["1",null]}]}]`,
	} {
		if !checkPlain(t, raw) {
			t.Errorf("%s: not taken by the plain path", raw)
		}
	}
	// The host's Shape output for a storefront page, the case the plain path is for.
	shape := `[{"url":"https://shop.example/products/tee","id":"7","title":"Tee","price":{"current_value":24.5,"compare_at_value":30,"currency":"USD"},` +
		`"images":[{"id":"9","url":"https://cdn.example/tee.jpg","position":1,"width":1200,"height":1600,"variant_ids":["71","72"]}]}]`
	if !checkPlain(t, shape) {
		t.Errorf("Shape output not taken by the plain path")
	}
	// A listing's record is kept as written, whatever it holds.
	record := `[{"url":"u","record":{"body_html":"<p>{\"a\"} ]}</p>","tags":["x","}"],"variants":[{"price":"1.00","available":true}]}},` +
		`{"url":"v","record":null},{"url":"w","record":{}}]`
	if !checkPlain(t, record) {
		t.Errorf("records not taken by the plain path")
	}
	// Everything else is left to the general decoder.
	for _, raw := range []string{
		`[{"URL":"u"}]`, `[{"url":"u","url":"v"}]`, `[{"url":"a\"b"}]`, `[{"url":"\u0061"}]`, `[{"url":1}]`,
		`[{"url":"u","extra":1}]`, `[{"images":[{"position":1.5}]}]`, `[{"price":{"current_value":1e400}}]`,
		`[null]`, `[{"url":"u"},]`, "[{\"url\":\"\xff\"}]", `{"url":"u"}`,
	} {
		if _, ok := plainListings(raw); ok {
			t.Errorf("%s: taken by the plain path", raw)
		}
	}
	if taken < 100 {
		t.Errorf("the plain path took %d of 2,000 random pages", taken)
	}
}

func FuzzPlainListings(f *testing.F) {
	f.Add(`[{"url":"u","price":{"current_value":1,"compare_at_value":null},"images":[{"url":"i","width":3,"variant_ids":["1"]}]}]`)
	f.Add(`[{"url":"a"},{"url":"b","images":[null]}]`)
	f.Fuzz(func(t *testing.T, raw string) {
		if gjson.Valid(raw) {
			checkPlain(t, raw)
		}
	})
}

// BenchmarkListings decodes a page of 250 listings as the host's Shape template writes
// them, by the plain path and, beside it, by the general decoder.
func BenchmarkListings(b *testing.B) {
	page := []byte{'['}
	for i := range 250 {
		if i > 0 {
			page = append(page, ',')
		}
		page = fmt.Appendf(page, `{"url":"https://shop.example/products/relaxed-tee-%d","id":"%d","title":"Relaxed Tee %d",`+
			`"price":{"current_value":24.5,"compare_at_value":30,"currency":"USD"},"images":[{"id":"%d","url":"https://cdn.example/files/tee-%d.jpg",`+
			`"position":1,"width":1200,"height":1600,"variant_ids":[]}]}`, i, 1000+i, i, 5000+i, i)
	}
	raw := string(append(page, ']'))
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if _, ok := plainListings(raw); !ok {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("general", func(b *testing.B) {
		for b.Loop() {
			if _, err := generalListings(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
