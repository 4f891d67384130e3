package html

import (
	"strings"
	"unicode/utf8"
)

// pathSegments appends the non-empty segments of the URL path p to buf, lower-cased, and
// returns buf. A page's links reuse one buffer. One pass reads the path, and only a
// segment that needs it is lower-cased; most bytes cost one table lookup, because every
// link of a page comes through here and branches are slow in the guest.
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

// appendSegment appends s to buf when s is not empty. It lower-cases s first, unless lower
// says s is lower case already.
func appendSegment(buf []string, s string, lower bool) []string {
	if s == "" {
		return buf
	}
	if !lower {
		s = strings.ToLower(s)
	}
	return append(buf, s)
}

// slashOrMaybeUpper marks the bytes pathSegments must look at: the slash, and the bytes
// that may need lower-casing (ASCII capital letters, and any byte of a multi-byte
// character).
var slashOrMaybeUpper = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '/' || 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf
	}
	return t
}()

// isProductPath reports whether a path, given by its segments, looks like a product
// page's: a product segment followed by a handle.
func isProductPath(segs []string) bool {
	for _, s := range segs[:max(len(segs)-1, 0)] {
		if isProductSegment(s) {
			return true
		}
	}
	return false
}

// isCategoryPath reports whether a path, given by its segments, looks like a category's:
// a category segment first, then a handle.
func isCategoryPath(segs []string) bool {
	return len(segs) >= 2 && isCategorySegment(segs[0])
}

// isExcludedPath reports whether a path, given by its segments, leads to neither a
// category nor a product: one of the store's own pages, or a file.
func isExcludedPath(segs []string) bool {
	for _, s := range segs {
		if isExcludedSegment(s) {
			return true
		}
	}
	if n := len(segs); n > 0 {
		// Files (images, feeds, scripts) are neither categories nor products; pages
		// ending in .html or .htm may be.
		last := segs[n-1]
		if i := strings.LastIndexByte(last, '.'); i >= 0 && !strings.HasSuffix(last, ".html") && !strings.HasSuffix(last, ".htm") {
			return true
		}
	}
	return false
}

// isCategorySegment reports whether s is a path's first segment under which stores put
// their categories. This function and the two below are switches rather than maps,
// because the guest hashes strings slowly and every link of a page meets them.
func isCategorySegment(s string) bool {
	switch s {
	case "collections", "collection", "category", "categories", "c", "shop", "departments",
		"department", "dept", "catalog", "catalogue", "browse", "cat", "kategorie", "categorie",
		"categoria":
		return true
	}
	return false
}

// isProductSegment reports whether s is a path segment under which stores put their
// product pages.
func isProductSegment(s string) bool {
	switch s {
	case "products", "product", "p", "item", "items", "dp", "produkt", "produit", "producto",
		"prodotto":
		return true
	}
	return false
}

// isExcludedSegment reports whether s marks a link that leads to neither a category nor a
// product: the store's own pages (cart, account, search) and its editorial pages.
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
