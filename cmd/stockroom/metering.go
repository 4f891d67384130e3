package main

import (
	"context"
	"log/slog"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/usage"
)

// metering is the usage pipeline into ClickHouse.
type metering struct {
	recorder usage.Recorder
	reader   usage.Reader
	ping     func(context.Context) error
	stats    func() map[string]any
	migrate  func(context.Context) error
	close    func(context.Context) error
}

func openMetering(ctx context.Context, cfg *configs.Config, logger *slog.Logger) (*metering, error) {
	return nil, errNoClickHouse
}
