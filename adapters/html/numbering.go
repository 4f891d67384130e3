package html

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// maxAhead is the most pages a first page names ahead, whatever size the page states.
// When a collection has more, the listing goes on from the last named page's Next.
const maxAhead = 1000

// pagesAhead returns the URLs of pages 2 to last of a collection, given the URL of its
// first page and that of its next page. It names them only when the next page's URL shows
// how the site numbers its pages: a query parameter that the first page lacks or sets to
// 1 and the next page sets to 2 (?page=2, ?p=2), or a path below the first page's that
// ends in 2 (/page/2, /2). Otherwise it names none, and the collection is listed one page
// after another, by its Next links.
//
// Pages named ahead can be fetched at once, where a chain of next links is fetched one
// page at a time.
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

// pageTemplate returns a function that writes the URL of page n of a collection, given
// the URLs of its first and second pages; nil when it cannot tell how the site numbers
// its pages.
func pageTemplate(first, next string) func(n int) string {
	if n, pageURL := pageNumbering(first, next); n == 2 {
		return pageURL
	}
	return nil
}

// pageNumbering reads page, a page of the collection whose first page is first, as the
// site's page number n, 2 or more. It returns n and a function that writes the URL of any
// page of the collection as the site numbers it: pageURL(n) is page itself. It returns 0
// and nil when page is not numbered in a way it can read (see pagesAhead).
func pageNumbering(first, page string) (n int, pageURL func(n int) string) {
	if n, pageURL := plainQueryNumbering(first, page); pageURL != nil {
		return n, pageURL
	}
	return parsedNumbering(first, page)
}

// plainQueryNumbering is pageNumbering for the usual case, read without net/url: a first
// page that is an http(s) URL of plain characters (see plainSite) without a query, and a
// page at first + "?key=n". It returns 0 and nil for pages of any other shape. For the
// pages it reads, it answers as parsedNumbering does; FuzzPlainQueryNumbering checks
// that.
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

// parsedNumbering is pageNumbering through net/url, for URLs of any shape.
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

// pageNumber reads s as a page number of 2 or more, written plainly (no sign, no leading
// zero). It returns 0 when s is not one.
func pageNumber(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 2 || strconv.Itoa(n) != s {
		return 0
	}
	return n
}

// queryNumbering is pageNumbering for a page whose query is first's with one parameter
// added as n, or changed from 1 to n. The other pages' URLs are written as page's, with
// only that parameter's value changed.
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
	// Find the parameter as page writes it, between separators, so that the same number
	// elsewhere in the query (a size, a filter) is left alone.
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

// pathNumbering is pageNumbering for a page whose path is first's followed by a number
// n, perhaps after one word (/page/3), with or without a closing slash.
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
	// The path is prefix, then n, then suffix.
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
