package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

// site is a fake web site: the body answered for each URL (status 200), anything else
// 404. It counts the fetches of each URL.
type site struct {
	pages     map[string]string
	redirects map[string]string // URL -> where it ends
	fetched   map[string]int
}

func newSite(pages map[string]string) *site {
	return &site{pages: pages, redirects: map[string]string{}, fetched: map[string]int{}}
}

func (s *site) Fetch(_ context.Context, u string) (*adapter.Document, error) {
	s.fetched[u]++
	final := u
	if to, ok := s.redirects[u]; ok {
		final = to
	}
	body, ok := s.pages[final]
	if !ok {
		return &adapter.Document{URL: u, Status: 404, Header: http.Header{}}, nil
	}
	d := &adapter.Document{URL: u, Status: 200, Header: http.Header{}, Body: []byte(body)}
	if final != u {
		d.FinalURL = final
	}
	return d, nil
}

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>")
	}
	b.WriteString("</urlset>")
	return b.String()
}

func sitemapIndex(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<sitemap><loc>" + l + "</loc></sitemap>")
	}
	b.WriteString("</sitemapindex>")
	return b.String()
}

func gzipped(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

// readAll reads the site's sitemaps and returns the URLs visited, in order.
func readAll(t *testing.T, s *site, lim Limits) ([]string, Report) {
	t.Helper()
	var got []string
	r := Reader{Fetcher: s, Limits: lim}
	rep, err := r.ReadSite(context.Background(), "https://shop.example/", func(e Entry) { got = append(got, e.URL) })
	if err != nil {
		t.Fatal(err)
	}
	return got, rep
}

const origin = "https://shop.example"

func TestReadSiteFollowsRobotsSitemapsThroughNestedGzippedIndexes(t *testing.T) {
	s := newSite(map[string]string{
		origin + "/robots.txt": "User-agent: *\nDisallow: /cart\n\nsitemap: " + origin + "/maps/index.xml\nSitemap: /maps/extra.xml\n",
		origin + "/maps/index.xml": sitemapIndex(origin+"/maps/catalog.xml.gz", origin+"/maps/pages.xml",
			origin+"/maps/pages.xml"), // named twice, read once
		origin + "/maps/catalog.xml.gz":    gzipped(sitemapIndex(origin+"/maps/products-1.xml.gz", origin+"/maps/categories.xml")),
		origin + "/maps/products-1.xml.gz": gzipped(urlset(origin+"/p/a", origin+"/p/b")),
		origin + "/maps/categories.xml":    urlset(origin + "/c/shoes"),
		origin + "/maps/pages.xml":         urlset(origin + "/about"),
		origin + "/maps/extra.xml":         urlset("/p/c"), // relative, resolved against the file
		origin + "/sitemap.xml":            urlset(origin + "/never-read"),
	})
	got, rep := readAll(t, s, Limits{})
	want := []string{origin + "/about", origin + "/c/shoes", origin + "/p/a", origin + "/p/b", origin + "/p/c"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("visited %q, want %q", got, want)
	}
	if !rep.Announced || !slices.Equal(rep.Roots, []string{origin + "/maps/index.xml", origin + "/maps/extra.xml"}) {
		t.Errorf("roots %q (announced %v), want the two robots.txt names", rep.Roots, rep.Announced)
	}
	if rep.Files != 6 || rep.URLs != 5 || rep.Stopped != "" || len(rep.Skipped) != 0 {
		t.Errorf("report %+v, want 6 files, 5 URLs, nothing stopped or skipped", rep)
	}
	if n := s.fetched[origin+"/maps/pages.xml"]; n != 1 {
		t.Errorf("pages.xml fetched %d times, want 1", n)
	}
	if n := s.fetched[origin+"/sitemap.xml"]; n != 0 {
		t.Errorf("/sitemap.xml fetched although robots.txt names the sitemaps")
	}
}

func TestReadSiteTriesTheUsualPlacesUntilOneIsASitemap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pages map[string]string
		root  string
	}{
		{"sitemap.xml", map[string]string{origin + "/sitemap.xml": urlset(origin + "/p/a")}, origin + "/sitemap.xml"},
		{"sitemap_index.xml behind a soft 404", map[string]string{
			origin + "/sitemap.xml":         "<!DOCTYPE html><html><body>Page not found</body></html>",
			origin + "/sitemap_index.xml":   sitemapIndex(origin + "/product-sitemap.xml"),
			origin + "/product-sitemap.xml": urlset(origin + "/p/a"),
		}, origin + "/sitemap_index.xml"},
		{"wp-sitemap.xml", map[string]string{
			origin + "/wp-sitemap.xml":                 sitemapIndex(origin + "/wp-sitemap-posts-product-1.xml"),
			origin + "/wp-sitemap-posts-product-1.xml": urlset(origin + "/p/a"),
		}, origin + "/wp-sitemap.xml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(tc.pages)
			got, rep := readAll(t, s, Limits{})
			if !slices.Equal(got, []string{origin + "/p/a"}) {
				t.Errorf("visited %q", got)
			}
			if rep.Announced || !slices.Equal(rep.Roots, []string{tc.root}) {
				t.Errorf("roots %q (announced %v), want %s", rep.Roots, rep.Announced, tc.root)
			}
			if len(rep.Skipped) != 0 {
				t.Errorf("skipped %q: a usual place that is missing is no news", rep.Skipped)
			}
			for _, p := range UsualPlaces() {
				if s.fetched[origin+p] > 0 && origin+p != tc.root && slices.Index(UsualPlaces(), p) > slices.Index(UsualPlaces(), strings.TrimPrefix(tc.root, origin)) {
					t.Errorf("%s fetched after %s was read", p, tc.root)
				}
			}
		})
	}
}

