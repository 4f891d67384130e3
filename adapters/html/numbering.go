package html

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// maxAhead bounds the pages a first page names ahead, whatever size the page states: the
// listing goes on from the last one's Next.
const maxAhead = 1000

// pagesAhead names the pages 2 to last of a collection whose first page is first and
// whose next link is next, when next says how its site numbers pages: a query parameter
// that the first page lacks or holds as 1 and next holds as 2 (?page=2, ?p=2), or a path
// that ends in 2 below the first page's (/page/2, /2). Anything else names nothing, and
// the collection is listed one page after another, by its Next links.
//
// A store's category pages are a chain of next links, which a crawl can only follow one
// at a time: its longest category, listed alone at the end of the crawl, set the crawl's
// length. Named ahead, its pages are listed as many at a time as the host allows.
func pagesAhead(first, next string, last int) []string {
	if last < 2 {
		return nil
	}
	last = min(last, maxAhead+1)
	page := pageTemplate(first, next)
	if page == nil {
		return nil
	}
	out := make([]string, 0, last-1)
	for n := 2; n <= last; n++ {
		out = append(out, page(n))
	}
	return out
}

// pageTemplate returns the URL of page n of the collection whose first page is first and
// second page next, or nil when it cannot tell how their site numbers pages.
func pageTemplate(first, next string) func(n int) string {
	if n, pageURL := pageNumbering(first, next); n == 2 {
		return pageURL
	}
	return nil
}

// pageNumbering reads page, a page of the collection whose first page is first, as the site's
// page n (2 or more), and returns n and the URL of any page of that pageNumbering: pageURL(n) is
// page itself. It returns 0 and nil when page is not numbered in a way it can tell (see
// pagesAhead).
func pageNumbering(first, page string) (n int, pageURL func(n int) string) {
	if n, pageURL := plainQueryNumbering(first, page); pageURL != nil {
		return n, pageURL
	}
	return parsedNumbering(first, page)
}

// plainQueryNumbering is numbering for its usual case, a first page that is an http(s) URL
// of plain characters (letters, digits, "-._~", a port's colon, slashes) without a query
// and its page n at ?key=n, read without net/url: in a guest, parsing the two URLs and
// their queries was two thirds of finding the page after a page named ahead. It returns
// what parsedNumbering does (FuzzPlainQueryNumbering), or 0 and nil when the pages are not
// of that shape.
func plainQueryNumbering(first, page string) (int, func(n int) string) {
	rest, ok := strings.CutPrefix(page, first)
	if !ok || len(rest) < 4 || rest[0] != '?' {
		return 0, nil
	}
	if _, ok := plainSite(first); !ok {
		return 0, nil
	}
	key, value, ok := strings.Cut(rest[1:], "=")
	n := pageNumber(value)
	if !ok || n == 0 || key == "" || !plainWord(key) {
		return 0, nil
	}
	prefix := page[:len(page)-len(value)]
	return n, func(n int) string { return prefix + strconv.Itoa(n) }
}

// parsedNumbering is numbering through net/url, for any shape of URL.
func parsedNumbering(first, page string) (n int, pageURL func(n int) string) {
	f, err := url.Parse(first)
	if err != nil {
		return 0, nil
	}
	p, err := url.Parse(page)
	if err != nil || f.Scheme != p.Scheme || f.Host != p.Host || f.User != nil || p.User != nil {
		return 0, nil
	}
	if f.Path == p.Path {
		return queryNumbering(f, p)
	}
	if f.RawQuery == p.RawQuery {
		return pathNumbering(f, p)
	}
	return 0, nil
}

// pageNumber reads s as a page number of 2 or more written plainly (no sign, no leading
// zero); 0 otherwise.
func pageNumber(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 2 || strconv.Itoa(n) != s {
		return 0
	}
	return n
}

// queryNumbering: page's query is first's with one parameter added as n, or changed from
// 1 to n. Other pages are written in page's own form: only that parameter's value changes.
func queryNumbering(first, page *url.URL) (int, func(n int) string) {
	fq, err := url.ParseQuery(first.RawQuery)
	if err != nil {
		return 0, nil
	}
	pq, err := url.ParseQuery(page.RawQuery)
	if err != nil || len(pq) < len(fq) || len(pq) > len(fq)+1 {
		return 0, nil
	}
	key, number := "", 0
	for k, v := range pq {
		was, ok := fq[k]
		switch {
		case ok && slices.Equal(was, v):
			continue
		case key != "" || len(v) != 1 || pageNumber(v[0]) == 0 || ok && (len(was) != 1 || was[0] != "1"):
			return 0, nil
		}
		key, number = k, pageNumber(v[0])
	}
	if key == "" {
		return 0, nil
	}
	for k := range fq {
		if _, ok := pq[k]; !ok {
			return 0, nil
		}
	}
	// The parameter as page writes it, between separators: the same number elsewhere in
	// the query (a size, a filter) is left alone.
	params := strings.Split(page.RawQuery, "&")
	value := strconv.Itoa(number)
	paramIndex := -1
	for i, p := range params {
		k, v, _ := strings.Cut(p, "=")
		if uk, err := url.QueryUnescape(k); err == nil && uk == key && v == value {
			paramIndex = i
		}
	}
	if paramIndex < 0 {
		return 0, nil
	}
	base := *page
	return number, func(n int) string {
		p := append([]string(nil), params...)
		k, _, _ := strings.Cut(p[paramIndex], "=")
		p[paramIndex] = k + "=" + strconv.Itoa(n)
		u := base
		u.RawQuery = strings.Join(p, "&")
		return u.String()
	}
}

// pathNumbering: page's path is first's followed by a number n, after at most one word
// (/page/3), with or without a closing slash.
func pathNumbering(first, page *url.URL) (int, func(n int) string) {
	path := page.EscapedPath()
	below, ok := strings.CutPrefix(path, strings.TrimSuffix(first.EscapedPath(), "/")+"/")
	if !ok {
		return 0, nil
	}
	word, number := "", strings.TrimSuffix(below, "/")
	if i := strings.LastIndexByte(number, '/'); i >= 0 {
		word, number = number[:i+1], number[i+1:]
	}
	n := pageNumber(number)
	if n == 0 || strings.Contains(strings.TrimSuffix(word, "/"), "/") {
		return 0, nil
	}
	// path is prefix, n, suffix.
	suffix := strings.TrimPrefix(below, word+number)
	prefix := strings.TrimSuffix(path, number+suffix)
	if _, err := url.PathUnescape(prefix + suffix); err != nil {
		return 0, nil
	}
	base := *page
	return n, func(n int) string {
		u := base
		u.RawPath = prefix + strconv.Itoa(n) + suffix
		u.Path, _ = url.PathUnescape(u.RawPath)
		return u.String()
	}
}
