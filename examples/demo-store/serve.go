package demostore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"
)

// DefaultHost is the loopback address each kind listens on by default. Stockroom names a
// vendor by host name (ports are dropped), so each store needs its own address.
func DefaultHost(kind Kind) string {
	switch kind {
	case JSONLD:
		return "127.0.0.3"
	case HTML:
		return "127.0.0.4"
	case Sitemap:
		return "127.0.0.9"
	case WooCommerce:
		return "127.0.0.10"
	case Magento:
		return "127.0.0.11"
	case Headless:
		return "127.0.0.12"
	case Script:
		return "127.0.0.13"
	}
	return "127.0.0.2"
}

// Serve answers HTTP on addr until ctx is done.
func (s *Store) Serve(ctx context.Context, addr string) error {
	_, stop, err := s.Start(ctx, addr)
	if err != nil {
		return err
	}
	<-ctx.Done()
	stop()
	return nil
}

// Start listens on addr ("127.0.0.2:0" picks a free port) and serves in the background
// until ctx is done or stop is called; stop returns once the listener is closed. baseURL
// is "http://host:port" without a trailing slash.
func (s *Store) Start(ctx context.Context, addr string) (baseURL string, stop func(), err error) {
	ln, err := listen(addr)
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = srv.Close() // also cancels in-flight requests (slow pages)
			<-done
		})
	}
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-done:
		}
	}()
	return "http://" + ln.Addr().String(), stop, nil
}

func listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("demo store address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("demo store address %q: only loopback addresses (127.0.0.0/8, ::1) are allowed", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if host != "127.0.0.1" && strings.HasPrefix(host, "127.") && runtime.GOOS != "linux" {
			return nil, fmt.Errorf("listen %s: %w (on %s only 127.0.0.1 is configured by default; add an alias, e.g. `sudo ifconfig lo0 alias %s`, or pass 127.0.0.1 addresses with distinct ports)",
				addr, err, runtime.GOOS, host)
		}
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return ln, nil
}

// Running is a started store and where it listens.
type Running struct {
	*Store
	// BaseURL is "http://127.0.0.2:PORT", without a trailing slash.
	BaseURL string
}

// URL is BaseURL joined with path ("/products.json").
func (r *Running) URL(path string) string { return r.BaseURL + path }

// Fleet is a set of stores started together, one loopback address each.
type Fleet struct {
	Stores []*Running
	stops  []func()
	gauge  gauge
}

// MaxInFlight is the most requests the fleet's stores were answering at once, all
// together (each store's own figure is in its Stats).
func (f *Fleet) MaxInFlight() int64 { return f.gauge.max.Load() }

// Launch builds and starts one store per Options, each on its Addr or, when empty, on
// DefaultHost(Kind) with a free port (a second store of the same kind gets the first free
// address from 127.0.0.5 up). The stores stop when ctx is done or Stop is called.
//
//	fleet, err := demostore.Launch(ctx,
//		demostore.Options{Kind: demostore.Shopify, Products: 10_000},
//		demostore.Options{Kind: demostore.JSONLD, Products: 500},
//		demostore.Options{Kind: demostore.HTML, Products: 500})
//	defer fleet.Stop()
//	shop := fleet.Get(demostore.Shopify) // shop.BaseURL, shop.Catalog(), shop.Stats()
func Launch(ctx context.Context, opts ...Options) (*Fleet, error) {
	f := &Fleet{}
	used := map[string]bool{}
	next := 5
	for _, o := range opts {
		st, err := New(o)
		if err != nil {
			f.Stop()
			return nil, err
		}
		st.fleet = &f.gauge
		addr := o.Addr
		if addr == "" {
			host := DefaultHost(o.Kind)
			for used[host] {
				host = fmt.Sprintf("127.0.0.%d", next)
				next++
			}
			addr = net.JoinHostPort(host, "0")
		}
		if h, _, err := net.SplitHostPort(addr); err == nil {
			used[h] = true
		}
		baseURL, stop, err := st.Start(ctx, addr)
		if err != nil {
			f.Stop()
			return nil, fmt.Errorf("start %s store: %w", o.Kind, err)
		}
		f.Stores = append(f.Stores, &Running{Store: st, BaseURL: baseURL})
		f.stops = append(f.stops, stop)
	}
	return f, nil
}

// Get is the first store of a kind, or nil.
func (f *Fleet) Get(kind Kind) *Running {
	for _, r := range f.Stores {
		if r.Kind() == kind {
			return r
		}
	}
	return nil
}

// Stop stops every store and waits for their listeners to close.
func (f *Fleet) Stop() {
	for _, stop := range f.stops {
		stop()
	}
}

// ErrNoStores is returned by RunCommand when no kind is selected.
var ErrNoStores = errors.New("no store kinds selected")
