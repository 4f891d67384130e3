package render

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpfetch "github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/fetch"
)

// tab is one page being drawn.
type tab struct {
	r    *Renderer
	page *adapter.Document
	// assets are the scope's scripts and style sheets, fetched once for all its pages.
	assets *assets
	// ctx is the caller's. The page's requests are fetched with fetches, made from it
	// so that they count in the job's Meter, and cancelled once the page is read or has
	// failed: a request of a page given up on is not worth its wait for the host.
	ctx     context.Context
	fetches context.Context
	target  *chromedp.Target
	served  atomic.Bool // the page's own request has been answered

	mu       sync.Mutex
	inFlight int
	lastSeen time.Time // when a request last began or ended
}

// draw loads the page in the tab whose context is tabCtx, waits for it to settle and
// reads what it drew.
func (t *tab) draw(tabCtx context.Context) (*adapter.Document, error) {
	ctx, cancel := context.WithTimeout(tabCtx, t.r.opts.Timeout)
	defer cancel()
	defer context.AfterFunc(t.ctx, cancel)()
	fetches, stopFetches := context.WithCancel(t.ctx)
	defer stopFetches()
	t.fetches = fetches
	fail := func(what string, err error) error {
		if t.ctx.Err() != nil {
			return context.Cause(t.ctx)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("render %s: %w within %s (%s)", t.page.URL, ErrUnsettled, t.r.opts.Timeout, what)
		}
		return fmt.Errorf("render %s: %s: %w", t.page.URL, what, err)
	}
	t.lastSeen = time.Now()
	err := chromedp.Listen(ctx, func(ev any) {
		if paused, ok := ev.(*cdpfetch.EventRequestPaused); ok {
			t.begin()
			go t.answer(ctx, paused)
		}
	})
	if err != nil {
		return nil, fail("listen", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(t.page.Landed())); err != nil {
		return nil, fail("load", err)
	}
	// The quiet time counts from the load event: the requests the page's scripts make
	// while they run may be announced just after it.
	t.begin()
	t.end()
	if err := t.settle(ctx); err != nil {
		return nil, fail("wait for requests to end", err)
	}
	markup, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.documentElement.outerHTML"))
	if err != nil {
		return nil, fail("read the page", err)
	}
	header := t.page.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Type", "text/html; charset=utf-8")
	return &adapter.Document{URL: t.page.URL, FinalURL: t.page.FinalURL, Status: t.page.Status, Header: header,
		Body: []byte("<!DOCTYPE html>\n" + markup), Rendered: true}, nil
}

// settle waits until the page has made no request for Options.Quiet.
func (t *tab) settle(ctx context.Context) error {
	tick := time.NewTicker(max(t.r.opts.Quiet/4, 10*time.Millisecond))
	defer tick.Stop()
	for {
		t.mu.Lock()
		idle := t.inFlight == 0 && time.Since(t.lastSeen) >= t.r.opts.Quiet
		t.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (t *tab) begin() {
	t.mu.Lock()
	t.inFlight++
	t.lastSeen = time.Now()
	t.mu.Unlock()
}

func (t *tab) end() {
	t.mu.Lock()
	t.inFlight--
	t.lastSeen = time.Now()
	t.mu.Unlock()
}

// answer answers one paused request: the page's own from the page already fetched,
// images, fonts and media and every method but GET refused, the rest fetched.
func (t *tab) answer(ctx context.Context, ev *cdpfetch.EventRequestPaused) {
	defer t.end()
	req := ev.Request
	switch {
	case ev.ResourceType == network.ResourceTypeImage, ev.ResourceType == network.ResourceTypeFont,
		ev.ResourceType == network.ResourceTypeMedia:
		t.refuse(ctx, ev)
	case req.Method != http.MethodGet:
		t.r.log.Debug("request refused: only GET is fetched", "url", req.URL, "method", req.Method)
		t.refuse(ctx, ev)
	case ev.ResourceType == network.ResourceTypeDocument && t.served.CompareAndSwap(false, true):
		t.fulfill(ctx, ev, t.page.Status, t.page.Header, t.page.Body, "text/html; charset=utf-8")
	default:
		t.fetch(ctx, ev)
	}
}

// fetch fetches a request of the page through the fetcher, which guards the address,
// reads robots.txt and keeps to the host's pace.
func (t *tab) fetch(ctx context.Context, ev *cdpfetch.EventRequestPaused) {
	req := &fetch.Request{URL: ev.Request.URL}
	if accept, ok := ev.Request.Headers["Accept"].(string); ok && accept != "" {
		req.Header = http.Header{"Accept": {accept}}
	}
	if kept(ev.ResourceType) {
		if a, ok := t.assets.get(req.URL); ok {
			t.fulfill(ctx, ev, a.status, a.header, a.body, "")
			return
		}
	}
	resp, err := t.r.opts.Fetcher.Fetch(t.fetches, req)
	if err != nil {
		if errors.Is(err, fetch.ErrForbiddenAddress) || errors.Is(err, fetch.ErrDisallowedByRobots) {
			t.r.log.Warn("request of a rendered page refused", "page", t.page.URL, "url", ev.Request.URL, "err", err)
			t.refuse(ctx, ev)
			return
		}
		t.r.log.Debug("request of a rendered page failed", "page", t.page.URL, "url", ev.Request.URL, "err", err)
		answerWith(ctx, t, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonFailed})
		return
	}
	t.r.stats.fetched.Add(1)
	if kept(ev.ResourceType) {
		t.assets.keep(req.URL, &asset{status: resp.Status, header: resp.Header, body: resp.RawBody})
	}
	t.fulfill(ctx, ev, resp.Status, resp.Header, resp.RawBody, "")
}

// refuse fails a request as the browser's own blocker would.
func (t *tab) refuse(ctx context.Context, ev *cdpfetch.EventRequestPaused) {
	t.r.stats.blocked.Add(1)
	answerWith(ctx, t, cdpfetch.FailRequest, cdpfetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
}

// withheld are the response headers not handed to the browser: those about the transfer,
// which the fetcher has undone, and cookies, which no later request would send (the
// fetcher sends none).
var withheld = map[string]bool{"Content-Length": true, "Content-Encoding": true, "Transfer-Encoding": true,
	"Connection": true, "Keep-Alive": true, "Set-Cookie": true}

// fulfill answers a request with status, header and body; contentType, when set,
// replaces the header's.
func (t *tab) fulfill(ctx context.Context, ev *cdpfetch.EventRequestPaused, status int, header http.Header, body []byte, contentType string) {
	var entries []*cdpfetch.HeaderEntry
	for name, values := range header {
		if withheld[name] || (contentType != "" && name == "Content-Type") {
			continue
		}
		entries = append(entries, &cdpfetch.HeaderEntry{Name: name, Value: strings.Join(values, ", ")})
	}
	if contentType != "" {
		entries = append(entries, &cdpfetch.HeaderEntry{Name: "Content-Type", Value: contentType})
	}
	if status == 0 {
		status = http.StatusOK
	}
	answerWith(ctx, t, cdpfetch.FulfillRequest, cdpfetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: int64(status),
		ResponseHeaders: entries, Body: body})
}

// answerWith sends the command that answers a paused request. It fails only when the tab
// is closing, which ends the request anyway.
func answerWith[P any](ctx context.Context, t *tab, command cdp.Command[P, cdp.Empty], params P) {
	if _, err := cdp.Call(ctx, t.target, command, params); err != nil && ctx.Err() == nil {
		t.r.log.Debug("request not answered", "page", t.page.URL, "err", err)
	}
}
