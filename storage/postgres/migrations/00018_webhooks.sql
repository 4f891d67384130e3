-- +goose Up
-- Webhooks (core/webhook). Secrets are kept as issued, in plain text: each delivery is
-- signed with one, so it must be readable, and encrypting it at rest would need a key the
-- service keeps anyway. Protect the database (and its backups) accordingly.

-- An organization's registered receivers, told of every execution it starts or joins.
CREATE TABLE webhook_endpoints (
    id              uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id),
    url             text NOT NULL,
    events          text[] NOT NULL DEFAULT '{}', -- empty: every event
    metadata        jsonb,
    secret          text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_by_organization ON webhook_endpoints (organization_id, created_at);

-- The webhooks start requests carried, one per start (a crawl start answered with the
-- active crawl attaches its webhook to that crawl, so a crawl may have several).
CREATE TABLE execution_webhooks (
    id              uuid PRIMARY KEY,
    execution_id    text NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
    organization_id uuid NOT NULL REFERENCES organizations (id),
    url             text NOT NULL,
    events          text[] NOT NULL DEFAULT '{}', -- empty: both of the kind's events
    metadata        jsonb,
    secret          text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX execution_webhooks_by_execution ON execution_webhooks (execution_id);

-- One event on its way to one receiver: an endpoint or a start's webhook. The body is kept
-- as sent, byte for byte, since it is what each attempt signs. Its id is the webhook-id.
CREATE TABLE webhook_deliveries (
    id              text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id),
    endpoint_id     uuid REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    webhook_id      uuid REFERENCES execution_webhooks (id) ON DELETE CASCADE,
    execution_id    text NOT NULL,
    event           text NOT NULL,
    body            bytea NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    next_attempt_at timestamptz,
    CHECK ((endpoint_id IS NULL) <> (webhook_id IS NULL))
);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at DESC) WHERE endpoint_id IS NOT NULL;
CREATE INDEX webhook_deliveries_by_execution ON webhook_deliveries (execution_id, created_at DESC);

-- Every attempt at a delivery, numbered from 1.
CREATE TABLE webhook_attempts (
    delivery_id     text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt         integer NOT NULL,
    attempted_at    timestamptz NOT NULL,
    duration_ms     double precision NOT NULL,
    response_status integer,
    error           text,
    PRIMARY KEY (delivery_id, attempt)
);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE execution_webhooks;
DROP TABLE webhook_endpoints;
