package server

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
)

// Shapes and parameters shared by every kind of execution.

// listFilter reads `status` and the size parameter of an execution list.
func listFilter(c *fiber.Ctx, bounds pageBounds) ([]execution.Status, int, error) {
	statuses, ok := execution.ParseListFilter(c.Query("status"))
	if !ok {
		return nil, 0, failure.OutOfRange("status", "must be processing, completed or failed, got %q", c.Query("status"))
	}
	req, err := pageOf(query{c}, bounds)
	if err != nil {
		return nil, 0, err
	}
	return statuses, req.Size, nil
}

type executionSummary struct {
	ExecutionID string `json:"execution_id"`
	Status      string `json:"status"`
	CreatedAt   string `json:"created_at"`
}

func summaryJSON(e execution.Execution) executionSummary {
	return executionSummary{e.ID, e.Status.ListStatus(), timestamp(e.CreatedAt)}
}

// executionsV1 is v1's list shape.
func executionsV1(list []execution.Execution) any {
	return struct {
		Executions []executionSummary `json:"executions"`
	}{mapItems(list, summaryJSON)}
}

// executionsV2 is v2's list shape: always one page holding everything returned.
func executionsV2(list []execution.Execution) any {
	n := len(list)
	return listV2[executionSummary, emptyMeta]{
		Data:       mapItems(list, summaryJSON),
		Pagination: paginationV2{Page: 1, PageSize: n, TotalItems: n, TotalPages: 1},
		Meta:       emptyMeta{},
	}
}

// canceledJSON is the answer to every DELETE of an execution.
func canceledJSON(e execution.Execution) any {
	stop := ""
	if e.StoppedAt != nil {
		stop = timestamp(*e.StoppedAt)
	}
	return struct {
		Status      string `json:"status"`
		ExecutionID string `json:"execution_id"`
		StopDate    string `json:"stop_date"`
	}{"canceled", e.ID, stop}
}

// startedV1 and startedV2 are the two generations' answers to a start.
// startedV1 answers a v1 start; a start with a webhook also gets its signing secret,
// shown this once.
func startedV1(c *fiber.Ctx, id string, hook *execution.Webhook) error {
	return c.JSON(struct {
		Success       bool    `json:"success"`
		ExecutionID   string  `json:"execution_id"`
		WebhookSecret *string `json:"webhook_secret,omitempty"`
	}{true, id, webhookSecret(hook)})
}

// startedV2 answers a v2 start; a start with a webhook also gets its signing secret in
// meta.webhook_secret, shown this once.
func startedV2(c *fiber.Ctx, id string, credits int64, hook *execution.Webhook, extra map[string]any) error {
	meta := map[string]any{"credits_used": credits, "request_id": requestID(c)}
	for k, v := range extra {
		meta[k] = v
	}
	if secret := webhookSecret(hook); secret != nil {
		meta["webhook_secret"] = *secret
	}
	return c.Status(fiber.StatusAccepted).JSON(struct {
		ExecutionID string         `json:"execution_id"`
		Status      string         `json:"status"`
		Meta        map[string]any `json:"meta"`
	}{id, string(execution.Pending), meta})
}

func timeOrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(*t)
	return &s
}

func durationMillis(d *time.Duration) *int64 {
	if d == nil {
		return nil
	}
	ms := d.Milliseconds()
	return &ms
}
