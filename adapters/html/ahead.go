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
	f, err := url.Parse(first)
	if err != nil {
		return nil
	}
	s, err := url.Parse(next)
	if err != nil || f.Scheme != s.Scheme || f.Host != s.Host || f.User != nil || s.User != nil {
		return nil
	}
	if f.Path == s.Path {
		return queryTemplate(f, s)
	}
	if f.RawQuery == s.RawQuery {
		return pathTemplate(f, s)
	}
	return nil
}

// queryTemplate: next's query is first's with one parameter added as 2, or changed from 1
// to 2. The query is rewritten in next's own form: only that parameter's value changes.
func queryTemplate(first, next *url.URL) func(n int) string {
	fq, err := url.ParseQuery(first.RawQuery)
	if err != nil {
		return nil
	}
	nq, err := url.ParseQuery(next.RawQuery)
	if err != nil || len(nq) < len(fq) || len(nq) > len(fq)+1 {
		return nil
	}
	key := ""
	for k, v := range nq {
		was, ok := fq[k]
		switch {
		case ok && slices.Equal(was, v):
			continue
		case key != "" || len(v) != 1 || v[0] != "2" || ok && (len(was) != 1 || was[0] != "1"):
			return nil
		}
		key = k
	}
	if key == "" {
		return nil
	}
	for k := range fq {
		if _, ok := nq[k]; !ok {
			return nil
		}
	}
	// The parameter as next writes it, between separators: a value of 2 elsewhere in the
	// query (a size, a filter) is left alone.
	params := strings.Split(next.RawQuery, "&")
	at := -1
	for i, p := range params {
		k, v, _ := strings.Cut(p, "=")
		if uk, err := url.QueryUnescape(k); err == nil && uk == key && v == "2" {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	base := *next
	return func(n int) string {
		p := append([]string(nil), params...)
		k, _, _ := strings.Cut(p[at], "=")
		p[at] = k + "=" + strconv.Itoa(n)
		u := base
		u.RawQuery = strings.Join(p, "&")
		return u.String()
	}
}

// pathTemplate: next's path is first's followed by a number 2, after at most one word
// (/page/2), with or without a closing slash.
func pathTemplate(first, next *url.URL) func(n int) string {
	path := next.EscapedPath()
	below, ok := strings.CutPrefix(path, strings.TrimSuffix(first.EscapedPath(), "/")+"/")
	if !ok {
		return nil
	}
	word, number := "", strings.TrimSuffix(below, "/")
	if i := strings.LastIndexByte(number, '/'); i >= 0 {
		word, number = number[:i+1], number[i+1:]
	}
	if number != "2" || strings.Contains(strings.TrimSuffix(word, "/"), "/") {
		return nil
	}
	// path is prefix, 2, suffix.
	suffix := strings.TrimPrefix(below, word+number)
	prefix := strings.TrimSuffix(path, number+suffix)
	if _, err := url.PathUnescape(prefix + suffix); err != nil {
		return nil
	}
	base := *next
	return func(n int) string {
		u := base
		u.RawPath = prefix + strconv.Itoa(n) + suffix
		u.Path, _ = url.PathUnescape(u.RawPath)
		return u.String()
	}
}
