package html

import (
	"slices"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// nextPage is the page after target, a page of the collection whose first page is
// collection: when target is a page of the site's numbering (as those a first page names
// ahead are) and links to the next number's page, that page; otherwise what nextPage
// finds. Most of a crawl's pages are named ahead, and on those the link to the next
// number is found among the page's targets (hrefs, tiles as listings marks them) by
// comparing strings, where nextPage has the host read out the text of every link that is
// not a tile's and looks each over: on a later demo category page, 3.5 % of the guest's
// work (BenchmarkListPage/html-later). A page that links to the next number but labels
// the link with an icon alone goes on too, where nextPage would have ended the
// collection there.
func nextPage(collection, target string, root sdk.Node, links []sdk.Node, hrefs []string, tiles []bool, urls *resolver) string {
	if target == collection {
		// The first page, no page of its numbering: nothing to read.
		return markedNextPage(root, links, tiles, urls)
	}
	if n, pageURL := pageNumbering(collection, target); pageURL != nil {
		if want := pageURL(n + 1); linksToPage(hrefs, tiles, want, urls) {
			return want
		}
	}
	return markedNextPage(root, links, tiles, urls)
}

// linksToPage reports whether a link other than a tile's (hrefs and tiles as followingPage
// has them) leads to want, a URL of the page's site. The link is taken as written, in
// full or from the root, or relative as a tail of want ("?page=3") and then resolved;
// written otherwise, it is not seen, and followingPage falls back on nextPage.
func linksToPage(hrefs []string, tiles []bool, want string, urls *resolver) bool {
	fromRoot := want
	if urls.origin != "" {
		fromRoot = strings.TrimPrefix(want, urls.origin)
	}
	for i, h := range hrefs {
		switch {
		case tiles[i] || h == "":
		case h == want || h == fromRoot:
			return true
		case len(h) < len(fromRoot) && strings.HasSuffix(fromRoot, h):
			if u, ok := urls.link(h); ok && u.url == want {
				return true
			}
		}
	}
	return false
}

// markedNextPage finds the following page of a listing: rel="next" (link or anchor), else the
// first of the page's links, other than its tiles' (tiles[i] for links[i]), whose text or
// label says next, or which is only a forward arrow.
func markedNextPage(root sdk.Node, links []sdk.Node, tiles []bool, urls *resolver) string {
	resolve := func(href string) string {
		u, _ := urls.link(href)
		return u.url
	}
	// Links with a rel at all are few; their rel's words are read here rather than by an
	// XPath of concat() and normalize-space() over every anchor of the page.
	for _, n := range root.Select("link[href][rel], a[href][rel]") {
		if !slices.Contains(strings.Fields(strings.ToLower(n.Attr("rel"))), "next") {
			continue
		}
		if u := resolve(n.Attr("href")); u != "" {
			return u
		}
	}
	// A tile's link names its product; reading the texts of a grid's every link was most
	// of this scan. The others' texts come in one call.
	others := make(sdk.Nodes, 0, len(links))
	for i, a := range links {
		if !tiles[i] {
			others = append(others, a)
		}
	}
	texts := others.Text()
	for i, a := range others {
		label := firstText(func() string { return texts[i] }, func() string { return a.Attr("aria-label") }, func() string { return a.Attr("title") })
		// Menus hold no next page, but a nav may be the pagination itself. Asked of the
		// few links that say next, not of every link.
		if !isNextLabel(label) || a.Ancestor("header, nav:not([class*=pag]):not([aria-label*=agination])").Exists() {
			continue
		}
		if u := resolve(a.Attr("href")); u != "" {
			return u
		}
	}
	return ""
}

// firstText returns the first of reads' texts that is not blank, trimmed, reading no
// further than it: each read is a call to the host.
func firstText(reads ...func() string) string {
	for _, read := range reads {
		if v := strings.TrimSpace(read()); v != "" {
			return v
		}
	}
	return ""
}

// isNextLabel reports whether a link's text means "next page": a next word with any
// arrows around it, or an arrow alone.
func isNextLabel(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return false
	}
	trimmed := strings.TrimSpace(strings.TrimFunc(s, isArrowOrSpace))
	if trimmed == "" {
		// An arrow alone; "‹" and "«" point back and are not trimmed, so never match.
		return strings.ContainsAny(s, "›»→>❯")
	}
	return isNextWord(trimmed)
}

// isNextWord reports whether s is the text of a "next page" link, arrows stripped, in
// one of a few languages. A switch rather than a map: a guest hashes strings slowly, and
// the lookup was most of reading a page's link labels.
func isNextWord(s string) bool {
	switch s {
	case "next", "next page", "weiter", "nächste", "nächste seite", "suivant", "page suivante", "siguiente",
		"página siguiente", "successivo", "pagina successiva", "avanti", "volgende", "próxima", "próximo",
		"seguinte", "nästa", "næste", "neste", "następna", "další", "次へ", "下一页":
		return true
	}
	return false
}

// isArrowOrSpace reports whether r is a forward arrow or a space, which a next page's
// label may have around its word.
func isArrowOrSpace(r rune) bool {
	switch r {
	case '›', '»', '→', '>', '⟩', '❯', ' ', '\u00a0':
		return true
	}
	return false
}
