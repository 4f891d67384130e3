package sitemap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/stockroom/stockroom/core/adapter"
)

// UsualPlaces returns the paths where sites keep their first sitemap when robots.txt
// names none, in the order they are tried: the protocol's and most platforms' (Shopify,
// Magento, BigCommerce), Yoast's and other WordPress plugins', WordPress's own.
func UsualPlaces() []string { return []string{"/sitemap.xml", "/sitemap_index.xml", "/wp-sitemap.xml"} }

// maxSkipped bounds the files a Report names as skipped, so that a site of a thousand
// broken sitemaps does not make a report of a thousand lines.
const maxSkipped = 20

// Reader reads a site's sitemaps. Fetcher is required; Limits default as documented.
type Reader struct {
	// Fetcher fetches every file, robots.txt included: the caller's address guard,
	// robots.txt rules and politeness apply to sitemaps as to any page.
	Fetcher adapter.Fetcher
	Limits  Limits
}

// Report says what a read found and where it stopped.
type Report struct {
	// Roots are the first files read: those robots.txt names, or the first of
	// UsualPlaces that is a sitemap. Empty when the site has none.
	Roots []string
	// Announced reports whether robots.txt named the roots.
	Announced bool
	// Files counts the sitemap files fetched, indexes included.
	Files int
	// URLs counts the entries visited.
	URLs int
	// Stopped names the limit that ended the read before every file was read; empty
	// when none did.
	Stopped string
	// Skipped names files not read, or read in part, each with the reason (the first
	// few only).
	Skipped []string
}

// skip records that the file at fileURL was not read whole, and why.
func (r *Report) skip(fileURL string, why error) {
	if len(r.Skipped) >= maxSkipped {
		return
	}
	line := why.Error()
	if !strings.Contains(line, fileURL) {
		// The fetcher's messages name the URL already.
		line = fileURL + ": " + line
	}
	r.Skipped = append(r.Skipped, line)
}

// ReadSite reads the sitemaps of the site at siteURL (any page of it; its origin is
// used) and calls visit with each page they name, in the order read. The sitemaps are
// those robots.txt announces (Sitemap: lines), all of them; when it names none, the first
// of UsualPlaces that is a sitemap.
func (r *Reader) ReadSite(ctx context.Context, siteURL string, visit func(Entry)) (Report, error) {
	origin, err := originOf(siteURL)
	if err != nil {
		return Report{}, err
	}
	announced, err := r.announced(ctx, origin)
	if err != nil {
		return Report{}, err
	}
	if len(announced) > 0 {
		rep, err := r.Read(ctx, announced, visit)
		rep.Announced = true
		return rep, err
	}
	var rep Report
	rd := r.newRead(&rep, visit)
	for _, p := range UsualPlaces() {
		ok, err := rd.root(ctx, origin+p, false)
		if err != nil || ok || rep.Stopped != "" {
			return rep, err
		}
	}
	return rep, nil
}

// Read reads the sitemaps at roots and the sitemaps they nest, and calls visit with each
// page they name, in the order read. It returns an error only when ctx ends.
func (r *Reader) Read(ctx context.Context, roots []string, visit func(Entry)) (Report, error) {
	var rep Report
	rd := r.newRead(&rep, visit)
	for _, u := range roots {
		if _, err := rd.root(ctx, u, true); err != nil || rep.Stopped != "" {
			return rep, err
		}
	}
	return rep, nil
}

// announced returns the sitemaps origin's robots.txt names.
func (r *Reader) announced(ctx context.Context, origin string) ([]string, error) {
	robotsURL := origin + "/robots.txt"
	d, err := r.Fetcher.Fetch(ctx, robotsURL)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", robotsURL, err)
	}
	if d.Status != 200 {
		return nil, nil
	}
	base, _ := url.Parse(robotsURL)
	return robotsSitemaps(d.Body, base), nil
}

// robotsSitemaps returns the sitemap URLs named by the Sitemap: lines of a robots.txt
// body, resolved against base (the robots.txt's own URL), each once, in order. The lines
// stand apart from the user-agent groups, so every one counts.
func robotsSitemaps(body []byte, base *url.URL) []string {
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), 64*1024)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "sitemap") {
			continue
		}
		f := file{url: base}
		if u := f.resolve(value); u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// read is the state of one Read: the files met, the queue and the counts.
