package execution

import "context"

// Starter begins executions. A start records the execution as pending, takes what it
// costs from its organization's balance and queues its job, in one transaction: it does
// all of these or none, so that a start that fails leaves neither an execution, a charge
// nor a job behind, and no execution waits for a job that was never queued.
//
// Crawls, extractions and searches all start through it; storage implements it.
type Starter interface {
	// Start begins e, charging e.CreditsUsed to e.OrganizationID. items, when given, are
	// the execution's inputs, recorded in order (the URLs of an extraction).
	//
	// A crawl of a vendor that already has an active crawl is not started: Start fails
	// with *ActiveError naming that crawl and charges nothing; when that crawl is another
	// organization's, e's organization joins it. A balance that cannot pay fails with
	// access.ErrInsufficientCredits.
	Start(ctx context.Context, e Execution, items []string) error
}
