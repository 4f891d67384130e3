package html

import (
	"slices"
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// nextPage returns the URL of the page after target, a page of the collection whose first
// page is collection; "" when target is the last page. hrefs[i] is the target of
// links[i], and tiles[i] reports whether links[i] is a tile's link.
//
// When target is a numbered page (?page=3) that links to the next number's page, that
// page is next, whatever the link's label says: an icon alone will do. Otherwise the
// page's markup says which page is next (markedNextPage).
func nextPage(collection, target string, root sdk.Node, links []sdk.Node, hrefs []string, tiles []bool, urls *resolver) string {
	if target == collection {
		// The first page has no number to read.
		return markedNextPage(root, links, tiles, urls)
	}
	if n, pageURL := pageNumbering(collection, target); pageURL != nil {
		if want := pageURL(n + 1); linksToPage(hrefs, tiles, want, urls) {
			return want
		}
	}
	return markedNextPage(root, links, tiles, urls)
}

// linksToPage reports whether a link other than a tile's leads to want, a URL on the
// page's site; hrefs and tiles are as nextPage has them. It compares the links as
// written: want in full, want's path from the root, or a tail of want ("?page=3"), which
// it then resolves. A link written otherwise is not found, and nextPage falls back on
// markedNextPage.
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

// markedNextPage returns the URL of the page that the markup marks as the next one: a
// link or anchor with rel="next", else the first link that is not a tile's (tiles[i] for
// links[i]) whose text, aria-label or title says next or is a forward arrow.
func markedNextPage(root sdk.Node, links []sdk.Node, tiles []bool, urls *resolver) string {
	resolve := func(href string) string {
		u, _ := urls.link(href)
		return u.url
	}
	// Few links have a rel attribute at all: select those, then read their rel's words.
	for _, n := range root.Select("link[href][rel], a[href][rel]") {
		if !slices.Contains(strings.Fields(strings.ToLower(n.Attr("rel"))), "next") {
			continue
		}
		if u := resolve(n.Attr("href")); u != "" {
			return u
		}
	}
	// A tile's link names its product, never the next page: skip the tiles, and ask the
	// host for the other links' texts in one call.
	others := make(sdk.Nodes, 0, len(links))
	for i, a := range links {
		if !tiles[i] {
			others = append(others, a)
		}
	}
	// The text, aria-label and title of each, in three calls: an icon's text (a
	// ligature such as "chevron_right", an SVG's title) may hide the label that says next.
	texts, labels, titles := others.Text(), others.Attr("aria-label"), others.Attr("title")
	for i, a := range others {
		if !isNextLabel(texts[i]) && !isNextLabel(labels[i]) && !isNextLabel(titles[i]) {
			continue
		}
		// Menus hold no next page, but a nav may be the pagination itself. Only the few
		// links that say next are checked.
		if a.Ancestor("header, nav:not([class*=pag]):not([aria-label*=agination])").Exists() {
			continue
		}
		if u := resolve(a.Attr("href")); u != "" {
			return u
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
		// Arrows alone. The backward arrows "‹" and "«" are not trimmed, so they never
		// get here.
		return strings.ContainsAny(s, "›»→>❯")
	}
	if isNextWord(trimmed) {
		return true
	}
	// A pager's words for screen readers, hidden beside the visible one: Magento's
	// "Page Next", or "Next" and a hidden "page" with no space left between them.
	compact := strings.ReplaceAll(trimmed, " ", "")
	for _, hidden := range []string{"page", "seite", "pagina", "página"} {
		compact = strings.TrimSuffix(strings.TrimPrefix(compact, hidden), hidden)
	}
	return compact != trimmed && isNextWord(compact)
}

// isNextWord reports whether s, a link's lower-cased text without arrows, says "next
// page" in one of a few languages. It is a switch rather than a map, because the guest
// hashes strings slowly.
func isNextWord(s string) bool {
	switch s {
	case "next", "next page", "weiter", "nächste", "suivante", "nächste seite", "suivant", "page suivante", "siguiente",
		"página siguiente", "successivo", "pagina successiva", "avanti", "volgende", "próxima", "próximo",
		"seguinte", "nästa", "næste", "neste", "następna", "další", "次へ", "下一页":
		return true
	}
	return false
}

// isArrowOrSpace reports whether r is a forward arrow or a space, which may surround the
// word of a next page's label.
func isArrowOrSpace(r rune) bool {
	switch r {
	case '›', '»', '→', '>', '⟩', '❯', ' ', '\u00a0':
		return true
	}
	return false
}
