package html

import (
	"strings"
	"unicode/utf8"
)

// pathSegments appends to buf the non-empty, lower-cased pathSegments of a URL path; a page's
// links reuse one buffer. One pass over the path, lower-casing only a segment that needs
// it, and for most bytes a table lookup and nothing else: in a guest every branch taken
// costs, and every link of a page comes through here.
func pathSegments(p string, buf []string) []string {
	start, lower := 0, true
	for i := 0; i < len(p); i++ {
		if slashOrMaybeUpper[p[i]] {
			if p[i] != '/' {
				lower = false
				continue
			}
			buf = appendSegment(buf, p[start:i], lower)
			start, lower = i+1, true
		}
	}
	return appendSegment(buf, p[start:], lower)
}

// appendSegment appends s to buf, lower-cased unless lower says it is already, when not
// empty.
func appendSegment(buf []string, s string, lower bool) []string {
	if s == "" {
		return buf
	}
	if !lower {
		s = strings.ToLower(s)
	}
	return append(buf, s)
}

// slashOrMaybeUpper are the bytes segments looks at twice: the slash, and those that may need
// lower-casing (upper-case ASCII letters, any byte of a multi-byte character).
var slashOrMaybeUpper = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '/' || 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf
	}
	return t
}()

// isProductPath reports whether a path looks like a product page: a product segment
// followed by a handle.
func isProductPath(segs []string) bool {
	for _, s := range segs[:max(len(segs)-1, 0)] {
		if isProductSegment(s) {
			return true
		}
	}
	return false
}

// isCategoryPath reports whether a path looks like a category: a category segment
// followed by a handle.
func isCategoryPath(segs []string) bool {
	return len(segs) >= 2 && isCategorySegment(segs[0])
}

func isExcludedPath(segs []string) bool {
	for _, s := range segs {
		if isExcludedSegment(s) {
			return true
		}
	}
	if n := len(segs); n > 0 {
		// Files (images, feeds, scripts) are never categories.
		last := segs[n-1]
		if i := strings.LastIndexByte(last, '.'); i >= 0 && !strings.HasSuffix(last, ".html") && !strings.HasSuffix(last, ".htm") {
			return true
		}
	}
	return false
}

// isCategorySegment reports whether s is a first path segment (or the segment before the
// handle) under which stores put their categories. The segment sets are switches rather
// than maps: a guest hashes strings slowly, and every link of a page meets them.
func isCategorySegment(s string) bool {
	switch s {
	case "collections", "collection", "category", "categories", "c", "shop", "departments",
		"department", "dept", "catalog", "catalogue", "browse", "cat", "kategorie", "categorie",
		"categoria":
		return true
	}
	return false
}

// isProductSegment reports whether s is a path segment under which stores put product
// pages.
func isProductSegment(s string) bool {
	switch s {
	case "products", "product", "p", "item", "items", "dp", "produkt", "produit", "producto",
		"prodotto":
		return true
	}
	return false
}

// isExcludedSegment reports whether s marks a link that is neither a category nor a
// product: the store's own machinery and its editorial pages.
func isExcludedSegment(s string) bool {
	switch s {
	case "cart", "basket", "bag", "checkout", "account", "accounts", "login", "logout",
		"register", "signin", "sign-in", "search", "blog", "blogs", "news", "pages", "page",
		"policy", "policies", "privacy", "terms", "contact", "about", "about-us", "help", "faq",
		"wishlist", "stores", "store-locator", "cdn", "static", "media", "assets", "sitemap.xml",
		"robots.txt":
		return true
	}
	return false
}
