package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A product whose page gives no description has the empty string as its description,
// in every generation: the interface types it as a string, never null. Every answer the
// suite receives is also checked against the OpenAPI document (conformingClient), which
// holds each non-nullable field of the interface's tables to its type.
func TestAProductWithoutDescriptionHasAnEmptyOne(t *testing.T) {
	const page = `<!doctype html><html lang="en"><head><title>Plain Mug</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Plain Mug",
"offers":{"@type":"Offer","price":"12.00","priceCurrency":"EUR","availability":"https://schema.org/InStock"}}</script>
</head><body><h1>Plain Mug</h1></body></html>`
	store := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/products/plain-mug" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(store.Close)
	host := strings.TrimPrefix(store.URL, "http://")
	s := newStackWith(t, []string{"STOCKROOM_FETCH__ALLOW=" + host, "STOCKROOM_FETCH__NO_DELAY_HOSTS=" + host})
	u := store.URL + "/products/plain-mug"

	wantEmptyDescription := func(t *testing.T, answer string, p any) {
		t.Helper()
		product, _ := p.(map[string]any)
		if product == nil {
			t.Fatalf("%s: no product", answer)
		}
		if d, ok := product["description"].(string); !ok || d != "" {
			t.Errorf("%s: description %#v, want the empty string", answer, product["description"])
		}
		if product["title"] != "Plain Mug" {
			t.Errorf("%s: title %#v", answer, product["title"])
		}
	}

	items := s.extractV2([]string{u}, nil)
	wantEmptyDescription(t, "v2 extract", items[0]["product"])

	r := s.do("POST", "/v1/products", map[string]any{"urls": []string{u}})
	if r.status != 200 {
		t.Fatalf("v1 start: %d %s", r.status, r.raw)
	}
	batch := s.waitEnded("/v1/products/"+r.body["execution_id"].(string), time.Minute)
	products, _ := field(batch, "results", "products").([]any)
	if len(products) != 1 {
		t.Fatalf("v1 results: %v", batch)
	}
	wantEmptyDescription(t, "v1 products", products[0].(map[string]any)["product"])

	legacy := s.do("POST", "/api/product", map[string]any{"url": u})
	if legacy.status != 200 {
		t.Fatalf("legacy: %d %s", legacy.status, legacy.raw)
	}
	wantEmptyDescription(t, "legacy product", legacy.body["product"])
}
