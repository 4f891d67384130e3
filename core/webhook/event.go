package webhook

import (
	"slices"

	"github.com/stockroom/stockroom/core/execution"
)

// Event names what happened: an execution of a kind completed or failed.
type Event string

// Events, one pair per kind of asynchronous execution. A v1 product batch is an extraction.
const (
	CrawlCompleted         Event = "crawl.completed"
	CrawlFailed            Event = "crawl.failed"
	ExtractCompleted       Event = "extract.completed"
	ExtractFailed          Event = "extract.failed"
	AgenticSearchCompleted Event = "agentic_search.completed"
	AgenticSearchFailed    Event = "agentic_search.failed"
)

// AllEvents lists every event, in the order documentation shows them.
var AllEvents = []Event{CrawlCompleted, CrawlFailed, ExtractCompleted, ExtractFailed, AgenticSearchCompleted, AgenticSearchFailed}

// eventPrefix is the name events give each kind of execution.
var eventPrefix = map[execution.Kind]string{
	execution.Crawl:         "crawl",
	execution.ProductsBatch: "extract",
	execution.Extract:       "extract",
	execution.AgenticSearch: "agentic_search",
}

// EventOf is the event of an execution that ended with status; ok is false for a kind
// that has no events or a status that is not an end.
func EventOf(kind execution.Kind, status execution.Status) (Event, bool) {
	prefix, known := eventPrefix[kind]
	if !known || !status.Ended() {
		return "", false
	}
	return Event(prefix + "." + string(status)), true
}

// eventsOfKind lists the events an execution of kind can send.
func eventsOfKind(kind execution.Kind) []Event {
	completed, _ := EventOf(kind, execution.Completed)
	failed, _ := EventOf(kind, execution.Failed)
	return []Event{completed, failed}
}

// Wants reports whether a receiver that asked for events (none meaning all) wants event.
func Wants(events []string, event Event) bool {
	return len(events) == 0 || slices.Contains(events, string(event))
}
