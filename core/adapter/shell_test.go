package adapter

import (
	"net/http"
	"testing"
)

func TestIsAppShell(t *testing.T) {
	html := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	for _, c := range []struct {
		name  string
		doc   *Document
		shell bool
	}{
		{"a mount point and its script", &Document{Status: 200, Header: html, Body: []byte(
			`<!DOCTYPE html><html><head><title>Shop</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>`)}, true},
		{"a mount point, a loading line, a noscript notice and a module", &Document{Status: 200, Header: html, Body: []byte(
			`<html><body><div id="root">Loading…</div><noscript>You need to enable JavaScript to run this app, which lists every one of our products and more besides, all of them drawn in your browser.</noscript><script type="module">import "/main.js"</script></body></html>`)}, true},
		{"a mount point without script", &Document{Status: 200, Header: html, Body: []byte(`<html><body><div id="app"></div></body></html>`)}, false},
		{"a page with a link", &Document{Status: 200, Header: html, Body: []byte(`<html><body><a href="/c/lamps">Lamps</a><script src="/app.js"></script></body></html>`)}, false},
		{"a page with a heading and its state inline", &Document{Status: 200, Header: html, Body: []byte(
			`<html><body><h1>Desk lamps</h1><script>window.__STATE__ = {"products": []};</script></body></html>`)}, false},
		{"a page with only data scripts", &Document{Status: 200, Header: html, Body: []byte(
			`<html><body><div id="app"></div><script type="application/ld+json">{"@type": "Product"}</script></body></html>`)}, false},
		{"a page of text", &Document{Status: 200, Header: html, Body: []byte(`<html><body><div id="app"><p>` +
			"Hand-thrown stoneware mugs, fired in our harbour studio on the quay since 1987, glazed by hand in speckled oatmeal, " +
			"sea green and midnight blue; each one a little different from the next, and every one of them dishwasher safe. " +
			"Order by noon and your mug leaves the studio the same day, wrapped in paper from our own presses." +
			`</p></div><script src="/app.js"></script></body></html>`)}, false},
		{"a shell answered 404", &Document{Status: 404, Header: html, Body: []byte(`<html><body><div id="app"></div><script src="/app.js"></script></body></html>`)}, false},
		{"a shell already rendered", &Document{Status: 200, Header: html, Rendered: true, Body: []byte(`<html><body><div id="app"></div><script src="/app.js"></script></body></html>`)}, false},
		{"JSON", &Document{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"html": "<script></script>"}`)}, false},
		{"a shell without a content type", &Document{Status: 200, Header: http.Header{}, Body: []byte(`<!DOCTYPE html><html><body><div id="app"></div><script src="/app.js"></script></body></html>`)}, true},
	} {
		if got := IsAppShell(c.doc); got != c.shell {
			t.Errorf("%s: IsAppShell = %v, want %v", c.name, got, c.shell)
		}
	}
}
