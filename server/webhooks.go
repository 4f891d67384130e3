package server

import (
	"encoding/json"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/webhook"
)

var errWebhooksOff = &failure.Error{Kind: failure.Unavailable, Message: "webhooks are not configured on this server"}

// deliveriesPage pages a webhook's deliveries.
var deliveriesPage = pageBounds{DefaultSize: 20, MaxSize: 100}

// webhookRequest reads {url, events, metadata}.
func webhookRequest(b body) (webhook.Request, error) {
	var r webhook.Request
	var err error
	if r.URL, err = b.String("url"); err != nil {
		return r, err
	}
	if r.Events, err = b.Strings("events"); err != nil {
		return r, err
	}
	metadata, _, err := b.field("metadata")
	r.Metadata = metadata
	return r, err
}

// startWebhook reads the webhook a start of kind may carry, nil when it has none.
func (s *Server) startWebhook(b body, kind execution.Kind) (*execution.Webhook, error) {
	w, err := b.Object("webhook")
	if err != nil || w == nil {
		return nil, err
	}
	if s.webhooks == nil {
		return nil, errWebhooksOff
	}
	r, err := webhookRequest(w)
	if err != nil {
		return nil, within("webhook", err)
	}
	return s.webhooks.Subscription(kind, "webhook", r)
}

// webhookSecret is the secret a start's answer shows, nil without a webhook.
func webhookSecret(hook *execution.Webhook) *string {
	if hook == nil {
		return nil
	}
	return &hook.Secret
}

type endpointJSON struct {
	ID        string          `json:"id"`
	URL       string          `json:"url"`
	Events    []string        `json:"events"`
	Metadata  json.RawMessage `json:"metadata"`
	CreatedAt string          `json:"created_at"`
	// Secret is shown in the answer to the creation only.
	Secret string `json:"secret,omitempty"`
}

func endpointOf(e webhook.Endpoint) endpointJSON {
	events := e.Events
	if events == nil {
		events = []string{}
	}
	metadata := e.Metadata
	if len(metadata) == 0 {
		metadata = json.RawMessage("null")
	}
	return endpointJSON{ID: e.ID, URL: e.URL, Events: events, Metadata: metadata, CreatedAt: timestamp(e.CreatedAt)}
}

type attemptJSON struct {
	Attempt        int     `json:"attempt"`
	AttemptedAt    string  `json:"attempted_at"`
	DurationMS     float64 `json:"duration_ms"`
	ResponseStatus *int    `json:"response_status"`
	Error          *string `json:"error"`
}

type deliveryJSON struct {
	ID            string        `json:"id"`
	EndpointID    *string       `json:"endpoint_id"`
	ExecutionID   string        `json:"execution_id"`
	Event         webhook.Event `json:"event"`
	URL           string        `json:"url"`
	Status        string        `json:"status"`
	CreatedAt     string        `json:"created_at"`
	DeliveredAt   *string       `json:"delivered_at"`
	NextAttemptAt *string       `json:"next_attempt_at"`
	Attempts      []attemptJSON `json:"attempts"`
}

func deliveryOf(d webhook.Delivery) deliveryJSON {
	out := deliveryJSON{ID: d.ID, EndpointID: nilIfEmpty(d.EndpointID), ExecutionID: d.ExecutionID, Event: d.Event, URL: d.URL,
		Status: string(d.Status), CreatedAt: timestamp(d.CreatedAt), DeliveredAt: timeOrNil(d.DeliveredAt),
		Attempts: make([]attemptJSON, len(d.Attempts))}
	if d.Status == webhook.Pending {
		out.NextAttemptAt = timeOrNil(d.NextAttemptAt)
	}
	for i, a := range d.Attempts {
		ms := math.Round(float64(a.Duration)/float64(time.Millisecond)*1000) / 1000
		out.Attempts[i] = attemptJSON{Attempt: i + 1, AttemptedAt: timestamp(a.At), DurationMS: ms, Error: nilIfEmpty(a.Error)}
		if a.StatusCode != 0 {
			out.Attempts[i].ResponseStatus = &a.StatusCode
		}
	}
	return out
}

// webhookCreate is POST /v2/webhooks: 201 with the endpoint and its secret, shown once.
func (s *Server) webhookCreate(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	r, err := webhookRequest(b)
	if err != nil {
		return err
	}
	e, err := s.webhooks.Create(c.UserContext(), principal(c).OrganizationID, r)
	if err != nil {
		return err
	}
	out := endpointOf(e)
	out.Secret = e.Secret
	return c.Status(fiber.StatusCreated).JSON(out)
}

// webhookList is GET /v2/webhooks: every endpoint of the organization, on one page.
func (s *Server) webhookList(c *fiber.Ctx) error {
	list, err := s.webhooks.List(c.UserContext(), principal(c).OrganizationID)
	if err != nil {
		return err
	}
	all := page.Result[webhook.Endpoint]{Items: list, Request: page.Request{Number: 1, Size: max(len(list), 1)}, TotalItems: len(list)}
	return c.JSON(v2List(all, endpointOf, struct{}{}))
}

func (s *Server) webhookGet(c *fiber.Ctx) error {
	e, err := s.webhooks.Get(c.UserContext(), principal(c).OrganizationID, c.Params("webhook_id"))
	if err != nil {
		return err
	}
	return c.JSON(endpointOf(e))
}

// webhookDelete is DELETE /v2/webhooks/{id}: its deliveries still waiting are dropped.
func (s *Server) webhookDelete(c *fiber.Ctx) error {
	id := c.Params("webhook_id")
	if err := s.webhooks.Delete(c.UserContext(), principal(c).OrganizationID, id); err != nil {
		return err
	}
	return c.JSON(struct {
		ID      string `json:"id"`
		Deleted bool   `json:"deleted"`
	}{id, true})
}

// webhookDeliveries is GET /v2/webhooks/{id}/deliveries, newest first.
func (s *Server) webhookDeliveries(c *fiber.Ctx) error {
	req, err := pageOf(query{c}, deliveriesPage)
	if err != nil {
		return err
	}
	r, err := s.webhooks.Deliveries(c.UserContext(), principal(c).OrganizationID, c.Params("webhook_id"), req)
	if err != nil {
		return err
	}
	return c.JSON(v2List(r, deliveryOf, struct{}{}))
}

// executionDeliveries is GET /v2/webhooks/deliveries?execution_id=: the organization's
// deliveries of one execution, to its starts' webhooks and to its endpoints.
func (s *Server) executionDeliveries(c *fiber.Ctx) error {
	id, err := query{c}.String("execution_id")
	if err != nil {
		return err
	}
	if id == "" {
		return failure.Missing("execution_id")
	}
	req, err := pageOf(query{c}, deliveriesPage)
	if err != nil {
		return err
	}
	r, err := s.webhooks.ExecutionDeliveries(c.UserContext(), principal(c).OrganizationID, id, req)
	if err != nil {
		return err
	}
	return c.JSON(v2List(r, deliveryOf, struct{}{}))
}
