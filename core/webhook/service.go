package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/page"
)

// Limits of what a receiver is registered or requested with.
const (
	MaxURLLength     = 2048
	MaxMetadataBytes = 4096
	// MaxEndpoints bounds the endpoints of one organization: every execution's end is
	// sent to each of them.
	MaxEndpoints = 20
)

// ErrNotFound is an endpoint that does not exist or is another organization's.
var ErrNotFound = errors.New("webhook endpoint not found")

// Request is what a client asks to be sent: where, which events (none meaning all of
// them) and metadata to echo.
type Request struct {
	URL      string
	Events   []string
	Metadata json.RawMessage
}

// Endpoint is an organization's registered receiver.
type Endpoint struct {
	ID             string
	OrganizationID string
	URL            string
	Events         []string
	Metadata       json.RawMessage
	// Secret signs what the endpoint is sent. Reads of the endpoint do not show it.
	Secret    string
	CreatedAt time.Time
}

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

const (
	// Pending deliveries have not reached their receiver yet and will be tried again.
	Pending DeliveryStatus = "pending"
	// Succeeded deliveries were answered 2xx.
	Succeeded DeliveryStatus = "succeeded"
	// Failed deliveries ran out of attempts (or their receiver cannot be reached at all).
	Failed DeliveryStatus = "failed"
)

// Delivery is one event on its way to one receiver, and every attempt made at it.
type Delivery struct {
	// ID is the message's webhook-id.
	ID string
	// EndpointID is the registered endpoint's id; empty for a start request's webhook.
	EndpointID    string
	ExecutionID   string
	Event         Event
	URL           string
	Status        DeliveryStatus
	CreatedAt     time.Time
	DeliveredAt   *time.Time
	NextAttemptAt *time.Time
	Attempts      []Attempt
}

// DeliveryQuery selects an organization's deliveries: of an endpoint, of an execution,
// or both. Newest first.
type DeliveryQuery struct {
	OrganizationID string
	EndpointID     string
	ExecutionID    string
	Page           page.Request
}

// Store keeps endpoints and reads deliveries; storage implements it. Deliveries are
// written where executions end (see the package documentation).
type Store interface {
	// CreateEndpoint adds e unless its organization already has max endpoints, in which
	// case ok is false.
	CreateEndpoint(ctx context.Context, e Endpoint, max int) (ok bool, err error)
	// Endpoints lists an organization's endpoints, oldest first.
	Endpoints(ctx context.Context, organizationID string) ([]Endpoint, error)
	// Endpoint returns one endpoint of the organization, or ErrNotFound.
	Endpoint(ctx context.Context, organizationID, id string) (Endpoint, error)
	// DeleteEndpoint removes it with its deliveries, or returns ErrNotFound.
	DeleteEndpoint(ctx context.Context, organizationID, id string) error
	Deliveries(ctx context.Context, q DeliveryQuery) (page.Result[Delivery], error)
}

// URLChecker refuses a receiver URL that can be judged unsafe before it is looked up;
// *fetch.Guard implements it. What a name resolves to is judged again at each attempt.
type URLChecker interface {
	CheckURL(raw string) error
}

// Service registers endpoints, makes start requests' webhooks and reads deliveries.
type Service struct {
	store   Store
	checker URLChecker
}

// NewService returns a Service over store whose receivers checker accepts.
func NewService(store Store, checker URLChecker) *Service {
	return &Service{store: store, checker: checker}
}

// Subscription checks the webhook of a start of kind (param names its field, "webhook")
// and gives it its secret.
func (s *Service) Subscription(kind execution.Kind, param string, r Request) (*execution.Webhook, error) {
	if err := s.check(param, r, eventsOfKind(kind)); err != nil {
		return nil, err
	}
	secret, err := NewSecret()
	if err != nil {
		return nil, err
	}
	return &execution.Webhook{URL: r.URL, Events: dedupe(r.Events), Metadata: r.Metadata, Secret: secret}, nil
}

