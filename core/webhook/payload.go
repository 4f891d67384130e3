package webhook

import (
	"encoding/json"
	"math"
	"time"

	"github.com/stockroom/stockroom/core/execution"
)

// Payload is the JSON body of every delivery, in the envelope the Standard Webhooks
// specification suggests: what happened, when, and its data.
type Payload struct {
	Type      Event  `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      Data   `json:"data"`
}

// Data describes the execution that ended.
type Data struct {
	ExecutionID string `json:"execution_id"`
	// Status is "completed" or "failed" (canceled executions fail with Error "canceled").
	Status    execution.Status `json:"status"`
	Error     *string          `json:"error"`
	CreatedAt string           `json:"created_at"`
	StopDate  *string          `json:"stop_date"`
	// Counts are the whole numbers the execution reported: its result's when it
	// completed, its last progress's when it failed (empty when it never reported).
	Counts map[string]int64 `json:"counts"`
	// Metadata is what the receiver was registered or requested with, as given; null
	// when none.
	Metadata json.RawMessage `json:"metadata"`
}

// NewPayload describes execution e, which has just ended; lastProgress is its progress
// document just before the end. metadata is the receiver's.
func NewPayload(e execution.Execution, lastProgress json.RawMessage, metadata json.RawMessage) (Payload, bool) {
	event, ok := EventOf(e.Kind, e.Status)
	if !ok {
		return Payload{}, false
	}
	counted := lastProgress
	if e.Status == execution.Completed {
		counted = e.Result
	}
	stopped := time.Now().UTC()
	if e.StoppedAt != nil {
		stopped = e.StoppedAt.UTC()
	}
	stop := stopped.Format(time.RFC3339Nano)
	if len(metadata) == 0 {
		metadata = json.RawMessage("null")
	}
	data := Data{
		ExecutionID: e.ID,
		Status:      e.Status,
		CreatedAt:   e.CreatedAt.UTC().Format(time.RFC3339Nano),
		StopDate:    &stop,
		Counts:      countsOf(counted),
		Metadata:    metadata,
	}
	if e.Error != "" {
		data.Error = &e.Error
	}
	return Payload{Type: event, Timestamp: stop, Data: data}, true
}

// countsOf keeps the top-level whole numbers of a JSON object: the counts every kind's
// result and progress documents hold (listings_total, products_successful, ...).
func countsOf(doc json.RawMessage) map[string]int64 {
	counts := map[string]int64{}
	var fields map[string]any
	if json.Unmarshal(doc, &fields) != nil {
		return counts
	}
	for name, v := range fields {
		if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			counts[name] = int64(f)
		}
	}
	return counts
}
