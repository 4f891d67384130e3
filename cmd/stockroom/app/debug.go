package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// serveDebug serves Go's profiling endpoints on address until ctx ends. The API's own
// router never exposes them: they reveal the process's internals, so they get a listener
// of their own that an operator keeps on loopback.
func serveDebug(ctx context.Context, address string, logger *slog.Logger) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	_, err := serveAside(ctx, address, mux, "profiling endpoints", logger)
	return err
}

// serveAside serves handler on a listener of its own at address until ctx ends, apart
// from the API, and returns the address it listens on (the port chosen when address ends
// in ":0"). what names the endpoints in the logs.
func serveAside(ctx context.Context, address string, handler http.Handler, what string, logger *slog.Logger) (string, error) {
	l, err := net.Listen("tcp", address)
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	logger.Info(what+" listening", "address", l.Addr().String())
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error(what, "err", err)
		}
	}()
	return l.Addr().String(), nil
}
