package product

// Reviews is what a product page's own structured data says about its ratings and reviews,
// normalized (core/enrich builds it; api-decisions.md, "Reviews"). It is captured at
// extraction time with the rest of the product, whatever the flags, and rendered only when
// an extraction asks for reviews.
type Reviews struct {
	// AverageRating is on the page's own scale, RatingScale (the aggregate's bestRating,
	// 5 when the page does not say).
	AverageRating *float64 `json:"average_rating"`
	RatingScale   *float64 `json:"rating_scale"`
	// ReviewCount is the aggregate's reviewCount, else its ratingCount; null when the page
	// states neither (the reviews listed on a page are usually only the first few).
	ReviewCount *int     `json:"review_count"`
	Reviews     []Review `json:"reviews"`
}

// Review is one review. Rating is on its block's RatingScale; Date is YYYY-MM-DD when the
// page's date parses, else null.
type Review struct {
	Title        *string  `json:"title"`
	Rating       *float64 `json:"rating"`
	ReviewerName *string  `json:"reviewer_name"`
	Date         *string  `json:"date"`
	Content      *string  `json:"content"`
}
