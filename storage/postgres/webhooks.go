package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/execution"
	"github.com/stockroom/stockroom/core/page"
	"github.com/stockroom/stockroom/core/webhook"
)

// WebhookStore implements webhook.Store, and gives the delivery jobs their messages and
// records their attempts.
type WebhookStore struct{ pool *pgxpool.Pool }

// NewWebhookStore returns a webhook.Store over pool.
func NewWebhookStore(pool *pgxpool.Pool) *WebhookStore { return &WebhookStore{pool: pool} }

var _ webhook.Store = (*WebhookStore)(nil)

// eventsOrEmpty keeps an absent list of events an empty array, which means "all".
func eventsOrEmpty(events []string) []string {
	if events == nil {
		return []string{}
	}
	return events
}

func (s *WebhookStore) CreateEndpoint(ctx context.Context, e webhook.Endpoint, max int) (bool, error) {
	var created bool
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Two creations at once must not both pass the count: the organization's row is
		// the lock they queue on.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE`, e.OrganizationID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO webhook_endpoints (id, organization_id, url, events, metadata, secret, created_at)
			SELECT $1, $2, $3, $4, $5, $6, $7
			WHERE (SELECT count(*) FROM webhook_endpoints WHERE organization_id = $2) < $8`,
			e.ID, e.OrganizationID, e.URL, eventsOrEmpty(e.Events), jsonOrNull(e.Metadata), e.Secret, e.CreatedAt, max)
		created = err == nil && tag.RowsAffected() == 1
		return err
	})
	return created, classify("create webhook endpoint", err)
}

const endpointColumns = `id::text, organization_id::text, url, events, metadata, created_at`

func scanEndpoint(row pgx.Row) (webhook.Endpoint, error) {
	var e webhook.Endpoint
	err := row.Scan(&e.ID, &e.OrganizationID, &e.URL, &e.Events, &e.Metadata, &e.CreatedAt)
	if isNoRows(err) {
		return e, webhook.ErrNotFound
	}
	return e, err
}

func (s *WebhookStore) Endpoints(ctx context.Context, organizationID string) ([]webhook.Endpoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE organization_id = $1 ORDER BY created_at, id`, organizationID)
	if err != nil {
		return nil, classify("list webhook endpoints", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.Endpoint, error) { return scanEndpoint(r) })
	return list, classify("list webhook endpoints", err)
}

