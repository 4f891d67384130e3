package demostore_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

func TestScriptPagesAreShellsTheScriptFillsFromJSON(t *testing.T) {
	st := start(t, demostore.Options{Kind: demostore.Script, Products: 300}).Get(demostore.Script)
	p := st.Catalog().Product(7)
	shellPage := getOK(t, st.URL(st.ProductPath(7)))
	if strings.Contains(shellPage, p.Title) || strings.Contains(shellPage, "ld+json") || strings.Contains(shellPage, "href=") {
		t.Fatalf("the product page carries more than a shell:\n%s", shellPage)
	}
	if !strings.Contains(shellPage, `<div id="app"></div>`) || !strings.Contains(shellPage, `<script src="/static/app.js"`) {
		t.Fatalf("the product page is not a mount point and a script:\n%s", shellPage)
	}
	if app := getOK(t, st.URL("/static/app.js")); !strings.Contains(app, "/api/page?path=") {
		t.Fatalf("the application does not ask for its page: %s", app)
	}

	var page struct {
		Status int    `json:"status"`
		HTML   string `json:"html"`
	}
	getJSON(t, st.URL("/api/page?path="+url.QueryEscape(st.ProductPath(7))), &page)
	if page.Status != http.StatusOK || len(jsonLD(t, page.HTML)) == 0 || !strings.Contains(page.HTML, p.Title) {
		t.Fatalf("the product's JSON does not hold its page with JSON-LD: %+v", page)
	}
	getJSON(t, st.URL("/api/page?path="+url.QueryEscape(st.CategoryPath(st.Catalog().Collections()[0].Handle)+"?page=2")), &page)
	if page.Status != http.StatusOK || !strings.Contains(page.HTML, "/product/") {
		t.Fatalf("the category's second page has no product links: %+v", page)
	}
	if resp, _ := get(t, st.URL("/api/page?path="+url.QueryEscape("/product/no-such-thing"))); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown product's JSON answered %s, want 404", resp.Status)
	}
	if robots := getOK(t, st.URL("/robots.txt")); strings.Contains(robots, "Sitemap:") {
		t.Errorf("robots.txt names a sitemap: the shop's links must come from its script\n%s", robots)
	}
}