func TestReadSiteReadsARedirectedUsualPlaceOnce(t *testing.T) {
	s := newSite(map[string]string{origin + "/sitemap_index.xml": urlset(origin + "/p/a")})
	s.redirects[origin+"/sitemap.xml"] = origin + "/sitemap_index.xml"
	got, rep := readAll(t, s, Limits{})
	if !slices.Equal(got, []string{origin + "/p/a"}) || rep.Files != 1 {
		t.Errorf("visited %q in %d files, want /p/a once", got, rep.Files)
	}
}

func TestReadSiteWithoutSitemapsReportsNothing(t *testing.T) {
	s := newSite(map[string]string{origin + "/robots.txt": "User-agent: *\nDisallow:\n"})
	got, rep := readAll(t, s, Limits{})
	if len(got) != 0 || len(rep.Roots) != 0 || len(rep.Skipped) != 0 || rep.Files != len(UsualPlaces()) {
		t.Errorf("visited %q, report %+v", got, rep)
	}
}

func TestExtensionsAreReadIntoEntries(t *testing.T) {
	body := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc> https://shop.example/p/boot?color=red&amp;size=9 </loc>
    <lastmod>2024-05-01</lastmod>
    <image:image><image:loc>https://cdn.example/boot-1.jpg</image:loc><image:title>Boot</image:title></image:image>
    <image:image><image:loc>/media/boot-2.jpg</image:loc></image:image>
    <xhtml:link rel="alternate" hreflang="de" href="https://shop.example/de/p/boot"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="https://shop.example/p/boot"/>
    <xhtml:link rel="canonical" href="https://shop.example/ignored"/>
  </url>
  <url><loc>https://shop.example/p/bare&size=9</loc></url>
</urlset>`
	s := newSite(map[string]string{origin + "/sitemap.xml": body})
	var got []Entry
	r := Reader{Fetcher: s}
	if _, err := r.ReadSite(context.Background(), origin, func(e Entry) { got = append(got, e) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d entries, want 2: %+v", len(got), got)
	}
	e := got[0]
	if e.URL != "https://shop.example/p/boot?color=red&size=9" || e.LastMod != "2024-05-01" || e.File != origin+"/sitemap.xml" {
		t.Errorf("entry %+v", e)
	}
	if want := []string{"https://cdn.example/boot-1.jpg", origin + "/media/boot-2.jpg"}; !slices.Equal(e.Images, want) {
		t.Errorf("images %q, want %q", e.Images, want)
	}
	if want := []Alternate{{"de", origin + "/de/p/boot"}, {"x-default", origin + "/p/boot"}}; !slices.Equal(e.Alternates, want) {
		t.Errorf("alternates %+v, want %+v", e.Alternates, want)
	}
	// A bare "&", as many sitemaps write it, does not end the read.
	if got[1].URL != "https://shop.example/p/bare&size=9" {
		t.Errorf("second entry %q", got[1].URL)
	}
}

func TestMalformedFilesKeepWhatCameBeforeTheFault(t *testing.T) {
	s := newSite(map[string]string{
		origin + "/robots.txt": "Sitemap: " + origin + "/broken.xml\nSitemap: " + origin + "/html.xml\nSitemap: " + origin + "/good.xml\nSitemap: " + origin + "/bad.xml.gz\n",
		origin + "/broken.xml": `<urlset><url><loc>https://shop.example/p/a</loc></url><url><loc>https://shop.example/p/b</loc></url><url><loc>https://shop`,
		origin + "/html.xml":   "<html><body><a href='/p/x'>x</a></body></html>",
		origin + "/good.xml":   urlset(origin + "/p/c"),
		origin + "/bad.xml.gz": "\x1f\x8bnot really gzip",
	})
	got, rep := readAll(t, s, Limits{})
	if want := []string{origin + "/p/a", origin + "/p/b", origin + "/p/c"}; !slices.Equal(got, want) {
		t.Errorf("visited %q, want %q", got, want)
	}
	if len(rep.Skipped) != 3 {
		t.Fatalf("skipped %q, want the broken, the HTML and the bad gzip file", rep.Skipped)
	}
	for i, want := range []string{"broken.xml: malformed XML", "html.xml: not a sitemap", "bad.xml.gz: gzip"} {
		if !strings.Contains(rep.Skipped[i], want) {
			t.Errorf("skipped[%d] = %q, want it to say %q", i, rep.Skipped[i], want)
		}
	}
	if !slices.Equal(rep.Roots, []string{origin + "/broken.xml", origin + "/good.xml"}) {
		t.Errorf("roots %q: the broken file is a sitemap, the others not", rep.Roots)
	}
}

