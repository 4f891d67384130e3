package render

import (
	"context"
	"slices"
	"sync"

	"github.com/chromedp/cdproto/cdp"
)

// pool is the process's open tabs, busy or idle, at most size of them. A tab that drew a
// page is kept idle in its browser context, for the next page of the same scope: opening
// a tab costs Chromium a renderer process, far more than loading a page into one. An
// idle tab of another scope is closed to make room when the pool is full.
type pool struct {
	size int

	mu    sync.Mutex
	open  int
	peak  int
	idle  []*openTab
	freed chan struct{} // closed, and replaced, whenever a tab is given back or closed
}

// openTab is a tab in a browser context; ctx is its chromedp context, close closes it.
type openTab struct {
	scope cdp.BrowserContextID
	ctx   context.Context
	close context.CancelFunc
}

func newPool(size int) *pool { return &pool{size: size, freed: make(chan struct{})} }

// get returns an idle tab of scope, or one opened by open when the pool has room, or
// when it can make room by closing an idle tab of another scope; else it waits for a tab
// to be given back, until ctx is done.
func (p *pool) get(ctx context.Context, scope cdp.BrowserContextID, open func() (*openTab, error)) (*openTab, error) {
	for {
		p.mu.Lock()
		if i := slices.IndexFunc(p.idle, func(t *openTab) bool { return t.scope == scope }); i >= 0 {
			t := p.idle[i]
			p.idle = slices.Delete(p.idle, i, i+1)
			p.mu.Unlock()
			if t.ctx.Err() == nil {
				return t, nil
			}
			p.closed(t) // Chromium went away with it
			continue
		}
		var evicted *openTab
		switch {
		case p.open < p.size:
			p.open++
			p.peak = max(p.peak, p.open)
		case len(p.idle) > 0:
			evicted = p.idle[0]
			p.idle = p.idle[1:]
		default:
			freed := p.freed
			p.mu.Unlock()
			select {
			case <-freed:
				continue
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			}
		}
		p.mu.Unlock()
		if evicted != nil {
			evicted.close() // its place is the new tab's
		}
		t, err := open()
		if err != nil {
			p.mu.Lock()
			p.open--
			p.signal()
			p.mu.Unlock()
			return nil, err
		}
		return t, nil
	}
}

// put gives a tab back: kept idle for its scope's next page when keep is set, else
// closed.
func (p *pool) put(t *openTab, keep bool) {
	if !keep || t.ctx.Err() != nil {
		p.closed(t)
		return
	}
	p.mu.Lock()
	p.idle = append(p.idle, t)
	p.signal()
	p.mu.Unlock()
}

// closed closes t and frees its place.
func (p *pool) closed(t *openTab) {
	t.close()
	p.mu.Lock()
	p.open--
	p.signal()
	p.mu.Unlock()
}

// drop closes the idle tabs of scope, which is ending.
func (p *pool) drop(scope cdp.BrowserContextID) {
	p.mu.Lock()
	var ending []*openTab
	p.idle = slices.DeleteFunc(p.idle, func(t *openTab) bool {
		if t.scope == scope {
			ending = append(ending, t)
			return true
		}
		return false
	})
	p.mu.Unlock()
	for _, t := range ending {
		p.closed(t)
	}
}

// peakOpen is the most tabs that were open at once.
func (p *pool) peakOpen() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

// signal wakes the callers waiting for a tab; p.mu is held.
func (p *pool) signal() {
	close(p.freed)
	p.freed = make(chan struct{})
}
