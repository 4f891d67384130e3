package enrich

import (
	"encoding/json"
	"testing"
)

func decode(t *testing.T, docs ...string) []any {
	t.Helper()
	var out []any
	for _, d := range docs {
		var v any
		if err := json.Unmarshal([]byte(d), &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func TestReviewsFromJSONLD(t *testing.T) {
	doc := `{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Shop"},
	 {"@type":"Product","name":"Boot",
	  "aggregateRating":{"@type":"AggregateRating","ratingValue":"8,6","bestRating":"10","reviewCount":"1,204"},
	  "review":[
	   {"@type":"Review","name":"Great","reviewRating":{"ratingValue":5,"bestRating":5},"author":{"@type":"Person","name":"Ana"},
	    "datePublished":"2024-03-05T10:00:00+01:00","reviewBody":"<p>Fits <b>well</b>.</p>"},
	   {"@type":"Review","reviewRating":{"ratingValue":"9"},"author":"Bo","datePublished":"March 7, 2024","reviewBody":"Warm."},
	   {"@type":"Review","author":"Nobody"}]}]}`
	r := ReviewsFromJSONLD(decode(t, doc))
	if r == nil {
		t.Fatal("nil reviews")
	}
	if *r.AverageRating != 8.6 || *r.RatingScale != 10 || *r.ReviewCount != 1204 {
		t.Errorf("aggregate = %v/%v (%v)", *r.AverageRating, *r.RatingScale, *r.ReviewCount)
	}
	if len(r.Reviews) != 2 {
		t.Fatalf("reviews = %d, want 2 (the empty one dropped)", len(r.Reviews))
	}
	a := r.Reviews[0]
	if *a.Rating != 10 || *a.ReviewerName != "Ana" || *a.Date != "2024-03-05" || *a.Content != "Fits well." || *a.Title != "Great" {
		t.Errorf("first review = %+v", a)
	}
	// A review without its own bestRating is on the aggregate's scale.
	b := r.Reviews[1]
	if b.Rating == nil || *b.Rating != 9 {
		t.Errorf("second rating = %v, want 9", b.Rating)
	}
	if *b.Date != "2024-03-07" || b.Title != nil {
		t.Errorf("second review = %+v", b)
	}
}

func TestReviewsAbsentWithoutRatingData(t *testing.T) {
	if r := ReviewsFromJSONLD(decode(t, `{"@type":"Product","name":"X","offers":{"price":"3"}}`)); r != nil {
		t.Fatalf("reviews = %+v, want nil", r)
	}
	if r := ReviewsFromJSONLD(nil); r != nil {
		t.Fatalf("reviews = %+v, want nil", r)
	}
}

func TestNormalizeRating(t *testing.T) {
	cases := []struct {
		value, best, worst any
		rating, scale      float64
		ok                 bool
	}{
		{4.5, nil, nil, 4.5, 5, true},
		{"4,5", nil, nil, 4.5, 5, true},
		{"4.5 out of 5", nil, nil, 4.5, 5, true},
		{"9/10", nil, nil, 9, 10, true},
		{"92%", nil, nil, 92, 100, true},
		{"3", "10", "0", 3, 10, true},
		{"6", nil, nil, 0, 0, false},
		{"great", nil, nil, 0, 0, false},
		{nil, nil, nil, 0, 0, false},
	}
	for _, c := range cases {
		r, s, ok := NormalizeRating(c.value, c.best, c.worst)
		if r != c.rating || s != c.scale || ok != c.ok {
			t.Errorf("NormalizeRating(%v, %v, %v) = %v %v %v, want %v %v %v", c.value, c.best, c.worst, r, s, ok, c.rating, c.scale, c.ok)
		}
	}
}

func TestParseCountAndDate(t *testing.T) {
	for in, want := range map[any]int{float64(12): 12, "12": 12, "1,234": 1234, "1.234": 1234, "(87 reviews)": 87} {
		if n, ok := ParseCount(in); !ok || n != want {
			t.Errorf("ParseCount(%v) = %v %v, want %v", in, n, ok, want)
		}
	}
	if _, ok := ParseCount("none"); ok {
		t.Error("ParseCount(none) ok")
	}
	for in, want := range map[string]string{"2024-01-31": "2024-01-31", "2024-01-31T23:30:00-05:00": "2024-01-31",
		"31.01.2024": "2024-01-31", "Jan 31, 2024": "2024-01-31", "yesterday": ""} {
		if got := NormalizeDate(in); got != want {
			t.Errorf("NormalizeDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPropertiesFromJSONLD(t *testing.T) {
	doc := `[{"@type":"BreadcrumbList"},{"@type":["Product"],"color":"Navy","material":"Cotton",
	 "audience":{"@type":"PeopleAudience","suggestedGender":"female"},
	 "additionalProperty":[{"@type":"PropertyValue","name":"Weight","value":250,"unitText":"g"},{"name":"Fit","value":"Slim"}]}]`
	got := PropertiesFromJSONLD(decode(t, doc))
	want := []Property{{"color", "Navy"}, {"material", "Cotton"}, {"suggestedGender", "female"}, {"Weight", "250 g"}, {"Fit", "Slim"}}
	if len(got) != len(want) {
		t.Fatalf("properties = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("property %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A ProductGroup is a product with variants: its rating is the product's, even though the
// variants (hasVariant Products) come after it and carry none.
func TestReviewsOfAProductGroup(t *testing.T) {
	doc := `{"@context":"https://schema.org","@type":"ProductGroup","name":"Tee",
	 "aggregateRating":{"@type":"AggregateRating","ratingValue":4.2,"reviewCount":31},
	 "review":[{"@type":"Review","name":"Soft","reviewRating":{"ratingValue":4},"author":"Cy"}],
	 "hasVariant":[{"@type":"Product","name":"Tee - S","offers":{"price":"10"}}]}`
	r := ReviewsFromJSONLD(decode(t, doc))
	if r == nil || r.AverageRating == nil || *r.AverageRating != 4.2 || *r.ReviewCount != 31 || len(r.Reviews) != 1 {
		t.Fatalf("reviews = %+v, want 4.2 of 31 with one review", r)
	}
}
