package wire

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

// The hand-written decoder must agree with encoding/json, the reference for what the
// answer JSON means (ABI.md): on every answer encoding/json accepts, the same Response;
// on every answer it refuses, an error.

func decodeReference(out []byte) (*adapter.Response, error) {
	var resp adapter.Response
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

func checkAgainstReference(t *testing.T, out []byte) {
	t.Helper()
	want, wantErr := decodeReference(out)
	got, err := Decode(out)
	switch {
	case wantErr != nil && err == nil:
		t.Fatalf("%s: decoded, encoding/json refuses: %v", out, wantErr)
	case wantErr == nil && err != nil:
		t.Fatalf("%s: %v, encoding/json accepts", out, err)
	case wantErr == nil && !reflect.DeepEqual(got, want):
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s:\n got %s\nwant %s", out, g, w)
	}
}

// fill sets every field of v (a pointer) to a random value, so that a field the decoder
// does not know fails the comparison.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[json.RawMessage]() {
		// A listing's record: an object in the adapter's own form, kept as written.
		records := []string{`{"id":1,"tags":["a","b"]}`, `{}`, `{"body_html":"<p>é ✓</p>","variants":[{"available":true}]}`}
		if r.IntN(3) > 0 {
			v.SetBytes([]byte(records[r.IntN(len(records))]))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if r.IntN(5) == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(r, v.Elem(), depth)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth)
			}
		}
	case reflect.Slice:
		if depth > 3 || r.IntN(5) == 0 {
			return
		}
		n := r.IntN(3)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		if r.IntN(5) == 0 {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range r.IntN(3) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k, depth+1)
			fill(r, e, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		words := []string{"", "a", "Kettle 1.7 l", "tab\there", `quote " and \ slash`, "é ✓", "\x00ctl", "bad \xff utf8", "</script>"}
		v.SetString(words[r.IntN(len(words))])
	case reflect.Float64:
		floats := []float64{0, 1, 19.9, -3.25, 1e-7, 123456789.125}
		v.SetFloat(floats[r.IntN(len(floats))])
	case reflect.Int:
		v.SetInt(int64(r.IntN(2000) - 1000))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	}
}

func TestDecodeResponseAgreesWithEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var resp adapter.Response
		fill(r, reflect.ValueOf(&resp).Elem(), 0)
		out, err := json.Marshal(&resp)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstReference(t, out)
	}
}

func TestDecodeResponseRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, out := range []string{
		``, `{`, `[]`, `"x"`, `{"next": 1}`, `{"fetch": "x"}`, `{"fetch": [1]}`,
		`{"product": []}`, `{"product": {"title": 5}}`, `{"product": {"images": [{"position": 1.5}]}}`,
		`{"product": {"images": [{"width": "10"}]}}`, `{"product": {"price": {"current_value": "1"}}}`,
		`{"product": {"price": {"current_value": 1e400}}}`, `{"product": {"is_available": "yes"}}`,
		`{"product": {"variants": [{"options": {"size": 1}}]}}`, `{"product": {"reviews": 3}}`,
		`{"detection": {"confidence": "high"}}`, `{"listings": [{"url": 1}]}`, "{\"next\": \"a\x01\"}",
		`{"total": "720"}`, `{"total": 7.5}`, `{"total": 1e3}`, `{"ahead": "2"}`, `{"ahead": [2]}`,
	} {
		checkAgainstReference(t, []byte(out))
	}
}

func TestDecodeResponseReadsNullsAndEmptiesAsEncodingJSON(t *testing.T) {
	for _, out := range []string{
		`null`, `{}`, `{"product": null}`, `{"product": {}}`, `{"fetch": null, "listings": []}`,
		`{"product": {"tags": [], "images": [null, {}], "variants": [{"options": {}}], "title": null, "price": null}}`,
		`{"product": {"sources": {"a\u00e9": "x"}, "options": [{"values": []}]}, "unknown": [1, {"x": 2}]}`,
		`{"product": {"title": "a\ud800b", "description": "\u00e9\ud83d\ude00"}}`,
		`{"next": "x", "total": 720, "ahead": ["2", "3"]}`, `{"total": null}`, `{"total": 0}`, `{"ahead": []}`,
		`{"Next": "x", "PRODUCT": {"ſku": "s", "\u212aind": 1, "Is_Available": true}}`,
	} {
		checkAgainstReference(t, []byte(out))
	}
}

func FuzzDecodeResponse(f *testing.F) {
	f.Add([]byte(`{"product": {"title": "x", "images": [{"url": "u", "width": 3}], "price": {"current_value": 1}}}`))
	f.Add([]byte(`{"listings": [{"url": "u", "price": null}], "next": "2", "total": 720, "fetch": ["a"]}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		checkAgainstReference(t, out)
	})
}
