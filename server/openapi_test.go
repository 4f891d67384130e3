package server_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/crawl"
	"github.com/stockroom/stockroom/core/extract"
	"github.com/stockroom/stockroom/core/search"
	"github.com/stockroom/stockroom/core/webhook"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/server/openapi"
)

// documentedOperations lists the document's operations as "METHOD /path/{param}".
func documentedOperations(t *testing.T) []string {
	t.Helper()
	raw, err := openapi.Document()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for path, item := range doc.Paths {
		for method := range item {
			switch method {
			case "get", "post", "put", "patch", "delete":
				ops = append(ops, strings.ToUpper(method)+" "+path)
			}
		}
	}
	slices.Sort(ops)
	return ops
}

// The document names every route the server answers, and nothing else.
func TestEveryRouteIsDocumented(t *testing.T) {
	// Services are only registered here, never called: zero values will do.
	var searches *search.Service
	api := server.New(server.Deps{Crawl: &crawl.Service{}, Extract: &extract.Service{}, Search: searches, Webhooks: &webhook.Service{}}, server.Options{})
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	var routed []string
	for _, r := range api.App().GetRoutes(true) {
		if r.Method == "HEAD" {
			continue // Fiber answers HEAD wherever it answers GET
		}
		routed = append(routed, r.Method+" "+param.ReplaceAllString(r.Path, "{$1}"))
	}
	slices.Sort(routed)
	routed = slices.Compact(routed)
	documented := documentedOperations(t)
	for _, op := range routed {
		if !slices.Contains(documented, op) {
			t.Errorf("%s is served but not documented", op)
		}
	}
	for _, op := range documented {
		if !slices.Contains(routed, op) {
			t.Errorf("%s is documented but not served", op)
		}
	}
}

func TestOpenAPIDocumentIsServedWithoutKey(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.doWithHeaders("GET", "/openapi.json", nil, nil)
	want, _ := openapi.Document()
	if r.status != 200 || !bytes.Equal(r.body, want) {
		t.Fatalf("got %d, %d bytes; want 200 and the document's %d bytes", r.status, len(r.body), len(want))
	}
	if got := r.header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
}

func TestDocsPageIsServedWithoutKeyAndLoadsOnlyOwnAssets(t *testing.T) {
	e := newEnv(t, envOptions{})
	page := e.doWithHeaders("GET", "/docs", nil, nil)
	if page.status != 200 || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /docs: %d %s", page.status, page.header.Get("Content-Type"))
	}
	// The browser itself refuses anything from elsewhere.
	if csp := page.header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'") || strings.Contains(csp, "http") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	for _, m := range regexp.MustCompile(`(?i)(?:src|href|spec-url)="([^"]*)"`).FindAllSubmatch(page.body, -1) {
		if u := string(m[1]); strings.Contains(u, "//") {
			t.Errorf("the page names %q, which the service does not serve", u)
		}
	}
	script := e.doWithHeaders("GET", "/docs/"+openapi.ScriptFile, nil, nil)
	if script.status != 200 || script.header.Get("Content-Type") != "text/javascript; charset=utf-8" || len(script.body) < 100_000 {
		t.Fatalf("GET /docs/%s: %d %s, %d bytes (`make docs-ui` embeds it)", openapi.ScriptFile, script.status, script.header.Get("Content-Type"), len(script.body))
	}
	missing := e.doWithHeaders("GET", "/docs/nope.js", nil, nil)
	if code, _ := errorOf(t, missing); missing.status != 404 || code != "NOT_FOUND" {
		t.Errorf("GET /docs/nope.js: %d %s", missing.status, missing.body)
	}
}
