package document_test

import (
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/enrich"
	"github.com/stockroom/stockroom/plugins/document"
)

// The host reads a page's reviews from its JSON-LD and its microdata alike, both in
// JSON-LD's shape.
func TestStructuredDataFeedsReviewsFromJSONLDAndMicrodata(t *testing.T) {
	jsonld := &adapter.Document{URL: "https://a.example/p", Status: 200, Body: []byte(`<html><head>
	<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"A"},
	 {"@type":"Product","name":"Mug","aggregateRating":{"@type":"AggregateRating","ratingValue":"4.6","reviewCount":"12"}}]}</script>
	</head><body></body></html>`)}
	microdata := &adapter.Document{URL: "https://b.example/p", Status: 200, Body: []byte(`<html><body>
	<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">Lamp</h1>
	 <div itemprop="aggregateRating" itemscope itemtype="http://schema.org/AggregateRating">
	  <span itemprop="ratingValue">8</span>/<span itemprop="bestRating">10</span> from <span itemprop="ratingCount">1,204</span></div>
	 <div itemprop="review" itemscope itemtype="http://schema.org/Review"><span itemprop="name">Bright</span>
	  <span itemprop="author">Ana</span><meta itemprop="datePublished" content="2025-02-03">
	  <div itemprop="reviewRating" itemscope itemtype="http://schema.org/Rating"><meta itemprop="ratingValue" content="9"></div>
	  <p itemprop="reviewBody">Lights the desk.</p></div></div></body></html>`)}
	none := &adapter.Document{URL: "https://c.example/p", Status: 200, Body: []byte(`<html><body><h1>Plain</h1></body></html>`)}

	if got := document.StructuredData(none); len(got) != 0 {
		t.Errorf("a page without structured data: %v", got)
	}
	r := enrich.ReviewsFromJSONLD(document.StructuredData(jsonld))
	if r == nil || *r.AverageRating != 4.6 || *r.ReviewCount != 12 {
		t.Fatalf("JSON-LD page reviews: %+v", r)
	}
	r = enrich.ReviewsFromJSONLD(document.StructuredData(microdata))
	if r == nil || r.AverageRating == nil || *r.AverageRating != 8 || *r.RatingScale != 10 || *r.ReviewCount != 1204 {
		t.Fatalf("microdata page aggregate: %+v", r)
	}
	if len(r.Reviews) != 1 || *r.Reviews[0].Title != "Bright" || *r.Reviews[0].ReviewerName != "Ana" ||
		*r.Reviews[0].Date != "2025-02-03" || *r.Reviews[0].Rating != 9 || *r.Reviews[0].Content != "Lights the desk." {
		t.Errorf("microdata page reviews: %+v", r.Reviews)
	}
}
