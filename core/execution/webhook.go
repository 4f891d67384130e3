package execution

import "encoding/json"

// Webhook is a start's request to be told of the execution's end (core/webhook sends it):
// its receiver, the events it wants (empty for both of the kind's) and metadata echoed in
// every event. Secret signs what is sent; it is made at the start and shown once.
//
// A start with a webhook records it in the start's transaction; a crawl start answered with
// an active crawl attaches it to that crawl.
type Webhook struct {
	URL      string
	Events   []string
	Metadata json.RawMessage
	Secret   string
}
