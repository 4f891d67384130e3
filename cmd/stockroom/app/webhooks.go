package app

import (
	"fmt"

	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/webhook"
	"github.com/stockroom/stockroom/storage/jobs"
	"github.com/stockroom/stockroom/storage/postgres"
)

// webhookParts are the pieces of webhook delivery the engine wires: the end hook that
// queues deliveries, the queue's delivery workers, and the API's registration service.
type webhookParts struct {
	events   *jobs.WebhookEvents
	delivery *jobs.WebhookOptions
	service  *webhook.Service
}

// webhooks builds them from the webhooks settings. Receivers are held to the fetcher's
// address guard with the webhooks' own allowlist.
func (s *Service) webhooks() (webhookParts, error) {
	cfg := s.cfg.Webhooks
	guard, err := fetch.NewGuard(cfg.Allow, s.resolver)
	if err != nil {
		return webhookParts{}, fmt.Errorf("webhooks.allow: %w", err)
	}
	schedule := webhook.Schedule(cfg.RetrySchedule)
	events, err := jobs.NewWebhookEvents(s.pool, schedule)
	if err != nil {
		return webhookParts{}, err
	}
	store := postgres.NewWebhookStore(s.pool)
	return webhookParts{
		events: events,
		delivery: &jobs.WebhookOptions{
			Store:        store,
			Sender:       webhook.NewSender(guard.Client(cfg.Timeout), s.cfg.Fetch.UserAgent),
			Schedule:     schedule,
			Workers:      cfg.Workers,
			PollInterval: cfg.PollInterval,
		},
		service: webhook.NewService(store, guard),
	}, nil
}
