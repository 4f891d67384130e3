package render

import (
	"net/http"
	"sync"

	"github.com/chromedp/cdproto/network"
)

// maxAssets bounds the scripts and style sheets one scope keeps.
const maxAssets = 256

// assets are the scripts and style sheets a scope's pages loaded, by URL: every page of a
// single-page application loads the same bundle, and asking the store for it again for
// each page would cost a request a page for nothing. A scope lasts one execution, minutes,
// over which a store's bundle does not change.
type assets struct {
	mu    sync.Mutex
	byURL map[string]*asset
}

type asset struct {
	status int
	header http.Header
	body   []byte
}

// kept reports whether answers for resources of kind are kept.
func kept(kind network.ResourceType) bool {
	return kind == network.ResourceTypeScript || kind == network.ResourceTypeStylesheet
}

func (a *assets) get(url string) (*asset, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	found, ok := a.byURL[url]
	return found, ok
}

// keep keeps a successful answer, while there is room.
func (a *assets) keep(url string, found *asset) {
	if found.status != http.StatusOK {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byURL == nil {
		a.byURL = map[string]*asset{}
	}
	if len(a.byURL) < maxAssets {
		a.byURL[url] = found
	}
}
