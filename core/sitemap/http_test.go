package sitemap_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/fetch"
	"github.com/stockroom/stockroom/core/sitemap"
)

// documents adapts the real fetcher to adapter.Fetcher, as the service does.
func documents(f *fetch.Fetcher) adapter.Fetcher {
	return adapter.FetcherFunc(func(ctx context.Context, u string) (*adapter.Document, error) {
		resp, err := f.Fetch(ctx, &fetch.Request{URL: u})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return &adapter.Document{URL: u, Err: err.Error(), Header: http.Header{}}, nil
		}
		return &adapter.Document{URL: u, Status: resp.Status, Header: resp.Header, Body: resp.Body}, nil
	})
}

// Over HTTP, a .gz file comes gzipped in two ways: as a gzip file (the body is gzip,
// the fetcher leaves it so), or gzipped on the way (Content-Encoding, which the fetcher
// undoes). Both read the same; robots.txt rules apply to sitemaps as to any page.
func TestReadSiteOverHTTPReadsGzipEitherWayAndKeepsToRobotsTxt(t *testing.T) {
	var base string
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\n\nSitemap: %s/index.xml.gz\n", base)
	})
	gz := func(w http.ResponseWriter, s string) {
		z := gzip.NewWriter(w)
		z.Write([]byte(s))
		z.Close()
	}
	mux.HandleFunc("/index.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		gz(w, fmt.Sprintf(`<sitemapindex><sitemap><loc>%[1]s/products.xml.gz</loc></sitemap>`+
			`<sitemap><loc>%[1]s/private/secret.xml</loc></sitemap></sitemapindex>`, base))
	})
	mux.HandleFunc("/products.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Header().Set("Content-Encoding", "gzip")
		gz(w, fmt.Sprintf(`<urlset><url><loc>%[1]s/p/a</loc></url><url><loc>%[1]s/p/b</loc></url></urlset>`, base))
	})
	secret := 0
	mux.HandleFunc("/private/secret.xml", func(w http.ResponseWriter, r *http.Request) { secret++ })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base = srv.URL

	f, err := fetch.New(fetch.Options{Allow: []string{"127.0.0.0/8"}, Delay: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer f.CloseIdleConnections()
	var got []string
	r := sitemap.Reader{Fetcher: documents(f)}
	rep, err := r.ReadSite(context.Background(), base+"/", func(e sitemap.Entry) { got = append(got, e.URL) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{base + "/p/a", base + "/p/b"}; !slices.Equal(got, want) {
		t.Errorf("visited %q, want %q", got, want)
	}
	if secret != 0 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], "robots") {
		t.Errorf("the disallowed sitemap was fetched %d times; skipped %q", secret, rep.Skipped)
	}
}
