package crawl

import (
	"net/url"
	"path"
	"strings"

	"github.com/stockroom/stockroom/core/sitemap"
)

// pageKind is what a page a sitemap names is to a crawl.
type pageKind int

const (
	// unknownPage is a page whose address says nothing sure: the page itself tells, when
	// it is fetched (see sitemapPages).
	unknownPage pageKind = iota
	productPage
	collectionPage
	// otherPage is a page the crawl leaves alone: the home page, the store's machinery
	// (cart, account), its editorial and legal pages, files.
	otherPage
)

func (k pageKind) String() string {
	switch k {
	case productPage:
		return "product"
	case collectionPage:
		return "collection"
	case otherPage:
		return "other"
	}
	return "unknown"
}

// urlRules tell product and collection pages apart by their addresses: first by the
// patterns the detected platform's adapter declares (adapter.Info's URLPatterns and
// CollectionPatterns), then by the host's rules for the platforms most stores run on,
// then by the name of the sitemap file that named the page. RATIONALE.md says why the
// generic rules are the host's.
type urlRules struct {
	// products and collections are path.Match patterns over a URL's path, lower-cased and
	// without its trailing slash.
	products, collections []string
}

// classify says what the page e names is, from its address and the sitemap it came from.
func (r urlRules) classify(e sitemap.Entry) pageKind {
	u, err := url.Parse(e.URL)
	if err != nil {
		return otherPage
	}
	p := strings.ToLower(strings.TrimSuffix(u.Path, "/"))
	segs := strings.FieldsFunc(p, func(c rune) bool { return c == '/' })
	switch {
	case len(segs) == 0:
		return otherPage // the home page
	case isLanguagePrefix(segs[0]) && len(segs) == 1:
		return otherPage // a home page in another language
	}
	for _, s := range segs {
		if isOtherSegment(s) {
			return otherPage
		}
	}
	last := segs[len(segs)-1]
	if ext := path.Ext(last); ext != "" && !isPageExtension(ext) {
		return otherPage // a file: a picture, a feed, a document
	}
	if matchAny(r.products, p) {
		return productPage
	}
	if matchAny(r.collections, p) {
		return collectionPage
	}
	if k := genericKind(segs, len(e.Images) > 0); k != unknownPage {
		return k
	}
	return fileKind(e.File)
}

// matchAny reports whether the path p matches one of patterns.
func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if ok, _ := path.Match(strings.ToLower(strings.TrimSuffix(pat, "/")), p); ok {
			return true
		}
	}
	return false
}

// genericKind is what the host's rules make of a path's segments (lower case): the URL
// shapes of Shopify (/products/x, /collections/x), WooCommerce (/product/x,
// /product-category/x), Magento (x.html, categories nested as a/b.html) and the segments
// most other stores use (/p/x, /dp/x, /item/x, /c/x, /category/x). withImages reports
// whether the sitemap gives the page pictures, as Magento's give its products' and not
// its categories'.
func genericKind(segs []string, withImages bool) pageKind {
	// A product segment with a handle after it: /products/x, /collections/a/products/x,
	// /en/p/x, /Some-Name/dp/B000.
	for _, s := range segs[:len(segs)-1] {
		if isProductSegment(s) {
			return productPage
		}
	}
	first := 0
	if isLanguagePrefix(segs[0]) {
		first = 1
	}
	if len(segs)-first >= 2 && isCollectionSegment(segs[first]) {
		return collectionPage
	}
	if strings.HasSuffix(segs[len(segs)-1], ".html") || strings.HasSuffix(segs[len(segs)-1], ".htm") {
		switch {
		case withImages:
			return productPage
		case len(segs)-first >= 2:
			// Magento nests a category's address in its parent's; its products sit at
			// the top unless the store puts category paths into product addresses.
			return collectionPage
		}
	}
	return unknownPage
}

// fileKind is what the name of the sitemap file that named a page says of the pages in
// it: platforms split their sitemaps by kind (Shopify's sitemap_products_1.xml,
// WooCommerce's product-sitemap.xml and product_cat-sitemap.xml, WordPress's
// wp-sitemap-posts-product-1.xml and wp-sitemap-taxonomies-product_cat-1.xml).
func fileKind(fileURL string) pageKind {
	u, err := url.Parse(fileURL)
	if err != nil {
		return unknownPage
	}
	// "sitemap" itself holds "item".
	name := strings.ReplaceAll(strings.ToLower(path.Base(u.Path)), "sitemap", "")
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(name, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("product_cat", "product-cat", "collection", "categor", "catalog_cat", "department"):
		return collectionPage
	case has("product_tag", "product-tag", "product_brand", "product-brand", "attribute"):
		return otherPage // other groupings of products the categories already hold
	case has("product", "item", "goods"):
		return productPage
	case has("page", "post", "blog", "article", "news", "author", "tag", "video", "store", "cms"):
		return otherPage
	}
	return unknownPage
}

// isProductSegment reports whether s is a path segment under which stores put product
// pages.
func isProductSegment(s string) bool {
	switch s {
	case "products", "product", "p", "item", "items", "dp", "produkt", "produkte", "produit", "produits",
		"producto", "productos", "prodotto", "prodotti", "artikel":
		return true
	}
	return false
}

// isCollectionSegment reports whether s is a first path segment (after a language) under
// which stores put their categories.
func isCollectionSegment(s string) bool {
	switch s {
	case "collections", "collection", "product-category", "category", "categories", "c", "shop",
		"departments", "department", "dept", "catalog", "catalogue", "browse", "cat", "kategorie",
		"categorie", "categoria", "categorias", "kategorien":
		return true
	}
	return false
}

// isOtherSegment reports whether s marks a page that is neither a product nor a
// collection: the store's machinery, its editorial and legal pages, other groupings of
// products (tags, brands, searches) that the categories already hold.
func isOtherSegment(s string) bool {
	switch s {
	case "cart", "basket", "bag", "checkout", "checkouts", "account", "accounts", "my-account", "customer",
		"customers", "login", "logout", "register", "signin", "sign-in", "wishlist", "compare", "search",
		"blog", "blogs", "news", "article", "articles", "post", "posts", "author", "pages", "page", "cms",
		"policy", "policies", "privacy", "privacy-policy", "terms", "terms-of-service", "legal", "imprint",
		"impressum", "contact", "contact-us", "about", "about-us", "help", "faq", "faqs", "shipping",
		"returns", "shipping-returns", "delivery", "stores", "store-locator", "tag", "tags", "product-tag",
		"brand", "brands", "cdn", "static", "media", "assets", "wp-content", "wp-admin", "wp-json", "feed":
		return true
	}
	return false
}

// isPageExtension reports whether ext, a path's extension, is one web pages have.
func isPageExtension(ext string) bool {
	switch ext {
	case ".html", ".htm", ".php", ".aspx", ".asp", ".jsp":
		return true
	}
	return false
}

// isLanguagePrefix reports whether s looks like a language or region segment that
// stores put before their paths: "de", "en-gb", "fr_ca".
func isLanguagePrefix(s string) bool {
	switch len(s) {
	case 2:
		return isLower(s)
	case 5:
		return (s[2] == '-' || s[2] == '_') && isLower(s[:2]) && isLower(s[3:])
	}
	return false
}

func isLower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
