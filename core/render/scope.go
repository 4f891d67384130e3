package render

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Scope returns a context whose pages share one browser context (Chromium's incognito
// profile): their cookies, storage and cache. end discards it. The engine scopes each
// execution, so that nothing one vendor's pages set reaches another's. A page drawn
// outside any scope gets a browser context of its own.
func (r *Renderer) Scope(ctx context.Context) (_ context.Context, end func()) {
	s := &session{}
	return context.WithValue(ctx, sessionKey{}, s), func() { s.end(r) }
}

type sessionKey struct{}

func sessionFrom(ctx context.Context) (*session, bool) {
	s, ok := ctx.Value(sessionKey{}).(*session)
	return s, ok
}

// session is one scope's browser context, created with its first page.
type session struct {
	mu      sync.Mutex
	id      cdp.BrowserContextID
	browser *chromedp.Browser // the browser id belongs to
	assets  assets
}

// browserContext returns the session's browser context in browser, creating it on first
// use (and again if Chromium was restarted since).
func (s *session) browserContext(ctx, browser context.Context) (cdp.BrowserContextID, error) {
	b := chromedp.FromContext(browser).Browser
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id != "" && s.browser == b {
		return s.id, nil
	}
	res, err := cdp.Call(ctx, b, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		return "", fmt.Errorf("create browser context: %w", err)
	}
	s.id, s.browser = res.BrowserContextID, b
	return s.id, nil
}

// end closes the session's tabs and disposes of its browser context, and with it every
// cookie it holds.
func (s *session) end(r *Renderer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id == "" {
		return
	}
	r.tabs.drop(s.id)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := cdp.Call(ctx, s.browser, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: s.id}); err != nil {
		r.log.Debug("browser context not disposed", "err", err) // Chromium stopped, or the context went with it
	}
	s.id, s.browser = "", nil
}
