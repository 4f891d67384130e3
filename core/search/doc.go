// Package search answers natural-language product queries over the catalog: it understands
// the query and the customer profile, retrieves candidates, ranks them, relaxes soft
// constraints when too few match (never the hard ones), and says why each result is there.
//
// This comment is a tour of the package. RULES.md documents how queries and profiles are
// read, which constraints are hard, the relaxation order and the ranking weights;
// RATIONALE.md keeps the measurements behind the tuning.
//
// # Asking
//
// A Service implements API, which is everything the HTTP layer calls. A search either
// runs as an execution (kind agentic_search) with steps the client can watch, or runs
// while the caller waits:
//
//	started, err := searches.Start(ctx, organizationID, search.Request{Query: "waterproof boots under $150"})
//	answer, credits, err := searches.Mini(ctx, organizationID, search.Request{Query: "waterproof boots under $150, not black"})
//	for _, hit := range answer.Hits {
//		fmt.Println(*hit.Product.Product.Title, hit.Score, hit.Reasons) // reasons such as "under $150"
//	}
//
// Search is the synchronous search of v1; Mini returns at most MaxMiniResults results from a
// smaller candidate pool; Filter is legacy /api/search, the query plus structured filters.
//
// The work is done by a Pipeline, over a Store that storage/postgres implements:
//
//	pipeline := search.NewPipeline(store, products, executions, runner, search.PipelineOptions{})
//	// job queue handlers: execution.AgenticSearch -> pipeline.Run
//	pipeline.Preload(ctx) // read the catalog's vocabulary before the first search
//
// # Understanding
//
// The query is read deterministically (understand.go): price bounds, sizes, spelling
// corrections against the catalog's own vocabulary, then phrases such as "in stock",
// colours, materials, brands and exclusions ("not black"). The customer profile is read
// into preferences and avoidances (profile.go). When PipelineOptions.Planner is set, a
// language model is asked too, and its reading is merged in; any failure of it falls back
// to the deterministic reading alone.
//
// # Retrieving
//
// Retrieval asks the Store for candidates that pass every hard constraint (price bounds,
// availability, exclusions, the client's filters), among the products and, when they may
// be results, among the listings. It asks first for products naming the
// query's head term ("boots"). Only when that leaves ranking too little to choose from
// does it ask again for products matching any of the query's words, and only for words
// that neither the catalog nor spelling correction knows does it fall back to trigram
// similarity of titles, which costs the most.
//
// # Listings
//
// The catalog a search covers is the extracted products and the crawled listings that no
// extraction has replaced. A listing shows little (a name, a price, images, a vendor, its
// collections), so it is a candidate only when the query's hard constraints can all be
// checked on it, which leaves the vendor filter alone; it is ranked on what it shows, and
// served as a product built from it, marked SourceListing, until an extraction replaces it.
//
// # Ranking and relaxing
//
// Ranking (rank.go) scores each candidate on the query's soft constraints and the
// profile's preferences, keeps results diverse across vendors, and records the reasons a
// client can show. When fewer than min(limit, MinResults) candidates meet every soft
// constraint, soft constraints are dropped one at a time in a fixed order until enough
// do; Answer.Relaxed names the ones dropped. Hard constraints are never relaxed. A
// planner, when there is one, may then reorder the results, but never add or drop one.
package search