type read struct {
	r      *Reader
	limits Limits
	rep    *Report
	visit  func(Entry)
	// seen holds every file URL requested or answered, so that an index naming a file
	// twice, or a usual place redirecting to another, is read once.
	seen map[string]bool
}

func (r *Reader) newRead(rep *Report, visit func(Entry)) *read {
	return &read{r: r, limits: r.Limits.withDefaults(), rep: rep, visit: visit, seen: map[string]bool{}}
}

// queued is a sitemap file waiting to be read, and how many indexes lie above it.
type queued struct {
	url   string
	depth int
}

// root reads the sitemap at rootURL and every sitemap below it, breadth first. It
// reports whether rootURL was a sitemap. A root that is not is named among the skipped
// files only when announced: a usual place that is missing says nothing.
func (rd *read) root(ctx context.Context, rootURL string, announced bool) (bool, error) {
	if rd.seen[rootURL] {
		return false, nil
	}
	queue := []queued{{url: rootURL}}
	isSitemap := false
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if rd.rep.Files == rd.limits.Files {
			rd.rep.Stopped = fmt.Sprintf("the limit of %d sitemap files", rd.limits.Files)
			return isSitemap, nil
		}
		children, ok, err := rd.file(ctx, q, announced || q.depth > 0)
		if err != nil {
			return isSitemap, err
		}
		if q.depth == 0 && ok {
			isSitemap = true
			rd.rep.Roots = append(rd.rep.Roots, q.url)
		}
		if rd.rep.Stopped != "" {
			return isSitemap, nil
		}
		for _, c := range children {
			if q.depth+1 > rd.limits.Depth {
				rd.rep.skip(c, fmt.Errorf("nested deeper than %d indexes", rd.limits.Depth))
				continue
			}
			queue = append(queue, queued{url: c, depth: q.depth + 1})
		}
	}
	return isSitemap, nil
}

// file fetches and reads one sitemap file, visiting its pages, and returns the sitemaps
// it names (an index's). ok reports whether it was a sitemap. Failures are recorded in
// the report when report is set.
func (rd *read) file(ctx context.Context, q queued, report bool) (children []string, ok bool, err error) {
	if rd.seen[q.url] {
		return nil, false, nil
	}
	rd.seen[q.url] = true
	rd.rep.Files++
	d, err := rd.r.Fetcher.Fetch(ctx, q.url)
	if err != nil {
		return nil, false, fmt.Errorf("read sitemap %s: %w", q.url, err)
	}
	skip := func(why error) ([]string, bool, error) {
		if report {
			rd.rep.skip(q.url, why)
		}
		return nil, false, nil
	}
	switch {
	case d.Status == 0:
		return skip(errors.New(d.Err))
	case d.Status != 200:
		return skip(fmt.Errorf("answered %d", d.Status))
	}
	fileURL := q.url
	if d.FinalURL != "" && d.FinalURL != q.url {
		if rd.seen[d.FinalURL] {
			return nil, true, nil // another name of a file already read
		}
		rd.seen[d.FinalURL] = true
		fileURL = d.FinalURL
	}
	base, err := url.Parse(fileURL)
	if err != nil {
		return skip(err)
	}
	f := &file{url: base, limits: rd.limits,
		page: func(e Entry) bool {
			rd.visit(e)
			rd.rep.URLs++
			if rd.rep.URLs == rd.limits.URLs {
				rd.rep.Stopped = fmt.Sprintf("the limit of %d URLs", rd.limits.URLs)
				return false
			}
			return true
		},
		child: func(u string) { children = append(children, u) },
	}
	k, err := f.parse(d.Body)
	switch {
	case errors.Is(err, ErrFileTooLarge):
		err = fmt.Errorf("read up to %d bytes: %w", rd.limits.BytesPerFile, err)
	case errors.Is(err, ErrTooManyURLs):
		err = fmt.Errorf("read up to %d URLs: %w", rd.limits.URLsPerFile, err)
	}
	if err != nil && (report || k != 0) {
		// A usual place that answers with something other than a sitemap (a shop's
		// "page not found" with status 200) is no sitemap, and no news.
		rd.rep.skip(q.url, err)
	}
	return children, k != 0, nil
}

// originOf returns the scheme and host of rawURL.
func originOf(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("sitemaps of %q: not a web site's URL", rawURL)
	}
	return u.Scheme + "://" + u.Host, nil
}
