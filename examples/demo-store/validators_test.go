package demostore

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A page carries an ETag that stays while the page does; asked with it, the store answers
// 304 without a body, and counts the conditional request.
func TestPagesCarryValidators(t *testing.T) {
	s, err := New(Options{Kind: Shopify, Products: 20})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, ifNoneMatch string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "http://shop.test"+path, nil)
		if ifNoneMatch != "" {
			r.Header.Set("If-None-Match", ifNoneMatch)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w
	}
	for _, path := range []string{"/", s.ProductPath(3), "/products.json", s.ProductPath(3) + ".json"} {
		first := get(path, "")
		tag := first.Header().Get("ETag")
		if first.Code != http.StatusOK || tag == "" {
			t.Fatalf("%s: status %d, ETag %q; want 200 with an ETag", path, first.Code, tag)
		}
		if again := get(path, ""); again.Header().Get("ETag") != tag {
			t.Errorf("%s: ETag changed from %s to %s with the page unchanged", path, tag, again.Header().Get("ETag"))
		}
		if nm := get(path, `W/`+tag); nm.Code != http.StatusNotModified || nm.Body.Len() != 0 {
			t.Errorf("%s with If-None-Match: status %d, %d body bytes; want 304 and none", path, nm.Code, nm.Body.Len())
		}
		if other := get(path, `"stale"`); other.Code != http.StatusOK || other.Body.Len() == 0 {
			t.Errorf("%s with a stale tag: status %d; want 200 with the page", path, other.Code)
		}
	}
	if missing := get(s.ProductPath(0)+"-nope", ""); missing.Header().Get("ETag") != "" {
		t.Errorf("a 404 carries an ETag")
	}
	st := s.Stats()
	if st.Conditional != 8 || st.ByStatus[http.StatusNotModified] != 4 {
		t.Errorf("stats: %d conditional, %d answered 304; want 8 and 4", st.Conditional, st.ByStatus[http.StatusNotModified])
	}
}
