package enrich_test

import (
	"encoding/json"
	"fmt"

	"github.com/stockroom/stockroom/core/enrich"
	"github.com/stockroom/stockroom/core/product"
)

func ExampleEnrich() {
	title := "Women's Chelsea Boot - Black"
	desc := "<p>Pull-on boot in full-grain leather.</p><ul><li>Elastic side panels</li><li>Rubber sole</li></ul>"
	p := &product.Product{Title: &title, DescriptionHTML: &desc, Tags: []string{"Winter"}}

	r := enrich.Enrich(p, enrich.Evidence{})
	fmt.Println(*r.CategoryID, *r.CategoryPath)
	fmt.Println(*r.ProductType)
	a := r.Attributes
	fmt.Println(*a.Gender, *a.AgeGroup, *a.Color.Family, a.Material.Primary, *a.ClosureType, a.Season, a.Features)
	// Output:
	// 187 Apparel & Accessories > Shoes
	// Shoes
	// female adult black leather slip-on [winter] [Elastic side panels Rubber sole]
}

func ExampleReviewsFromJSONLD() {
	var doc any
	_ = json.Unmarshal([]byte(`{"@type":"Product","aggregateRating":{"ratingValue":"4.6","reviewCount":"1,024"}}`), &doc)
	r := enrich.ReviewsFromJSONLD([]any{doc})
	fmt.Println(*r.AverageRating, *r.RatingScale, *r.ReviewCount)
	// Output: 4.6 5 1024
}

func ExampleImageTags() {
	alt := "Navy, back view"
	p := &product.Product{Images: []product.Image{{URL: "https://cdn.example.com/boot-side.jpg", AltText: &alt}}}
	fmt.Println(enrich.ImageTags(p))
	// Output: map[https://cdn.example.com/boot-side.jpg:[back blue navy side]]
}
