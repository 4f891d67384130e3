package fetch

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

const (
	// movedTTL is how long a site's move is trusted before its old origin is asked again:
	// as long as its robots.txt.
	movedTTL = 24 * time.Hour
	// maxMovedOrigins bounds the moves remembered; past it, expired ones are dropped and,
	// when none has expired, no more are learned.
	maxMovedOrigins = 10_000
)

// movedOrigins remembers sites that moved for good to another form of their name: a
// permanent redirect (301, 308) to the same path and query on the other of www.{name}
// and {name}, or from http to https. A store that lives on www. and is named by its bare
// domain, as clients name vendors and the catalog keeps URLs, otherwise answers every
// page asked for there with a redirect, a request more each; once one has said where the
// site lives, the fetcher asks there directly, as browsers do with permanent redirects.
// Redirects to another path or another name say nothing about the rest of the site and
// are only followed.
type movedOrigins struct {
	mu sync.Mutex
	m  map[string]movedOrigin // by the old origin's hostKey
}

type movedOrigin struct {
	scheme, host string // the new origin's, host as in url.URL.Host
	until        time.Time
}

func newMovedOrigins() *movedOrigins { return &movedOrigins{m: map[string]movedOrigin{}} }

// learn records the move from answered a status redirect to to, if it is one.
func (m *movedOrigins) learn(status int, from, to *url.URL, now time.Time) {
	if !siteMoved(status, from, to) {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) >= maxMovedOrigins {
		for k, v := range m.m {
			if now.After(v.until) {
				delete(m.m, k)
			}
		}
		if len(m.m) >= maxMovedOrigins {
			return
		}
	}
	key, _ := hostKey(from)
	m.m[key] = movedOrigin{scheme: to.Scheme, host: strings.ToLower(to.Host), until: now.Add(movedTTL)}
}

// rewrite returns u on the origin its site moved to, or u itself when it has not moved.
func (m *movedOrigins) rewrite(u *url.URL, now time.Time) *url.URL {
	m.mu.Lock()
	if len(m.m) == 0 {
		// Every fetch asks; most fetchers never learn a move: no key to build then.
		m.mu.Unlock()
		return u
	}
	key, _ := hostKey(u)
	to, ok := m.m[key]
	if ok && now.After(to.until) {
		delete(m.m, key)
		ok = false
	}
	m.mu.Unlock()
	if !ok {
		return u
	}
	moved := *u
	moved.Scheme, moved.Host = to.scheme, to.host
	return &moved
}

// siteMoved reports whether a status redirect from from to to moves the whole site: a
// permanent one, to the same path and query, on https rather than http or on the other
// of www.{name} and {name}, the port unchanged.
func siteMoved(status int, from, to *url.URL) bool {
	if status != http.StatusMovedPermanently && status != http.StatusPermanentRedirect {
		return false
	}
	if from.EscapedPath() != to.EscapedPath() || from.RawQuery != to.RawQuery || from.User != nil || to.User != nil {
		return false
	}
	if to.Scheme != from.Scheme && (from.Scheme != "http" || to.Scheme != "https") {
		return false
	}
	if from.Port() != to.Port() {
		return false
	}
	a, b := strings.ToLower(from.Hostname()), strings.ToLower(to.Hostname())
	switch {
	case a == b:
		return from.Scheme != to.Scheme
	case b == "www."+a, a == "www."+b:
		return true
	}
	return false
}