func (s *WebhookStore) Endpoint(ctx context.Context, organizationID, id string) (webhook.Endpoint, error) {
	if _, err := uuid.Parse(id); err != nil {
		return webhook.Endpoint{}, webhook.ErrNotFound
	}
	e, err := scanEndpoint(s.pool.QueryRow(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE id = $1 AND organization_id = $2`, id, organizationID))
	if err != nil && err != webhook.ErrNotFound {
		return e, classify("get webhook endpoint", err)
	}
	return e, err
}

func (s *WebhookStore) DeleteEndpoint(ctx context.Context, organizationID, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return webhook.ErrNotFound
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM webhook_endpoints WHERE id = $1 AND organization_id = $2`, id, organizationID)
	if err != nil {
		return classify("delete webhook endpoint", err)
	}
	if tag.RowsAffected() == 0 {
		return webhook.ErrNotFound
	}
	return nil
}

func (s *WebhookStore) Deliveries(ctx context.Context, q webhook.DeliveryQuery) (page.Result[webhook.Delivery], error) {
	result := page.Result[webhook.Delivery]{Request: q.Page, Items: []webhook.Delivery{}}
	var endpointID any
	if q.EndpointID != "" {
		endpointID = q.EndpointID
	}
	const where = `WHERE d.organization_id = $1 AND ($2::uuid IS NULL OR d.endpoint_id = $2)
		AND ($3 = '' OR d.execution_id = $3)`
	args := []any{q.OrganizationID, endpointID, q.ExecutionID}
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries d `+where, args...).Scan(&result.TotalItems); err != nil {
		return result, classify("count webhook deliveries", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT d.id, coalesce(d.endpoint_id::text, ''), d.execution_id, d.event,
			coalesce(e.url, w.url), d.status, d.created_at, d.delivered_at, d.next_attempt_at
		FROM webhook_deliveries d
		LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
		LEFT JOIN execution_webhooks w ON w.id = d.webhook_id
		`+where+` ORDER BY d.created_at DESC, d.id LIMIT $4 OFFSET $5`,
		append(args, q.Page.Size, q.Page.Offset())...)
	if err != nil {
		return result, classify("list webhook deliveries", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (webhook.Delivery, error) {
		var d webhook.Delivery
		err := r.Scan(&d.ID, &d.EndpointID, &d.ExecutionID, &d.Event, &d.URL, &d.Status, &d.CreatedAt, &d.DeliveredAt, &d.NextAttemptAt)
		return d, err
	})
	if err != nil {
		return result, classify("list webhook deliveries", err)
	}
	if err := s.attachAttempts(ctx, list); err != nil {
		return result, err
	}
	result.Items = list
	return result, nil
}

// attachAttempts reads the attempts of deliveries, in order.
func (s *WebhookStore) attachAttempts(ctx context.Context, deliveries []webhook.Delivery) error {
	ids := make([]string, len(deliveries))
	index := map[string]int{}
	for i, d := range deliveries {
		ids[i], index[d.ID] = d.ID, i
		deliveries[i].Attempts = []webhook.Attempt{}
	}
	rows, err := s.pool.Query(ctx, `SELECT delivery_id, attempted_at, duration_ms, coalesce(response_status, 0), coalesce(error, '')
		FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt`, ids)
	if err != nil {
		return classify("list webhook attempts", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var a webhook.Attempt
		var ms float64
		if err := rows.Scan(&id, &a.At, &ms, &a.StatusCode, &a.Error); err != nil {
			return err
		}
		a.Duration = time.Duration(ms * float64(time.Millisecond))
		d := &deliveries[index[id]]
		d.Attempts = append(d.Attempts, a)
	}
	return classify("list webhook attempts", rows.Err())
}

// Message returns what delivery id sends and where, and whether it is still pending; ok
// is false when it no longer exists (its endpoint was deleted).
func (s *WebhookStore) Message(ctx context.Context, id string) (m webhook.Message, status webhook.DeliveryStatus, ok bool, err error) {
	err = s.pool.QueryRow(ctx, `SELECT d.id, coalesce(e.url, w.url), coalesce(e.secret, w.secret), d.body, d.status
		FROM webhook_deliveries d
		LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
		LEFT JOIN execution_webhooks w ON w.id = d.webhook_id
		WHERE d.id = $1`, id).Scan(&m.ID, &m.URL, &m.Secret, &m.Body, &status)
	if isNoRows(err) {
		return m, "", false, nil
	}
	if err != nil {
		return m, "", false, classify("read webhook delivery", err)
	}
	return m, status, true, nil
}

// RecordAttempt records attempt number n at delivery id, and where the delivery then
// stands: succeeded, pending with its next attempt at next, or failed.
func (s *WebhookStore) RecordAttempt(ctx context.Context, id string, n int, a webhook.Attempt, status webhook.DeliveryStatus, next *time.Time) error {
	var responseStatus any
	if a.StatusCode != 0 {
		responseStatus = a.StatusCode
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// A retry of an attempt whose record was lost replaces it.
		if _, err := tx.Exec(ctx, `INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, duration_ms, response_status, error)
			VALUES ($1, $2, $3, $4, $5, nullif($6, ''))
			ON CONFLICT (delivery_id, attempt) DO UPDATE SET attempted_at = EXCLUDED.attempted_at,
				duration_ms = EXCLUDED.duration_ms, response_status = EXCLUDED.response_status, error = EXCLUDED.error`,
			id, n, a.At, float64(a.Duration)/float64(time.Millisecond), responseStatus, a.Error); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3,
				delivered_at = CASE WHEN $2 = 'succeeded' THEN $4::timestamptz ELSE delivered_at END
			WHERE id = $1`, id, status, next, a.At.Add(a.Duration))
		return err
	})
	return classify("record webhook attempt", err)
}

// recordWebhook keeps, in a start's transaction, the webhook its request carried for
// execution executionID.
func recordWebhook(ctx context.Context, tx pgx.Tx, executionID, organizationID string, w *execution.Webhook) error {
	_, err := tx.Exec(ctx, `INSERT INTO execution_webhooks (id, execution_id, organization_id, url, events, metadata, secret)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		uuid.NewString(), executionID, organizationID, w.URL, eventsOrEmpty(w.Events), jsonOrNull(w.Metadata), w.Secret)
	return classify("record the start's webhook", err)
}

// RecordWebhookEvents writes, in the transaction tx that records e's end, one delivery
// of e's event to each receiver that wants it: the webhooks of e's starts, and the
// endpoints of the organizations that started or joined it. lastProgress is e's progress
// before the end. It returns the new deliveries' ids, for the caller to queue their jobs
// in tx.
func RecordWebhookEvents(ctx context.Context, tx pgx.Tx, e execution.Execution, lastProgress json.RawMessage) ([]string, error) {
	event, ok := webhook.EventOf(e.Kind, e.Status)
	if !ok {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT NULL::uuid, id, organization_id::text, events, metadata
			FROM execution_webhooks WHERE execution_id = $1
		UNION ALL
		SELECT id, NULL::uuid, organization_id::text, events, metadata FROM webhook_endpoints
			WHERE organization_id = $2
				OR organization_id IN (SELECT organization_id FROM execution_joins WHERE execution_id = $1)`,
		e.ID, e.OrganizationID)
	if err != nil {
		return nil, classify("find webhook receivers", err)
	}
	type receiver struct {
		endpointID, webhookID *string
		organizationID        string
		events                []string
		metadata              json.RawMessage
	}
	receivers, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (receiver, error) {
		var rc receiver
		err := r.Scan(&rc.endpointID, &rc.webhookID, &rc.organizationID, &rc.events, &rc.metadata)
		return rc, err
	})
	if err != nil {
		return nil, classify("find webhook receivers", err)
	}
	var ids []string
	batch := &pgx.Batch{}
	for _, rc := range receivers {
		if !webhook.Wants(rc.events, event) {
			continue
		}
		payload, _ := webhook.NewPayload(e, lastProgress, rc.metadata)
		body, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("encode webhook payload of %s: %w", e.ID, err)
		}
		id := "msg_" + uuid.NewString()
		batch.Queue(`INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, webhook_id, execution_id, event, body, next_attempt_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, now())`, id, rc.organizationID, rc.endpointID, rc.webhookID, e.ID, event, body)
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return nil, classify("record webhook deliveries", err)
	}
	return ids, nil
}
