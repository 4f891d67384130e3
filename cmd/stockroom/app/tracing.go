package app

import (
	"context"

	"github.com/stockroom/stockroom/cmd/stockroom/app/tracing"
	"github.com/stockroom/stockroom/configs"
)

// newTracing is the service's tracing, exporting over OTLP/HTTP, or nil when
// tracing.enabled is false: nothing is then recorded.
func newTracing(ctx context.Context, cfg configs.Tracing, version string) (*tracing.Tracing, error) {
	if !cfg.Enabled {
		return nil, nil
	}
	return tracing.NewOTLP(ctx, tracing.Config{
		Endpoint: cfg.Endpoint, SampleRatio: cfg.SampleRatio, ServiceName: cfg.ServiceName, ServiceVersion: version,
	})
}