func TestTextSitemapsListOneURLALine(t *testing.T) {
	s := newSite(map[string]string{origin + "/sitemap.xml": "\ufeffhttps://shop.example/p/a\r\n\n  https://shop.example/p/b  \nnot a url\n"})
	got, _ := readAll(t, s, Limits{})
	if want := []string{origin + "/p/a", origin + "/p/b"}; !slices.Equal(got, want) {
		t.Errorf("visited %q, want %q", got, want)
	}
}

func TestLimitsStopReadingCleanly(t *testing.T) {
	var locs []string
	for i := range 10 {
		locs = append(locs, fmt.Sprintf("%s/p/%d", origin, i))
	}
	big := urlset(locs...)
	for _, tc := range []struct {
		name        string
		pages       map[string]string
		limits      Limits
		visited     int
		stopped     string
		skippedSays string
	}{
		{"URLs per file", map[string]string{
			origin + "/sitemap.xml": sitemapIndex(origin+"/a.xml", origin+"/b.xml"),
			origin + "/a.xml":       big, origin + "/b.xml": urlset(origin + "/p/b"),
		}, Limits{URLsPerFile: 4}, 5, "", "a.xml: read up to 4 URLs"},
		{"bytes per file, plain", map[string]string{origin + "/sitemap.xml": big},
			Limits{BytesPerFile: int64(strings.Index(big, "/p/3"))}, 3, "", "read up to"},
		{"bytes per file, gzipped", map[string]string{origin + "/sitemap.xml": gzipped(big)},
			Limits{BytesPerFile: int64(strings.Index(big, "/p/3"))}, 3, "", "larger than the limit per file"},
		{"a file exactly at the byte limit is whole", map[string]string{origin + "/sitemap.xml": gzipped(big)},
			Limits{BytesPerFile: int64(len(big))}, 10, "", ""},
		{"URLs in all", map[string]string{
			origin + "/sitemap.xml": sitemapIndex(origin+"/a.xml", origin+"/b.xml"),
			origin + "/a.xml":       big, origin + "/b.xml": urlset(origin + "/p/b"),
		}, Limits{URLs: 7}, 7, "the limit of 7 URLs", ""},
		{"files", map[string]string{
			origin + "/sitemap.xml": sitemapIndex(origin+"/a.xml", origin+"/b.xml"),
			origin + "/a.xml":       big, origin + "/b.xml": urlset(origin + "/p/b"),
		}, Limits{Files: 2}, 10, "the limit of 2 sitemap files", ""},
		{"nesting depth", map[string]string{
			origin + "/sitemap.xml": sitemapIndex(origin + "/1.xml"),
			origin + "/1.xml":       sitemapIndex(origin+"/2.xml", origin+"/p1.xml"),
			origin + "/2.xml":       sitemapIndex(origin + "/p2.xml"),
			origin + "/p1.xml":      urlset(origin + "/p/1"),
			origin + "/p2.xml":      urlset(origin + "/p/2"),
		}, Limits{Depth: 2}, 1, "", "p2.xml: nested deeper than 2 indexes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rep := readAll(t, newSite(tc.pages), tc.limits)
			if len(got) != tc.visited || rep.URLs != tc.visited {
				t.Errorf("visited %d (%d reported), want %d: %q", len(got), rep.URLs, tc.visited, got)
			}
			if rep.Stopped != tc.stopped {
				t.Errorf("stopped %q, want %q", rep.Stopped, tc.stopped)
			}
			said := strings.Join(rep.Skipped, "; ")
			if tc.skippedSays == "" && said != "" || !strings.Contains(said, tc.skippedSays) {
				t.Errorf("skipped %q, want it to say %q", said, tc.skippedSays)
			}
		})
	}
}

func TestReadEndsWithTheCallersContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fetcher := adapter.FetcherFunc(func(ctx context.Context, _ string) (*adapter.Document, error) { return nil, ctx.Err() })
	r := Reader{Fetcher: fetcher}
	if _, err := r.ReadSite(ctx, origin, func(Entry) {}); err == nil {
		t.Error("no error from a cancelled read")
	}
}
