package demostore_test

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// start launches stores for one test; they stop when the test ends.
func start(t testing.TB, opts ...demostore.Options) *demostore.Fleet {
	t.Helper()
	fleet, err := demostore.Launch(t.Context(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	return fleet
}

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t testing.TB, url string) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirects.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func getOK(t testing.TB, url string) string {
	t.Helper()
	resp, body := get(t, url)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	return body
}

func getJSON(t testing.TB, url string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(getOK(t, url)), v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

var ldScript = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)

// jsonLD parses every JSON-LD block of a page.
func jsonLD(t testing.TB, page string) []any {
	t.Helper()
	var out []any
	for _, m := range ldScript.FindAllStringSubmatch(page, -1) {
		var v any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
			t.Fatalf("JSON-LD %q: %v", m[1], err)
		}
		out = append(out, v)
	}
	return out
}

var hrefRe = regexp.MustCompile(`href="([^"]+)"`)

func hrefs(page string) []string {
	var out []string
	for _, m := range hrefRe.FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}

var relNext = regexp.MustCompile(`<a rel="next" class="next" href="([^"]+)"`)