// Create registers an endpoint of the organization. The endpoint returned carries its
// secret, which no later read shows.
func (s *Service) Create(ctx context.Context, organizationID string, r Request) (Endpoint, error) {
	if err := s.check("", r, AllEvents); err != nil {
		return Endpoint{}, err
	}
	secret, err := NewSecret()
	if err != nil {
		return Endpoint{}, err
	}
	e := Endpoint{ID: uuid.NewString(), OrganizationID: organizationID, URL: r.URL, Events: dedupe(r.Events),
		Metadata: r.Metadata, Secret: secret, CreatedAt: time.Now().UTC()}
	ok, err := s.store.CreateEndpoint(ctx, e, MaxEndpoints)
	if err != nil {
		return Endpoint{}, err
	}
	if !ok {
		return Endpoint{}, &failure.Error{Kind: failure.Validation,
			Message: fmt.Sprintf("an organization has at most %d webhook endpoints; delete one first", MaxEndpoints)}
	}
	return e, nil
}

// List returns the organization's endpoints, oldest first, without their secrets.
func (s *Service) List(ctx context.Context, organizationID string) ([]Endpoint, error) {
	return s.store.Endpoints(ctx, organizationID)
}

// Get returns one endpoint of the organization without its secret.
func (s *Service) Get(ctx context.Context, organizationID, id string) (Endpoint, error) {
	e, err := s.store.Endpoint(ctx, organizationID, id)
	if errors.Is(err, ErrNotFound) {
		return e, failure.NotFoundf("webhook endpoint %s not found", id)
	}
	return e, err
}

// Delete removes an endpoint of the organization; its deliveries still waiting are
// dropped.
func (s *Service) Delete(ctx context.Context, organizationID, id string) error {
	err := s.store.DeleteEndpoint(ctx, organizationID, id)
	if errors.Is(err, ErrNotFound) {
		return failure.NotFoundf("webhook endpoint %s not found", id)
	}
	return err
}

// Deliveries returns a page of the deliveries of an endpoint of the organization.
func (s *Service) Deliveries(ctx context.Context, organizationID, endpointID string, p page.Request) (page.Result[Delivery], error) {
	if _, err := s.Get(ctx, organizationID, endpointID); err != nil {
		return page.Result[Delivery]{}, err
	}
	return s.store.Deliveries(ctx, DeliveryQuery{OrganizationID: organizationID, EndpointID: endpointID, Page: p})
}

// ExecutionDeliveries returns a page of the organization's deliveries of one execution:
// to its start's webhook and to the organization's endpoints.
func (s *Service) ExecutionDeliveries(ctx context.Context, organizationID, executionID string, p page.Request) (page.Result[Delivery], error) {
	return s.store.Deliveries(ctx, DeliveryQuery{OrganizationID: organizationID, ExecutionID: executionID, Page: p})
}

// check refuses a request with a URL the checker refuses, an event not in allowed, or
// metadata that is not a small JSON object. param prefixes the fields' names in errors.
func (s *Service) check(param string, r Request, allowed []Event) error {
	name := func(field string) string {
		if param == "" {
			return field
		}
		return param + "." + field
	}
	switch {
	case r.URL == "":
		return failure.Missing(name("url"))
	case len(r.URL) > MaxURLLength:
		return failure.OutOfRange(name("url"), "must be at most %d bytes long, got %d", MaxURLLength, len(r.URL))
	}
	if err := s.checker.CheckURL(r.URL); err != nil {
		var blocked *fetch.BlockedAddressError
		if errors.As(err, &blocked) {
			return failure.OutOfRange(name("url"), "must not name a private or reserved address: %s is %s", blocked.Host, blocked.Reason)
		}
		return failure.OutOfRange(name("url"), "must be an absolute http or https URL without user:password, got %q", r.URL)
	}
	for _, ev := range r.Events {
		if !slices.Contains(allowed, Event(ev)) {
			return failure.OutOfRange(name("events"), "holds %q, which is not one of %v", ev, allowed)
		}
	}
	if len(r.Metadata) > 0 {
		if len(r.Metadata) > MaxMetadataBytes {
			return failure.OutOfRange(name("metadata"), "must be at most %d bytes of JSON, got %d", MaxMetadataBytes, len(r.Metadata))
		}
		var object map[string]json.RawMessage
		if json.Unmarshal(r.Metadata, &object) != nil || object == nil {
			return failure.WrongType(name("metadata"), "a JSON object")
		}
	}
	return nil
}

// dedupe drops repeated events, keeping the first of each.
func dedupe(events []string) []string {
	var out []string
	for _, e := range events {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}
