package devstack

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// A second `make run` serves the demo stores at the first one's URLs, so that crawling them
// again refreshes one catalog; when another program holds that port, the stores move to a
// free one, all three together, and keep it the next time.
func TestDemoStoresKeepTheirURLsAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	// "0" rather than 8090: a `make run` on this machine may be serving there.
	run := func() []string {
		t.Helper()
		fleet, err := demoStores(context.Background(), dir, "0")
		if err != nil {
			t.Fatal(err)
		}
		defer fleet.Stop()
		var urls []string
		for _, kind := range []demostore.Kind{demostore.Shopify, demostore.JSONLD, demostore.HTML} {
			u := fleet.Get(kind).BaseURL
			resp, err := http.Get(u + "/robots.txt")
			if err != nil {
				t.Fatalf("%s store at %s: %v", kind, u, err)
			}
			resp.Body.Close()
			urls = append(urls, u)
		}
		return urls
	}
	port := func(u string) string {
		_, p, _ := net.SplitHostPort(strings.TrimPrefix(u, "http://"))
		return p
	}

	first := run()
	if p := port(first[0]); port(first[1]) != p || port(first[2]) != p {
		t.Errorf("the stores listen on different ports: %v", first)
	}
	if again := run(); !slices.Equal(again, first) {
		t.Errorf("second run at %v, the first was at %v", again, first)
	}

	taken, err := net.Listen("tcp", strings.TrimPrefix(first[0], "http://"))
	if err != nil {
		t.Fatal(err)
	}
	moved := run()
	taken.Close()
	if moved[0] == first[0] || port(moved[1]) != port(moved[0]) || port(moved[2]) != port(moved[0]) {
		t.Errorf("with %s taken, the stores went to %v", first[0], moved)
	}
	if after := run(); !slices.Equal(after, moved) {
		t.Errorf("the run after the move at %v, the move was to %v", after, moved)
	}
}
