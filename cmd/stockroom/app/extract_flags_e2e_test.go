package app

import (
	"math"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// extractV2 runs a v2 URL extraction to its end and returns its data items in input order.
func (s *stack) extractV2(urls []string, flags map[string]any) []map[string]any {
	s.t.Helper()
	body := map[string]any{"urls": urls}
	for k, v := range flags {
		body[k] = v
	}
	r := s.do("POST", "/v2/extract", body)
	if r.status != 202 {
		s.t.Fatalf("start: %d %s", r.status, r.raw)
	}
	b := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=100", 2*time.Minute)
	var out []map[string]any
	for _, it := range b["data"].([]any) {
		out = append(out, it.(map[string]any))
	}
	if len(out) != len(urls) {
		s.t.Fatalf("%d items for %d URLs", len(out), len(urls))
	}
	return out
}

// Reviews come from each page's own JSON-LD, captured when the product is extracted:
// the aggregate on the page's scale, the count the page states (not the number listed),
// each listed review with its rating, author, date and text.
func TestReviewsComeFromThePagesOwnData(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.JSONLD, Products: 12})
	st := s.fleet.Get(demostore.JSONLD)
	var urls []string
	for i := range 12 {
		urls = append(urls, st.URL(st.ProductPath(i)))
	}
	items := s.extractV2(urls, map[string]any{"enable_reviews": true})
	listed := 0
	for i, it := range items {
		p, ok := it["product"].(map[string]any)
		if !ok || it["outcome"] != "success" {
			t.Fatalf("product %d: %v", i, it)
		}
		want := demostore.RatingOf(st.Catalog().Product(i))
		reviews, ok := p["reviews"].([]any)
		if !ok {
			t.Fatalf("product %d: reviews %v, want a list with the flag on", i, p["reviews"])
		}
		if want == nil {
			if p["average_rating"] != nil || p["rating_scale"] != nil || p["review_count"] != nil || len(reviews) != 0 {
				t.Errorf("product %d has no rating data on its page, got %v %v %v %v", i, p["average_rating"], p["rating_scale"], p["review_count"], reviews)
			}
			continue
		}
		if p["average_rating"] != want.Average || p["rating_scale"] != 5.0 || num(p["review_count"]) != want.Count {
			t.Errorf("product %d: %v/%v of %v, want %v/5 of %d", i, p["average_rating"], p["rating_scale"], p["review_count"], want.Average, want.Count)
		}
		if len(reviews) != len(want.Reviews) {
			t.Fatalf("product %d: %d reviews, want %d", i, len(reviews), len(want.Reviews))
		}
		for k, rv := range reviews {
			got, w := rv.(map[string]any), want.Reviews[k]
			if got["title"] != w.Title || got["reviewer_name"] != w.Author || got["date"] != w.Date ||
				got["content"] != w.Body || got["rating"] != float64(w.Rating) {
				t.Errorf("product %d review %d: %v, want %+v", i, k, got, w)
			}
			listed++
		}
	}
	if listed == 0 {
		t.Fatal("no review listed in 12 products: the demo store lost its reviews")
	}
	// v1 batches have their flags on by default, but similar products (a v2 addition) off.
	r := s.do("POST", "/v1/products", map[string]any{"urls": urls[:1]})
	if r.status != 200 {
		t.Fatalf("v1 start: %d %s", r.status, r.raw)
	}
	b := s.waitEnded("/v1/products/"+r.body["execution_id"].(string), time.Minute)
	v1 := field(b, "results", "products").([]any)[0].(map[string]any)["product"].(map[string]any)
	if v1["average_rating"] != items[0]["product"].(map[string]any)["average_rating"] || v1["reviews"] == nil {
		t.Errorf("v1 default: reviews %v %v, want them rendered", v1["average_rating"], v1["reviews"])
	}
	if v, ok := v1["similar_products"]; !ok || v != nil {
		t.Errorf("v1 default: similar_products %v (present %v), want present and null", v, ok)
	}
	// The same products without the flag: the fields are there and null.
	for _, it := range s.extractV2(urls[:2], nil) {
		p := it["product"].(map[string]any)
		for _, k := range []string{"average_rating", "rating_scale", "review_count", "reviews", "similar_products"} {
			if v, ok := p[k]; !ok || v != nil {
				t.Errorf("flags off: %s = %v (present %v), want present and null", k, v, ok)
			}
		}
	}
}

// Similar products are the catalog's nearest products, looked up when the results are
// read: an extraction read again after the catalog grew shows the newcomers, a product
// is never similar to itself, and each entry names a real catalog product.
func TestSimilarProductsComeFromTheCatalogAsItGrows(t *testing.T) {
	s := newStack(t, demostore.Options{Kind: demostore.JSONLD, Products: 30})
	st := s.fleet.Get(demostore.JSONLD)
	// Products 13 and 16 are Alder Ridge aluminium rain shells.
	first := st.URL(st.ProductPath(13))
	r := s.do("POST", "/v2/extract", map[string]any{"urls": []string{first}, "enable_similar_products": true})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	alone := "/v2/extract/" + r.body["execution_id"].(string)
	b := s.waitEnded(alone, time.Minute)
	lone := field(b["data"].([]any)[0].(map[string]any), "product").(map[string]any)
	if sim, ok := lone["similar_products"].([]any); !ok || len(sim) != 0 {
		t.Fatalf("the only product of the catalog: similar_products %v, want []", lone["similar_products"])
	}

	var urls []string
	for i := range 30 {
		urls = append(urls, st.URL(st.ProductPath(i)))
	}
	items := s.extractV2(urls, map[string]any{"enable_similar_products": true})
	byID := map[string]map[string]any{}
	for _, it := range items {
		p := it["product"].(map[string]any)
		byID[p["id"].(string)] = p
	}
	withSimilar := 0
	for _, it := range items {
		p := it["product"].(map[string]any)
		sim, ok := p["similar_products"].([]any)
		if !ok || len(sim) > 5 {
			t.Fatalf("%s: similar_products %v, want a list of at most 5", p["url"], p["similar_products"])
		}
		if len(sim) > 0 {
			withSimilar++
		}
		last := math.Inf(1)
		for _, x := range sim {
			e := x.(map[string]any)
			if e["id"] == p["id"] {
				t.Errorf("%s is similar to itself", p["url"])
			}
			other, ok := byID[e["id"].(string)]
			if !ok || other["url"] != e["url"] || other["title"] != e["title"] || other["brand"] != e["brand"] {
				t.Errorf("%s: similar entry %v is not the catalog's product %v", p["url"], e, other)
			}
			score := e["similarity"].(float64)
			if score <= 0 || score > 1 || score > last {
				t.Errorf("%s: similarity %v out of (0, 1] or out of order", p["url"], score)
			}
			last = score
		}
	}
	if withSimilar == 0 {
		t.Fatal("no product of 30 has a similar one")
	}

	// The first extraction, read again, now sees its sibling rain shell.
	b = s.waitEnded(alone, time.Minute)
	lone = field(b["data"].([]any)[0].(map[string]any), "product").(map[string]any)
	sim, _ := lone["similar_products"].([]any)
	sibling := st.URL(st.ProductPath(16))
	found := false
	for _, x := range sim {
		if x.(map[string]any)["url"] == sibling {
			found = true
		}
	}
	if !found {
		t.Errorf("read again after the catalog grew: similar_products %v, want %s among them", sim, sibling)
	}
}
